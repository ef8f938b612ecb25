#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace posenc {

// `posenc bench [--json]`: the kernel benchmarks of docs/ARCHITECTURE.md, Performance, each measured
// against the machine's own write bandwidth in the same run.
// The parameter changes the window's interaction benchmark makes at each of its two sizes
// (--interaction-changes, --scale-changes); none skips that size, whose keys are then zero.
struct InteractionChanges
{
    int interactive = 200; // L 8192 x d 1024
    int atScale = 40; // L 2^20 x d 8192
};

// A benchmark that lives above the cli (the window's interaction benchmark, registered by
// app/main.cpp): it returns extra keys for --json, also printed one per line.
using ExtraBenchmark = std::function<QJsonObject(const InteractionChanges &changes, QTextStream &err)>;
void registerExtraBenchmark(ExtraBenchmark benchmark);

int runBenchCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
QList<CommandOption> benchOptions();
HelpPage benchHelp();

} // namespace posenc
