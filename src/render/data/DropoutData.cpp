#include "DropoutData.h"

#include "FigureText.h"

#include "core/ParamText.h"
#include "core/ThreadPools.h"

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::DropoutCompute {

Block defaultBlock(Shape table)
{
    return {0, std::min<std::int64_t>(table.rows, 48), 0, std::min<std::int64_t>(table.cols, 48)};
}

namespace {

// Dropped cells among evenly spaced whole rows, at most `budget` cells; counted per tile.
std::optional<std::pair<std::int64_t, std::int64_t>> countDropped(const Engine &engine, std::int64_t budget,
                                                                  const ComputeOptions &options)
{
    const Shape s = engine.shape(Quantity::Mask);
    const std::int64_t rows = std::clamp<std::int64_t>(budget / std::max<std::int64_t>(1, s.cols), 1, s.rows);
    const std::int64_t stride = (s.rows + rows - 1) / rows;
    const std::int64_t bandRows
        = std::max<std::int64_t>(1, (std::int64_t(1) << 18) / std::max<std::int64_t>(1, s.cols));
    // Contiguous when every row is measured, else one row per stride.
    const std::int64_t tiles = stride == 1 ? (s.rows + bandRows - 1) / bandRows : (s.rows + stride - 1) / stride;
    std::vector<std::int64_t> dropped(static_cast<std::size_t>(tiles), 0), cells(static_cast<std::size_t>(tiles), 0);
    const bool done = forEachTile(tiles, options.threads, options.cancel, [&](std::int64_t tile) {
        const Block block = stride == 1
            ? Block {tile * bandRows, std::min(bandRows, s.rows - tile * bandRows), 0, s.cols}
            : Block {tile * stride, 1, 0, s.cols};
        RowMatrixXf mask(block.rows, block.cols);
        engine.computeBlock(Quantity::Mask, block, mask);
        dropped[static_cast<std::size_t>(tile)] = static_cast<std::int64_t>((mask.array() == 0.0f).count());
        cells[static_cast<std::size_t>(tile)] = block.cells();
    });
    if (!done)
        return std::nullopt;
    std::int64_t d = 0, c = 0;
    for (std::size_t i = 0; i < dropped.size(); ++i) {
        d += dropped[i];
        c += cells[i];
    }
    return std::pair {d, c};
}

} // namespace

std::optional<DropoutData> compute(const Engine &engine, const DropoutRequest &request, Detail detail,
                                   const ComputeOptions &options)
{
    const Params &params = engine.params();
    DropoutData data;
    data.p = params.dropout;
    data.training = params.training;
    data.mode = params.dropoutMode;
    const HeatmapRequest base {Quantity::Mask, request.block, request.pixelRows, request.pixelCols,
                               Budget::cells(detail)};
    // A preview is the resampler's first pass (labelled so in its grids); the full detail exact.
    const int pass = detail == Detail::Preview ? 0 : HeatmapResampler::kLastPass;
    auto mask = HeatmapResampler::resample(engine, base, options, pass);
    if (!mask)
        return std::nullopt;
    HeatmapRequest outputRequest = base;
    outputRequest.quantity = Quantity::Output;
    auto output = HeatmapResampler::resample(engine, outputRequest, options, pass);
    if (!output)
        return std::nullopt;
    const auto counted = countDropped(engine, Budget::cells(detail) / 2, options);
    if (!counted)
        return std::nullopt;
    data.mask = std::move(*mask);
    data.output = std::move(*output);
    data.measuredDrop = counted->second > 0 ? static_cast<double>(counted->first) / counted->second : 0.0;
    data.measuredCells = counted->second;
    return data;
}

QString summary(const DropoutData &data)
{
    const QString mode = ParamText::toString(data.mode);
    if (!data.training)
        return u"evaluation mode (%1): dropout is the identity, Y = X"_s.arg(mode);
    const QString factor = data.p < 1.0 ? FigureText::formatNumber(1.0 / (1.0 - data.p), 4) : u"— (p = 1: all zero)"_s;
    return u"training, %1: p = %2, dropped %3 of %4 cells measured; kept values × 1/(1−p) = %5"_s.arg(mode)
        .arg(FigureText::formatNumber(data.p, 4))
        .arg(FigureText::formatNumber(data.measuredDrop, 4))
        .arg(FigureText::formatCount(data.measuredCells))
        .arg(factor);
}

} // namespace posenc::DropoutCompute
