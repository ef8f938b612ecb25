#pragma once

#include "io/ReadError.h"

namespace posenc {

// The exit codes of docs/ARCHITECTURE.md, Command line: scripts and tests depend on them.
enum ExitCode : int {
    ExitDone = 0,
    ExitUsage = 2, // invalid usage or parameter: the message names it and its allowed range
    ExitIo = 3, // input/output error: the message names the path and the reason
    ExitOverBudget = 4, // over the memory budget: the message gives cells and GiB
    ExitInterrupted = 130, // stopped by Ctrl+C (128 + SIGINT, as a shell reports it): nothing written
};

// One exit code per kind of mistake, whatever the command: a file that cannot be read, or is
// malformed, is 3; what was asked of a sound file and is not there (a tensor it lacks, a file of
// several tensors without one named, an array that is not a table) is a mistake of the command
// line, 2, as a parameter out of range is; holding it past the memory budget is 4.
inline ExitCode exitCodeOf(const ReadError &error)
{
    switch (error.kind) {
    case ReadError::Kind::File:
        return ExitIo;
    case ReadError::Kind::Choice:
        return ExitUsage;
    case ReadError::Kind::OverBudget:
        return ExitOverBudget;
    }
    return ExitIo;
}

} // namespace posenc
