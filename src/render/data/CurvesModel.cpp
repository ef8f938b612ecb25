#include "CurvesModel.h"

#include "ViewOptions.h"

using namespace Qt::StringLiterals;

namespace posenc {

std::vector<std::int64_t> CurvesModel::columns(const Params &params, const FigureState &state)
{
    const std::vector<std::int64_t> listed = ViewOptions::columns(state);
    return listed.empty() ? CurvesCompute::defaultColumns(params.peColumns()) : listed;
}

QString CurvesModel::name() const
{
    return u"curves"_s;
}

QString CurvesModel::title() const
{
    return u"Curves"_s;
}

QString CurvesModel::summary() const
{
    return u"PE[:, j] against position for a few columns (--dims to choose them)"_s;
}

QList<FigureOption> CurvesModel::options() const
{
    FigureOption dims = ViewOptions::dims(
        u"the columns drawn, e.g. 0,1,64:66, at most %1 (empty: a few low, middle and high columns)"_s.arg(
            CurvesCompute::kMaxCurves),
        true);
    return {dims, ViewOptions::positions(u"positions A..B-1 in view"_s)};
}

QString CurvesModel::defaultText(const QString &key, const Params &params) const
{
    if (key != QString::fromUtf16(ViewOptions::kDims))
        return FigureModel::defaultText(key, params);
    QStringList list;
    for (const std::int64_t c : CurvesCompute::defaultColumns(params.peColumns()))
        list.append(QString::number(c));
    return list.join(u',');
}

QList<Quantity> CurvesModel::inputs(const FigureState &) const
{
    return {Quantity::Pe};
}

QList<ParamError> CurvesModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, params.peColumns(), CurvesCompute::kMaxCurves);
}

FigureResult CurvesModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const PanelExtent panel = request.panels.value(0);
    const CurvesRequest curves {columns(request.engine->params(), request.state), panel.x.lower, panel.x.upper,
                                panel.pixels().width()};
    auto data = CurvesCompute::compute(*request.engine, curves, {request.threads, &cancel});
    if (!data)
        return {};
    return {std::make_shared<const CurvesData>(std::move(*data)), std::nullopt};
}

std::optional<TableRequest> CurvesModel::table(const Params &params, const FigureState &state) const
{
    // The PE columns drawn at the integer positions in view: `posenc table pe --positions A:B
    // --dims LIST`.
    const std::vector<std::int64_t> drawn = columns(params, state);
    const auto range = state.range(QString::fromUtf16(kPositionsAxis));
    if (!range || drawn.empty())
        return std::nullopt;
    const auto rows = TableView::integersInView(range->lower, range->upper, params.maxLen);
    if (!rows)
        return std::nullopt;
    return TableRequest {TableRequest::Cells, Quantity::Pe, TableView::blockCovering(rows->first, rows->second, drawn),
                         drawn};
}

} // namespace posenc
