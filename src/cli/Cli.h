#pragma once

#include <QStringList>
#include <QTextStream>

#include <functional>

namespace posenc {

// `posenc [OPTIONS] COMMAND [OPTIONS]`: options may come before the command as after it. The
// arguments with the command's word moved first (arguments[0] is the program), where it is the
// first argument that is neither an option nor an option's value; as given where there is none
// before `--`, or where the first such argument names no command (a FILE of the window). A tensor
// of standard input, "-:TENSOR", which a parser would read as an option, and the positional
// arguments after it go after a "--".
QStringList commandFirst(const QStringList &arguments);
// Whether `argument` is an option written apart from the value it takes ("--output", "-o",
// "-d-model", any command's or the window's): the next argument is its value.
bool takesNextAsValue(const QString &argument);
// Whether the first argument names a subcommand (Commands::all()) rather than the window.
bool isSubcommand(const QStringList &arguments);
// Runs `posenc SUBCOMMAND ...` (arguments[0] is the program) and returns the exit code.
int runCli(const QStringList &arguments, QTextStream &out, QTextStream &err);
// Runs `work` and returns its exit code, or 4 with a message naming the memory when it ran out:
// a refused allocation (std::bad_alloc, TableAllocationFailed) becomes "posenc ...: ... GiB",
// never an abort. `command` begins the message ("posenc table").
int runWithinMemory(const QString &command, QTextStream &err, const std::function<int()> &work);

} // namespace posenc
