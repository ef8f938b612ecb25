#pragma once

namespace posenc {

// The exit codes of docs/ARCHITECTURE.md, Command line: scripts and tests depend on them.
enum ExitCode : int {
    ExitDone = 0,
    ExitUsage = 2, // invalid usage or parameter: the message names it and its allowed range
    ExitIo = 3, // input/output error: the message names the path and the reason
    ExitOverBudget = 4, // over the memory budget: the message gives cells and GiB
    ExitInterrupted = 130, // stopped by Ctrl+C (128 + SIGINT, as a shell reports it): nothing written
};

} // namespace posenc
