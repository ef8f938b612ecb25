#pragma once

#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc bench [--json]`: the kernel benchmarks of DESIGN.md section 4, each measured
// against the machine's own write bandwidth in the same run.
int runBenchCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace posenc
