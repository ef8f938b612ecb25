#pragma once

#include "HelpPage.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace posenc {

// The arguments of a subcommand that takes none but --help (posenc lessons, posenc presets): its
// exit code once they are dealt with (0 after printing `help`, 2 after saying what was wrong), or
// nothing when the command goes on.
std::optional<int> readNoArguments(const QString &command, const QStringList &arguments, const HelpPage &help,
                                   QTextStream &out, QTextStream &err);

} // namespace posenc
