#pragma once

namespace posenc {

// The exit codes of docs/ARCHITECTURE.md, Command line: scripts and tests depend on them.
enum ExitCode : int {
    ExitDone = 0,
    ExitUsage = 2, // invalid usage or parameter: the message names it and its allowed range
    ExitIo = 3, // input/output error: the message names the path and the reason
    ExitOverBudget = 4, // over the memory budget: the message gives cells and GiB
};

} // namespace posenc
