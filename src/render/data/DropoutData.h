#pragma once

#include "Detail.h"
#include "FigureModel.h"
#include "HeatmapResampler.h"

#include <atomic>
#include <optional>

namespace posenc {

struct DropoutRequest
{
    Block block; // the cells in view
    int pixelRows = 1; // pixels of each of the two panels
    int pixelCols = 1;
};

// The chosen dropout variant at work: the keep mask and the output Y over the same cells,
// and the fraction of dropped cells measured against p.
struct DropoutData : FigureData
{
    HeatmapGrid mask;
    HeatmapGrid output;
    double measuredDrop = 0.0; // dropped cells / cells measured
    std::int64_t measuredCells = 0;
    double p = 0.0;
    bool training = true;
    DropoutMode mode = DropoutMode::Sum;
};

namespace DropoutCompute {

// The first positions and columns shown by default: few enough to see single cells.
Block defaultBlock(Shape table);
std::optional<DropoutData> compute(const Engine &engine, const DropoutRequest &request, Detail detail,
                                   const ComputeOptions &options);
// "training, sum: p = 0.1, dropped 0.0998 of 8,388,608 cells; kept values x 1/(1-p) = 1.111"
QString summary(const DropoutData &data);

} // namespace DropoutCompute

} // namespace posenc
