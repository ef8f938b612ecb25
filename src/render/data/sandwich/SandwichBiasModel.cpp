#include "SandwichBiasModel.h"

#include "SandwichBiasMeans.h"

#include "core/sandwich/SandwichBias.h"
#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<SandwichBiasData> SandwichBiasModel::compute(const Params &params, const PanelExtent &causal,
                                                           const PanelExtent &bidirectional,
                                                           const std::atomic<bool> *cancel)
{
    SandwichBiasData data;
    data.sandwich = params.sandwich;
    data.maxLen = params.maxLen;
    data.afterQuery = SandwichBias::afterQuery(params.sandwich.headDim,
                                               SandwichBias::scale(params.sandwich.heads, params.sandwich.head));
    const Shape table {params.maxLen, params.maxLen};
    for (const auto &[panel, mask, grid] :
         {std::tuple {causal, SandwichMask::Causal, &data.causal},
          std::tuple {bidirectional, SandwichMask::Bidirectional, &data.bidirectional}}) {
        const HeatmapRequest visible = VisibleCells::request(panel, Quantity::SandwichBias, table);
        auto computed = SandwichBiasMeans::grid(params.sandwich, mask, visible.block, visible.pixelRows,
                                                visible.pixelCols, cancel);
        if (!computed)
            return std::nullopt;
        *grid = std::move(*computed);
    }
    data.lowest = std::min(data.causal.minValue, data.bidirectional.minValue);
    data.highest = std::max(data.causal.maxValue, data.bidirectional.maxValue);
    if (!(data.highest > data.lowest)) // one value in view: a scale around it
        data.highest = data.lowest + 1.0;
    for (HeatmapGrid *grid : {&data.causal, &data.bidirectional})
        grid->colourExtent = std::max(std::abs(data.lowest), std::abs(data.highest));
    return data;
}

QString SandwichBiasModel::name() const
{
    return u"sandwich-bias"_s;
}

QString SandwichBiasModel::title() const
{
    return u"Sandwich bias"_s;
}

QString SandwichBiasModel::summary() const
{
    return u"head K's bias matrix over queries x keys, causal as NeMo returns it (distance 0 after the query, not "
           "-inf) and bidirectional side by side on one colour scale, exact per pixel at any L"_s;
}

QList<FigureOption> SandwichBiasModel::options() const
{
    return {ViewOptions::positions(u"queries and keys A..B-1 in view"_s)};
}

QList<Quantity> SandwichBiasModel::inputs(const FigureState &) const
{
    return {Quantity::SandwichBias};
}

std::optional<TableRequest> SandwichBiasModel::table(const Params &params, const FigureState &state) const
{
    // The cells in view under the parameters' mask: `posenc table sandwich-bias --positions A:B --dims C:D`.
    return VisibleCells::queryKeyCells(Quantity::SandwichBias, params.maxLen, state);
}

QList<ParamError> SandwichBiasModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, params.maxLen);
}

FigureResult SandwichBiasModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    auto data = compute(request.engine->params(), request.panels.value(0), request.panels.value(1), &cancel);
    if (!data)
        return {};
    return {std::make_shared<const SandwichBiasData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
