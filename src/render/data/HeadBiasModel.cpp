#include "HeadBiasModel.h"

#include "render/data/ViewOptions.h"

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<std::array<HeatmapGrid, 2>>
HeadBiasModel::grids(Quantity quantity, std::int64_t maxLen, const PanelExtent &causal, const PanelExtent &twoSided,
                     const std::function<std::optional<HeatmapGrid>(bool causal, const HeatmapRequest &visible)> &grid)
{
    std::array<HeatmapGrid, 2> out;
    const Shape table {maxLen, maxLen};
    for (const bool isCausal : {true, false}) {
        auto computed = grid(isCausal, VisibleCells::request(isCausal ? causal : twoSided, quantity, table));
        if (!computed)
            return std::nullopt;
        out[isCausal ? 0 : 1] = std::move(*computed);
    }
    return out;
}

HeadBiasModel::HeadBiasModel(QString name, QString title, QString summary)
    : m_name(std::move(name))
    , m_title(std::move(title))
    , m_summary(std::move(summary))
{ }

QList<FigureOption> HeadBiasModel::ownOptions() const
{
    return {ViewOptions::positions(u"queries and keys A..B-1 in view"_s)};
}

QList<Quantity> HeadBiasModel::inputs(const FigureState &) const
{
    return {quantity()};
}

std::optional<TableRequest> HeadBiasModel::table(const Params &params, const FigureState &state) const
{
    // The cells in view under the parameters' mask: `posenc table <quantity> --positions A:B --dims C:D`.
    return VisibleCells::queryKeyCells(quantity(), params.maxLen, state);
}

QList<ParamError> HeadBiasModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, params.maxLen);
}

FigureResult HeadBiasModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    auto data = dataFor(request.engine->params(), request.panels.value(0), request.panels.value(1), &cancel);
    if (!data)
        return {};
    return {std::move(data), std::nullopt};
}

} // namespace posenc
