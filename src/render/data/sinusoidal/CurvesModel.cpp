#include "CurvesModel.h"

#include "render/data/ViewOptions.h"

using namespace Qt::StringLiterals;

namespace posenc {

bool CurvesModel::isLadder(const FigureState &state)
{
    return state.option(QString::fromUtf16(ViewOptions::kDims)).trimmed() == QString::fromUtf16(CurvesCompute::kLadder);
}

std::vector<std::int64_t> CurvesModel::columns(const Params &params, const FigureState &state)
{
    if (isLadder(state))
        return CurvesCompute::ladderColumns(params);
    const std::vector<std::int64_t> listed = ViewOptions::columns(state);
    return listed.empty() ? CurvesCompute::defaultColumns(params) : listed;
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

QList<FigureOption> CurvesModel::ownOptions() const
{
    FigureOption dims = ViewOptions::dims(
        u"the columns drawn, e.g. 0,1,64:66, at most %1, numbered as in X (concat: the last k); ladder: the "
        "sines of the pairs at 0, 1/8, 1/4, 3/8 and 5/8 of the pairs, the same wavelengths at any width; empty: a "
        "few low, middle and high columns"_s.arg(CurvesCompute::kMaxCurves),
        true);
    return {dims, ViewOptions::positions(u"positions A..B-1 in view"_s)};
}

QString CurvesModel::defaultText(const QString &key, const Params &params) const
{
    if (key != QString::fromUtf16(ViewOptions::kDims))
        return FigureModel::defaultText(key, params);
    QStringList list;
    for (const std::int64_t c : CurvesCompute::defaultColumns(params))
        list.append(QString::number(c));
    return list.join(u',');
}

QList<Quantity> CurvesModel::inputs(const FigureState &) const
{
    return {Quantity::Pe};
}

QList<ParamError> CurvesModel::checkOptions(const Params &params, const FigureState &state) const
{
    const std::int64_t first = CurvesCompute::firstColumn(params);
    FigureState listed = state;
    if (isLadder(state))
        listed.options.remove(QString::fromUtf16(ViewOptions::kDims));
    QList<ParamError> problems
        = ViewOptions::check(listed, name(), params.maxLen, params.dModel, CurvesCompute::kMaxCurves);
    if (!problems.isEmpty() || first == 0)
        return problems;
    // In concat the PE is in X's last k columns: the curves number them as X does.
    for (const std::int64_t c : ViewOptions::columns(listed)) {
        if (c < first) {
            problems.append({QString::fromUtf16(ViewOptions::kDims),
                             u"a list of at most %1 columns in [%2, %3): the PE's columns of X = [s·E | PE] (columns "
                             "0–%4 hold s·E)"_s.arg(CurvesCompute::kMaxCurves)
                                 .arg(first)
                                 .arg(params.dModel)
                                 .arg(first - 1),
                             QString(), QString::number(c)});
            break;
        }
    }
    return problems;
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
    // The PE table's own columns: X's less the s·E columns before them in concat.
    std::vector<std::int64_t> peColumns = drawn;
    for (std::int64_t &c : peColumns)
        c -= CurvesCompute::firstColumn(params);
    return TableRequest {TableRequest::Cells, Quantity::Pe,
                         TableView::blockCovering(rows->first, rows->second, peColumns), peColumns};
}

} // namespace posenc
