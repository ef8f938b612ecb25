#include "PrecisionModel.h"

#include "PrecisionCompute.h"
#include "render/data/ViewOptions.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

double PrecisionModel::bound(std::int64_t position, double frequency)
{
    return static_cast<double>(position) * frequency * (std::ldexp(1.0, -23) + std::ldexp(1.0, -47))
        + std::ldexp(1.0, -25);
}

QString PrecisionModel::name() const
{
    return u"precision"_s;
}

QString PrecisionModel::title() const
{
    return u"Float32 precision"_s;
}

QString PrecisionModel::summary() const
{
    return u"the error of float32 angles at long positions: its maximum per band of positions against the "
           "bound float32 rounding predicts, and per pixel"_s;
}

QList<FigureOption> PrecisionModel::ownOptions() const
{
    return {ViewOptions::positions(u"positions A..B-1 in view"_s)};
}

QList<Quantity> PrecisionModel::inputs(const FigureState &) const
{
    return {Quantity::Error};
}

QList<ParamError> PrecisionModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, params.peColumns());
}

bool PrecisionModel::hasPreview(const FigureRequest &request) const
{
    const PanelExtent lower = request.panels.value(1);
    return PrecisionCompute::cellsInView(request.engine->params(), lower) > Budget::cells(Detail::Preview);
}

FigureResult PrecisionModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    auto data = PrecisionCompute::compute(*request.engine, request.panels.value(0), request.panels.value(1),
                                          request.detail, request.threads, &cancel);
    if (!data)
        return {};
    return {std::make_shared<const PrecisionData>(std::move(*data)), std::nullopt};
}

std::optional<TableRequest> PrecisionModel::table(const Params &params, const FigureState &state) const
{
    // The error's whole cells in view: `posenc table error --positions A:B --dims C:D`.
    const auto positions = state.range(QString::fromUtf16(kPositionsAxis));
    const auto columns = state.range(QString::fromUtf16(kColumnsAxis));
    if (!positions || !columns)
        return std::nullopt;
    const auto rows = TableView::cellsInView(positions->lower, positions->upper, params.maxLen);
    const auto cols = TableView::cellsInView(columns->lower, columns->upper, params.peColumns());
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::Error,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

} // namespace posenc
