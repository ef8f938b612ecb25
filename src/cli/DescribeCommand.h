#pragma once

#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc describe`: the numbers RoPE's parameters derive (RopeFrequencies::describe), a line
// "key: value" each in a fixed order, or one JSON object with --json; unset values are null.
// It needs --encoding rope (from a flag, a session or a preset): under another encoding it exits
// 2 saying so, since none of its keys has a meaning there.
int runDescribeCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace posenc
