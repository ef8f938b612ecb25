#pragma once

#include <QJsonObject>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace posenc {

// `posenc bench [--json]`: the kernel benchmarks of docs/ARCHITECTURE.md, Performance, each measured
// against the machine's own write bandwidth in the same run.
// A benchmark that lives above the cli (the window's interaction benchmark, registered by
// app/main.cpp): it returns extra keys for --json, also printed one per line.
using ExtraBenchmark = std::function<QJsonObject(QTextStream &err)>;
void registerExtraBenchmark(ExtraBenchmark benchmark);

int runBenchCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace posenc
