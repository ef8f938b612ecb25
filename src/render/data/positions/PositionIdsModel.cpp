#include "PositionIdsModel.h"

#include "PositionsOptions.h"

#include "core/FamilySpec.h"
#include "core/positions/BatchIds.h"
#include "core/positions/ScoreFromColumns.h"
#include "render/data/DiagonalMeans.h"
#include "render/data/VisibleCells.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr double kIdsNaN = std::numeric_limits<double>::quiet_NaN();

// The mean id of a pixel's real tokens, rows [r0, r1) by columns [c0, c1): within a segment the ids
// run up by one a column, so each segment's part is an arithmetic series (M-RoPE's, token by token).
std::pair<double, std::int64_t> idsPixelSum(const BatchIds &ids, IdsChoice choice, int axis, std::int64_t r0,
                                            std::int64_t r1, std::int64_t c0, std::int64_t c1)
{
    double sum = 0.0;
    std::int64_t count = 0;
    const BatchLayout &layout = ids.layout();
    for (std::int64_t b = r0; b < r1; ++b) {
        for (const BatchSegment &s : layout.row(b)) {
            const std::int64_t from = std::max(c0, s.start), to = std::min(c1, s.end());
            if (!s.isReal() || from >= to)
                continue;
            count += to - from;
            if (ids.axes() == 1) {
                const double first = double(from + layout.offset(choice, s));
                sum += (first + first + double(to - from - 1)) * double(to - from) / 2.0;
            } else {
                for (std::int64_t c = from; c < to; ++c)
                    sum += double(ids.id(choice, b, c, axis));
            }
        }
    }
    return {sum, count};
}

HeatmapGrid idsGrid(const BatchIds &ids, IdsChoice choice, int axis, const HeatmapRequest &visible,
                    const std::atomic<bool> &cancel)
{
    HeatmapGrid grid;
    grid.quantity = Quantity::PositionIds;
    grid.block = visible.block;
    grid.rows = int(std::min<std::int64_t>(visible.pixelRows, visible.block.rows));
    grid.cols = int(std::min<std::int64_t>(visible.pixelCols, visible.block.cols));
    grid.values.assign(std::size_t(grid.rows) * std::size_t(grid.cols), float(kIdsNaN));
    grid.minValue = std::numeric_limits<double>::infinity();
    grid.maxValue = -grid.minValue;
    for (int a = 0; a < grid.rows && !cancel; ++a) {
        const std::int64_t r0 = DiagonalMeans::bandStart(grid.block.row0, grid.block.rows, grid.rows, a);
        const std::int64_t r1 = DiagonalMeans::bandStart(grid.block.row0, grid.block.rows, grid.rows, a + 1);
        for (int b = 0; b < grid.cols; ++b) {
            const std::int64_t c0 = DiagonalMeans::bandStart(grid.block.col0, grid.block.cols, grid.cols, b);
            const std::int64_t c1 = DiagonalMeans::bandStart(grid.block.col0, grid.block.cols, grid.cols, b + 1);
            const auto [sum, count] = idsPixelSum(ids, choice, axis, r0, r1, c0, c1);
            if (count == 0)
                continue;
            const double mean = sum / double(count);
            grid.values[std::size_t(a) * std::size_t(grid.cols) + std::size_t(b)] = float(mean);
            grid.minValue = std::min(grid.minValue, mean);
            grid.maxValue = std::max(grid.maxValue, mean);
        }
    }
    return grid;
}

// The row's ids as a line: each real segment's ends (ids run up by one between them), or M-RoPE's
// tokens one by one (an even sample of a long row), NaN between segments.
void idsRowLine(PositionIdsData &d, const BatchIds &ids, IdsChoice choice)
{
    const BatchLayout &layout = ids.layout();
    const auto segments = layout.row(d.row);
    d.allRuns = qsizetype(segments.size());
    for (const BatchSegment &s : segments) {
        if (d.runs.size() < PositionIdsData::kMaxRuns)
            d.runs.append({s.start, s.end(), s.isReal(), s.decode});
        if (s.isReal() && layout.hasDocuments())
            d.documentStarts.append(double(s.start));
        if (!s.isReal())
            continue;
        const std::int64_t step = ids.axes() == 1 ? std::max<std::int64_t>(1, s.length - 1)
                                                  : std::max<std::int64_t>(1, s.length / PositionIdsData::kMaxPoints);
        const auto add = [&](double x, std::int64_t c) {
            d.x.append(x);
            d.reference.append(double(ids.id(IdsChoice::Reference, d.row, c, d.axis)));
            d.chosen.append(double(ids.id(choice, d.row, c, d.axis)));
            d.differs = d.differs || d.chosen.back() != d.reference.back();
        };
        if (s.length == 1) {
            // A token alone (a one-token document, one decode step): a dash across its column, where
            // a point between two gaps would draw nothing.
            add(double(s.start) - 0.3, s.start);
            add(double(s.start) + 0.3, s.start);
        }
        for (std::int64_t c = s.start; s.length > 1; c = std::min(c + step, s.end() - 1)) {
            add(double(c), c);
            if (c == s.end() - 1)
                break;
        }
        d.x.append(double(s.end()) - 0.5);
        d.reference.append(kIdsNaN);
        d.chosen.append(kIdsNaN);
    }
}

} // namespace

