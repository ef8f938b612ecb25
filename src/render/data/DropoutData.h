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

// Dropped cells among the cells under dropout: the rows the variant drops at random, not those
// protect-special passes through whole nor masked-fill's padding, which no dice decide.
struct DropCount
{
    std::int64_t dropped = 0;
    std::int64_t cells = 0; // cells under dropout counted
    std::int64_t rows = 0; // rows looked at, whatever their rule
    bool everyRow = true; // every row of the block was looked at (else evenly spaced ones)

    double fraction() const { return cells > 0 ? static_cast<double>(dropped) / static_cast<double>(cells) : 0.0; }
};

// The chosen dropout variant at work: the keep mask and the output Y over the same cells,
// and the fraction of dropped cells measured against p.
struct DropoutData : FigureData
{
    HeatmapGrid mask;
    HeatmapGrid output;
    Params params; // what the titles name and the token roles mark
    DropCount count; // over the whole table
};

namespace DropoutCompute {

// `rows` x `cols` cells from the first, and further down to show a few padding rows past
// seq_len when the sequence ends not far below `rows`: [CLS], [SEP] and padding in one view.
Block sequenceBlock(const Params &params, std::int64_t rows, std::int64_t cols);

// The cells of `block` counted by the variant's row rules, over evenly spaced whole rows of it
// when it holds more than `budget` cells; nothing when cancelled.
std::optional<DropCount> countDropped(const Engine &engine, const Block &block, std::int64_t budget,
                                      const ComputeOptions &options);

std::optional<DropoutData> compute(const Engine &engine, const DropoutRequest &request, Detail detail,
                                   const ComputeOptions &options);
// What the variant did, and what was counted: "training, mode sum: dropped 52,482 of 524,288
// cells under dropout (10.01 %, p = 0.1)  ·  kept values × 1/(1−p) = 1.111", with the rows
// passed through or zeroed and not counted.
QString summary(const DropoutData &data);

} // namespace DropoutCompute

} // namespace posenc
