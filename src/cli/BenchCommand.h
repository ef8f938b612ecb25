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
// (--interaction-changes, --scale-changes), and for each family's views and the check heatmap
// (--view-changes); none skips that run, whose keys are then zero.
struct InteractionChanges
{
    // The views whose changes are timed: the sinusoid's at L 8192 (the run of --interaction-changes),
    // each family's, the positions' figures over a batch of 64 x 32768, and the check heatmap's.
    static inline const QStringList kViews {
        QStringLiteral("sinusoidal"), QStringLiteral("rope"),      QStringLiteral("alibi"), QStringLiteral("t5"),
        QStringLiteral("deberta"),    QStringLiteral("positions"), QStringLiteral("check")};

    int interactive = 200; // L 8192 x d 1024
    int atScale = 40; // L 2^20 x d 8192
    int perView = 100; // each family's default views at its presets' scale, the check heatmap's zooms
    // The views timed (--views): kViews unless the caller chose some.
    QStringList views = kViews;
    // The check heatmap's table: 1,048,576 x 1024 unless --max-len or --d-model chose a size.
    std::int64_t checkRows = 0;
    std::int64_t checkCols = 0;
};

// A benchmark that lives above the cli (the window's interaction benchmark, registered by
// app/main.cpp): it returns extra keys for --json, also printed one per line.
using ExtraBenchmark = std::function<QJsonObject(const InteractionChanges &changes, QTextStream &err)>;
void registerExtraBenchmark(ExtraBenchmark benchmark);

int runBenchCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
QList<CommandOption> benchOptions();
HelpPage benchHelp();

} // namespace posenc
