#pragma once

#include "CommandOption.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>

#include <variant>

// The options every mode of posenc check takes, a table's, --apply's, --position-ids' and
// --config's alike (docs/ARCHITECTURE.md, Command line): --threads and --quiet, so that a script's
// one command line serves each mode. A mode with no parallel work or progress line takes them too.
namespace posenc::CheckCommonOptions {

// --threads N and --quiet.
QList<CommandOption> options();

// --threads as given: 0 where it is not, else the count, or the message naming the flag and its
// range where it is no whole number in [1, 1024].
std::variant<int, QString> threads(const QCommandLineParser &parser);

} // namespace posenc::CheckCommonOptions
