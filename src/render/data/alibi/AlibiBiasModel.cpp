#include "AlibiBiasModel.h"

#include "AlibiBiasMeans.h"

#include "core/alibi/AlibiSlopes.h"
#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

#include <algorithm>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc {

double AlibiBiasModel::lowest(double slope, const Block &block)
{
    const std::int64_t farthest
        = std::max(std::abs(block.row0 - (block.colEnd() - 1)), std::abs(block.rowEnd() - 1 - block.col0));
    return -slope * static_cast<double>(std::max<std::int64_t>(farthest, 1));
}

std::optional<AlibiBiasData> AlibiBiasModel::compute(const Params &params, const PanelExtent &causal,
                                                     const PanelExtent &symmetric, const std::atomic<bool> *cancel)
{
    AlibiBiasData data;
    data.heads = params.alibi.heads;
    data.head = params.alibi.head;
    data.maxLen = params.maxLen;
    data.mask = params.alibi.mask;
    data.slope = AlibiSlopes::of(data.heads, data.head);
    const Shape table {params.maxLen, params.maxLen};
    for (const auto &[panel, mask, grid] : {std::tuple {causal, AlibiMask::Causal, &data.causal},
                                            std::tuple {symmetric, AlibiMask::Symmetric, &data.symmetric}}) {
        const HeatmapRequest visible = VisibleCells::request(panel, Quantity::AlibiBias, table);
        auto computed
            = AlibiBiasMeans::grid(data.slope, mask, visible.block, visible.pixelRows, visible.pixelCols, cancel);
        if (!computed)
            return std::nullopt;
        computed->colourExtent = -lowest(data.slope, visible.block);
        *grid = std::move(*computed);
    }
    data.lowest = std::min(lowest(data.slope, data.causal.block), lowest(data.slope, data.symmetric.block));
    return data;
}

QString AlibiBiasModel::name() const
{
    return u"alibi-bias"_s;
}

QString AlibiBiasModel::title() const
{
    return u"ALiBi bias"_s;
}

QString AlibiBiasModel::summary() const
{
    return u"head K's bias matrix over queries x keys, causal (-inf above the diagonal, masked) and symmetric side "
           "by side on one colour scale, exact per pixel at any L"_s;
}

QList<FigureOption> AlibiBiasModel::options() const
{
    return {ViewOptions::positions(u"queries and keys A..B-1 in view"_s)};
}

QList<Quantity> AlibiBiasModel::inputs(const FigureState &) const
{
    return {Quantity::AlibiBias};
}

std::optional<TableRequest> AlibiBiasModel::table(const Params &params, const FigureState &state) const
{
    // The cells in view under the parameters' mask: `posenc table alibi-bias --positions A:B --dims C:D`.
    return VisibleCells::queryKeyCells(Quantity::AlibiBias, params.maxLen, state);
}

QList<ParamError> AlibiBiasModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, params.maxLen);
}

FigureResult AlibiBiasModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    auto data = compute(request.engine->params(), request.panels.value(0), request.panels.value(1), &cancel);
    if (!data)
        return {};
    return {std::make_shared<const AlibiBiasData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