int PositionIdsModel::axisOf(const Params &params, const FigureState &state)
{
    if (BatchIds::axesOf(params) == 1)
        return 0;
    const QString text = state.option(QString::fromUtf16(kAxis));
    return text == u"h"_s ? 1 : text == u"w"_s ? 2 : 0;
}

QString PositionIdsModel::name() const
{
    return u"position-ids"_s;
}

QString PositionIdsModel::title() const
{
    return u"Position ids"_s;
}

QString PositionIdsModel::summary() const
{
    return u"the batch's position ids as transformers computes them, rows by columns with padding, documents and "
           "decode steps marked, and one row's ids beside those of --ids-choice"_s;
}

QList<FigureOption> PositionIdsModel::ownOptions() const
{
    FigureOption axis;
    axis.key = QString::fromUtf16(kAxis);
    axis.kind = FigureOption::Kind::Choice;
    axis.choices = {u"t"_s, u"h"_s, u"w"_s};
    axis.valueName = u"t|h|w"_s;
    axis.help = u"M-RoPE's axis drawn (one id a token: every axis is the same)"_s;
    axis.defaultText = u"t"_s;
    return {PositionsOptions::row(), axis};
}

QString PositionIdsModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(PositionsOptions::kRow))
        return PositionsOptions::defaultRow(params);
    return FigureModel::defaultText(key, params);
}

QList<Quantity> PositionIdsModel::inputs(const FigureState &) const
{
    return {Quantity::PositionIds};
}

std::optional<TableRequest> PositionIdsModel::table(const Params &params, const FigureState &) const
{
    const Shape shape = Quantities::shape(Quantity::PositionIds, params);
    return TableRequest {TableRequest::Cells, Quantity::PositionIds, {0, shape.rows, 0, shape.cols}, {}};
}

QList<ParamError> PositionIdsModel::checkOptions(const Params &params, const FigureState &state) const
{
    return PositionsOptions::checkRow(params, state, name());
}

FigureResult PositionIdsModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const BatchIds &ids = engine.source<BatchIds>();
    auto data = std::make_shared<PositionIdsData>();
    PositionIdsData &d = *data;
    const Params &p = engine.params();
    d.choice = p.batch.ids;
    d.axes = ids.axes();
    d.axis = axisOf(p, request.state);
    d.rows = ids.layout().rows();
    d.cols = p.maxLen;
    d.cache = ids.layout().cache();
    d.documents = ids.layout().hasDocuments();
    d.byColumn = ids.layout().byColumn();
    if (!d.byColumn && ScoreFromColumns::builds(p.encoding))
        d.unreadBy = Families::spec(p.encoding).heading;
    if (ids.problem()) {
        d.problem = *ids.problem();
        return {data, std::nullopt};
    }
    d.row = std::clamp<std::int64_t>(PositionsOptions::rowOf(p, request.state), 0, d.rows - 1);
    d.realTokens = ids.layout().realTokens(d.row);
    d.ropeDelta = ids.ropeDelta(d.row);
    d.most = double(std::max<std::int64_t>(1, ids.maxId(d.choice)));
    const HeatmapRequest visible
        = VisibleCells::request(request.panels.value(0), Quantity::PositionIds, {d.rows, d.cols});
    d.grid = idsGrid(ids, d.choice, d.axis, visible, cancel);
    if (cancel)
        return {};
    idsRowLine(d, ids, d.choice);
    return {data, std::nullopt};
}

} // namespace posenc
