#pragma once

#include <QStringList>
#include <QTextStream>

namespace posenc {

// Whether the first argument names a subcommand (export, table, bench, lessons) rather than the window.
bool isSubcommand(const QStringList &arguments);
// Runs `posenc SUBCOMMAND ...` (arguments[0] is the program) and returns the exit code.
int runCli(const QStringList &arguments, QTextStream &out, QTextStream &err);
// The top-level usage text.
QString cliUsage();

} // namespace posenc
