#include "DropoutData.h"

#include "FigureText.h"

#include "core/ParamText.h"
#include "core/ThreadPools.h"

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::DropoutCompute {

Block sequenceBlock(const Params &params, std::int64_t rows, std::int64_t cols)
{
    const std::int64_t n = params.sequenceLength();
    std::int64_t shown = rows;
    // Up to twice the rows, to reach a sequence's end and 4 padding rows beyond it.
    if (n < params.maxLen && n + 4 > rows && n + 4 <= 2 * rows)
        shown = n + 4;
    return {0, std::min(params.maxLen, shown), 0, std::min(params.dModel, cols)};
}

std::optional<DropCount> countDropped(const Engine &engine, const Block &block, std::int64_t budget,
                                      const ComputeOptions &options)
{
    if (block.isEmpty())
        return DropCount {};
    const DropoutMask &rules = engine.dropoutMask();
    // The columns dropout acts on: concat's PE columns in embedding mode (its s·E columns in pe
    // mode) are kept, not drawn.
    const auto droppable = engine.params().droppableColumnsIn(block.col0, block.cols);
    const std::int64_t first = droppable.first, end = droppable.second; // a lambda's captures below
    const std::int64_t rows = std::clamp<std::int64_t>(budget / std::max<std::int64_t>(1, block.cols), 1, block.rows);
    const std::int64_t stride = (block.rows + rows - 1) / rows;
    const std::int64_t bandRows
        = std::max<std::int64_t>(1, (std::int64_t(1) << 18) / std::max<std::int64_t>(1, block.cols));
    // Contiguous bands when every row is counted, else one row per stride.
    const std::int64_t tiles
        = stride == 1 ? (block.rows + bandRows - 1) / bandRows : (block.rows + stride - 1) / stride;
    std::vector<DropCount> counts(static_cast<std::size_t>(tiles));
    const bool done = forEachTile(tiles, options.threads, options.cancel, [&](std::int64_t tile) {
        const Block band = stride == 1
            ? Block {block.row0 + tile * bandRows, std::min(bandRows, block.rows - tile * bandRows), block.col0,
                     block.cols}
            : Block {block.row0 + tile * stride, 1, block.col0, block.cols};
        RowMatrixXf mask(band.rows, band.cols);
        engine.computeBlock(Quantity::Mask, band, mask);
        DropCount &count = counts[static_cast<std::size_t>(tile)];
        count.rows = band.rows;
        for (std::int64_t r = 0; r < band.rows; ++r) {
            if (rules.rowRule(band.row0 + r) != DropoutMask::RowRule::Dropout)
                continue;
            count.dropped
                += static_cast<std::int64_t>((mask.row(r).segment(first, end - first).array() == 0.0f).count());
            count.cells += end - first;
        }
    });
    if (!done)
        return std::nullopt;
    DropCount total;
    total.everyRow = stride == 1;
    for (const DropCount &c : counts) {
        total.dropped += c.dropped;
        total.cells += c.cells;
        total.rows += c.rows;
    }
    return total;
}

std::optional<DropoutData> compute(const Engine &engine, const DropoutRequest &request, Detail detail,
                                   const ComputeOptions &options)
{
    DropoutData data;
    data.params = engine.params();
    const HeatmapRequest base {Quantity::Mask, request.block, request.pixelRows, request.pixelCols,
                               Budget::cells(detail)};
    // A preview is the resampler's first pass (labelled so in its grids); the full detail exact,
    // within the cap of every figure (a larger view: the largest pass within, labelled so).
    const int pass
        = detail == Detail::Preview ? 0 : HeatmapResampler::lastPassWithin(engine, base, Budget::kMaxExactCells);
    auto mask = HeatmapResampler::resample(engine, base, options, pass);
    if (!mask)
        return std::nullopt;
    HeatmapRequest outputRequest = base;
    outputRequest.quantity = Quantity::Output;
    auto output = HeatmapResampler::resample(engine, outputRequest, options, pass);
    if (!output)
        return std::nullopt;
    const Shape table = engine.shape(Quantity::Mask);
    const auto counted = countDropped(engine, {0, table.rows, 0, table.cols}, Budget::cells(detail) / 2, options);
    if (!counted)
        return std::nullopt;
    data.mask = std::move(*mask);
    data.output = std::move(*output);
    data.count = *counted;
    return data;
}

namespace {

QString rowsText(std::int64_t first, std::int64_t end)
{
    return end - first == 1 ? FigureText::formatCount(first)
                            : u"%1–%2"_s.arg(FigureText::formatCount(first), FigureText::formatCount(end - 1));
}

// The rows no dice decide: masked-fill's padding, and the rows protect-special passes through.
QStringList fixedRows(const Params &params)
{
    QStringList parts;
    const std::int64_t n = params.sequenceLength();
    if (params.dropoutMode == DropoutMode::MaskedFill && n < params.maxLen)
        parts.append(u"padding rows %1 (positions ≥ seq_len %2) zeroed by masked_fill"_s.arg(
            rowsText(n, params.maxLen), FigureText::formatCount(n)));
    if (params.dropoutMode == DropoutMode::ProtectSpecial && params.training) {
        QStringList rows;
        for (const std::int64_t row : params.specialRows())
            rows.append(FigureText::formatCount(row));
        rows.removeDuplicates();
        parts.append(rows.size() == 1 ? u"special row %1 passed through whole"_s.arg(rows.first())
                                      : u"special rows %1 passed through whole"_s.arg(rows.join(u", "_s)));
    }
    return parts;
}

} // namespace

QString summary(const DropoutData &data)
{
    const Params &params = data.params;
    const QString mode = ParamText::toString(params.dropoutMode);
    QStringList parts;
    if (!params.training) {
        const bool padding = params.dropoutMode == DropoutMode::MaskedFill && params.sequenceLength() < params.maxLen;
        parts.append(padding ? u"evaluation, mode %1: no dropout; Y = X but for the padding"_s.arg(mode)
                             : u"evaluation, mode %1: no dropout, Y = X"_s.arg(mode));
        return (parts + fixedRows(params)).join(u"  ·  "_s);
    }
    const QString where = data.count.everyRow ? QString() : u" in evenly spaced rows"_s;
    // A count and its share, so that the share reads against p: "dropped 52,480 of 524,288 cells
    // under dropout (10.01 %, p = 0.1)"; no share of nothing (every row passed through or padding).
    const QString p = NumberText::compact(params.dropout, 4);
    if (data.count.cells == 0)
        parts.append(u"training, mode %1: no cell under dropout (p = %2)"_s.arg(mode, p));
    else
        parts.append(
            u"training, mode %1: dropped %2 of %3 cells under dropout%4 (%5\u00a0%, p = %6)"_s.arg(mode)
                .arg(FigureText::formatCount(data.count.dropped), FigureText::formatCount(data.count.cells), where)
                .arg(NumberText::compact(100.0 * data.count.fraction(), 4), p));
    if (params.dropout >= 1.0)
        parts.append(params.dropoutMode == DropoutMode::Embedding        ? u"p = 1: s·E all dropped, Y = PE"_s
                         : params.dropoutMode == DropoutMode::Positional ? u"p = 1: PE all dropped, Y = s·E"_s
                                                                         : u"p = 1: nothing kept, nothing divided"_s);
    else
        parts.append(u"kept values × 1/(1−p) = %1"_s.arg(NumberText::compact(1.0 / (1.0 - params.dropout), 4)));
    return (parts + fixedRows(params)).join(u"  ·  "_s);
}

} // namespace posenc::DropoutCompute
