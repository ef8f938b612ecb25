#include "SandwichBiasModel.h"

#include "SandwichBiasMeans.h"

#include "core/sandwich/SandwichBias.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

SandwichBiasModel::SandwichBiasModel()
    : HeadBiasModel(u"sandwich-bias"_s, u"Sandwich bias"_s,
                        u"head K's bias matrix over queries x keys, causal as NeMo returns it (distance 0 after the query, not "
           "-inf) and bidirectional side by side on one colour scale, exact per pixel at any L"_s)
{ }

std::optional<SandwichBiasData> SandwichBiasModel::compute(const Params &params, const PanelExtent &causal,
                                                           const PanelExtent &bidirectional,
                                                           const std::atomic<bool> *cancel)
{
    SandwichBiasData data;
    data.sandwich = params.sandwich;
    data.maxLen = params.maxLen;
    data.afterQuery = SandwichBias::afterQuery(params.sandwich.headDim,
                                               SandwichBias::scale(params.sandwich.heads, params.sandwich.head));
    auto panels = grids(Quantity::SandwichBias, params.maxLen, causal, bidirectional,
                       [&](bool isCausal, const HeatmapRequest &visible) {
                           return SandwichBiasMeans::grid(params.sandwich,
                                                          isCausal ? SandwichMask::Causal : SandwichMask::Bidirectional,
                                                          visible.block, visible.pixelRows, visible.pixelCols, cancel);
                       });
    if (!panels)
        return std::nullopt;
    data.causal = std::move((*panels)[0]);
    data.bidirectional = std::move((*panels)[1]);
    data.lowest = std::min(data.causal.minValue, data.bidirectional.minValue);
    data.highest = std::max(data.causal.maxValue, data.bidirectional.maxValue);
    if (!(data.highest > data.lowest)) // one value in view: a scale around it
        data.highest = data.lowest + 1.0;
    for (HeatmapGrid *grid : {&data.causal, &data.bidirectional})
        grid->colourExtent = std::max(std::abs(data.lowest), std::abs(data.highest));
    return data;
}

std::shared_ptr<const FigureData> SandwichBiasModel::dataFor(const Params &params, const PanelExtent &causal,
                                                             const PanelExtent &bidirectional,
                                                             const std::atomic<bool> *cancel) const
{
    auto data = compute(params, causal, bidirectional, cancel);
    return data ? std::make_shared<const SandwichBiasData>(std::move(*data)) : nullptr;
}

} // namespace posenc
