#pragma once

#include <QStringList>
#include <QTextStream>

#include <functional>

namespace posenc {

// Whether the first argument names a subcommand (Commands::all()) rather than the window.
bool isSubcommand(const QStringList &arguments);
// Runs `posenc SUBCOMMAND ...` (arguments[0] is the program) and returns the exit code.
int runCli(const QStringList &arguments, QTextStream &out, QTextStream &err);
// Runs `work` and returns its exit code, or 4 with a message naming the memory when it ran out:
// a refused allocation (std::bad_alloc, TableAllocationFailed) becomes "posenc ...: ... GiB",
// never an abort. `command` begins the message ("posenc table").
int runWithinMemory(const QString &command, QTextStream &err, const std::function<int()> &work);

} // namespace posenc
