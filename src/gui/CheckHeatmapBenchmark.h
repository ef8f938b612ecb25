#pragma once

#include "InteractionBenchmark.h"

#include <QTextStream>

#include <cstdint>

namespace posenc::CheckHeatmapBenchmark {

// The heatmap of File > Check a table… zoomed as the wheel does (docs/ARCHITECTURE.md,
// Performance): a rows x cols float32 sinusoid written to a temporary directory and checked in the
// dialog, then `changes` zooms, halving the view about a point of the table ten times and doubling
// it back ten times, each measured from the zoom to the grid of the new view drawn (its preview,
// or every cell where each pixel row has one row); every twentieth zoom, deep in the table, waits
// for every cell too. Needs a QApplication; the file is removed. No change: nothing is run.
InteractionBenchmark::Result run(std::int64_t rows, std::int64_t cols, int changes, QTextStream &err);

} // namespace posenc::CheckHeatmapBenchmark
