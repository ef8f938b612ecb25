#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QList>
#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc describe`: the numbers a family's parameters derive (Description), a line "key: value"
// each in a fixed order, or one JSON object with --json; unset values are null. It needs a family
// that has such numbers (from --encoding, a session, a preset or a family's parameter): under
// another it exits 2 saying so, since none of its keys has a meaning there.
int runDescribeCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
QList<CommandOption> describeOptions();
HelpPage describeHelp();

} // namespace posenc
