#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc describe`: the numbers a family's parameters derive (its FamilySpec::describe, RoPE's
// from RopeFrequencies::describe, ...), a line "key: value" each in a fixed order, or one JSON
// object with --json; unset values are null. It needs an --encoding whose family has them (from a
// flag, a session or a preset): under another encoding it exits 2 saying so.
int runDescribeCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

namespace DescribeCommand {
// The families describe takes: "rope, alibi, t5 or deberta".
QString describedFamilies();
} // namespace DescribeCommand

} // namespace posenc
