#include "AlibiBiasModel.h"

#include "AlibiBiasMeans.h"

#include "core/alibi/AlibiSlopes.h"

#include <algorithm>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc {

AlibiBiasModel::AlibiBiasModel()
    : HeadBiasModel(u"alibi-bias"_s, u"ALiBi bias"_s,
                        u"head K's bias matrix over queries x keys, causal (-inf above the diagonal, masked) and symmetric side "
           "by side on one colour scale, exact per pixel at any L"_s)
{ }

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
    auto panels = grids(Quantity::AlibiBias, params.maxLen, causal, symmetric,
                       [&](bool isCausal, const HeatmapRequest &visible) -> std::optional<HeatmapGrid> {
                           auto grid = AlibiBiasMeans::grid(data.slope,
                                                            isCausal ? AlibiMask::Causal : AlibiMask::Symmetric,
                                                            visible.block, visible.pixelRows, visible.pixelCols, cancel);
                           if (grid)
                               grid->colourExtent = -lowest(data.slope, visible.block);
                           return grid;
                       });
    if (!panels)
        return std::nullopt;
    data.causal = std::move((*panels)[0]);
    data.symmetric = std::move((*panels)[1]);
    data.lowest = std::min(lowest(data.slope, data.causal.block), lowest(data.slope, data.symmetric.block));
    return data;
}

std::shared_ptr<const FigureData> AlibiBiasModel::dataFor(const Params &params, const PanelExtent &causal,
                                                          const PanelExtent &symmetric,
                                                          const std::atomic<bool> *cancel) const
{
    auto data = compute(params, causal, symmetric, cancel);
    return data ? std::make_shared<const AlibiBiasData>(std::move(*data)) : nullptr;
}

} // namespace posenc
