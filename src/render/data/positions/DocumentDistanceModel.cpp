#include "DocumentDistanceModel.h"

#include "PositionsOptions.h"

#include "core/FamilySpec.h"
#include "core/positions/BatchIds.h"
#include "core/positions/DocumentDistance.h"
#include "render/data/DiagonalMeans.h"
#include "render/data/VisibleCells.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

HeatmapGrid distanceGrid(const BatchLayout &layout, IdsChoice choice, std::int64_t b, const HeatmapRequest &visible,
                         const std::atomic<bool> &cancel)
{
    HeatmapGrid grid;
    grid.quantity = Quantity::DocumentDistance;
    grid.block = visible.block;
    grid.rows = int(std::min<std::int64_t>(visible.pixelRows, visible.block.rows));
    grid.cols = int(std::min<std::int64_t>(visible.pixelCols, visible.block.cols));
    grid.values.assign(std::size_t(grid.rows) * std::size_t(grid.cols), std::numeric_limits<float>::quiet_NaN());
    grid.minValue = grid.maxValue = 0.0;
    for (int a = 0; a < grid.rows && !cancel; ++a) {
        const std::int64_t q0 = DiagonalMeans::bandStart(grid.block.row0, grid.block.rows, grid.rows, a);
        const std::int64_t q1 = DiagonalMeans::bandStart(grid.block.row0, grid.block.rows, grid.rows, a + 1);
        for (int c = 0; c < grid.cols; ++c) {
            const std::int64_t k0 = DiagonalMeans::bandStart(grid.block.col0, grid.block.cols, grid.cols, c);
            const std::int64_t k1 = DiagonalMeans::bandStart(grid.block.col0, grid.block.cols, grid.cols, c + 1);
            const DocumentDistance::Counts n = DocumentDistance::rectangle(layout, choice, b, q0, q1, k0, k1);
            if (n.attended == 0)
                continue;
            const double mean = n.sum / double(n.attended);
            grid.values[std::size_t(a) * std::size_t(grid.cols) + std::size_t(c)] = float(mean);
            grid.minValue = std::min(grid.minValue, mean);
            grid.maxValue = std::max(grid.maxValue, mean);
        }
    }
    return grid;
}

} // namespace

QString DocumentDistanceModel::name() const
{
    return u"document-distance"_s;
}

QString DocumentDistanceModel::title() const
{
    return u"Document distance"_s;
}

QString DocumentDistanceModel::summary() const
{
    return u"one row's query-key distances id(q) − id(k) that the attention sees, under the reference's ids and mask "
           "and under --compare side by side: cross-document pairs and negative distances, exact per pixel"_s;
}

QList<FigureOption> DocumentDistanceModel::ownOptions() const
{
    return {PositionsOptions::row(), PositionsOptions::compare()};
}

QString DocumentDistanceModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(PositionsOptions::kRow))
        return PositionsOptions::defaultRow(params);
    if (key == QString::fromUtf16(PositionsOptions::kCompare))
        return PositionsOptions::defaultCompare(params);
    return FigureModel::defaultText(key, params);
}

QList<Quantity> DocumentDistanceModel::inputs(const FigureState &) const
{
    return {Quantity::DocumentDistance};
}

std::optional<TableRequest> DocumentDistanceModel::table(const Params &params, const FigureState &state) const
{
    const std::int64_t row = PositionsOptions::rowOf(params, state);
    return TableRequest {
        TableRequest::Cells, Quantity::DocumentDistance, {row * params.maxLen, params.maxLen, 0, params.maxLen}, {}};
}

QList<ParamError> DocumentDistanceModel::checkOptions(const Params &params, const FigureState &state) const
{
    return PositionsOptions::checkRow(params, state, name());
}

FigureResult DocumentDistanceModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const Params &p = engine.params();
    auto data = std::make_shared<DocumentDistanceData>();
    DocumentDistanceData &d = *data;
    d.cols = p.maxLen;
    d.compare = PositionsOptions::compareOf(p, request.state);
    const BatchIds &ids = engine.source<BatchIds>();
    if (ids.problem()) {
        d.problem = *ids.problem();
        return {data, std::nullopt};
    }
    if (const auto problem = BatchIds::distancesProblem(p)) {
        d.problem = *problem;
        return {data, std::nullopt};
    }
    // The distances the model's score reads: the columns' for a family that reads no ids.
    const std::optional<BatchLayout> columns
        = DocumentDistance::readsColumns(p) ? std::optional(DocumentDistance::readLayout(p)) : std::nullopt;
    const BatchLayout &layout = columns ? *columns : ids.layout();
    if (columns) {
        const FamilySpec &family = Families::spec(p.encoding);
        d.columnsReadBy = family.score ? family.score->name : family.heading;
    }
    d.row = std::clamp<std::int64_t>(PositionsOptions::rowOf(p, request.state), 0, layout.rows() - 1);
    d.documents = layout.hasDocuments();
    d.bothWays = layout.bothWays();
    for (const BatchSegment &s : layout.row(d.row)) {
        if (s.isReal() && d.documents && d.documentStarts.size() < DocumentDistanceData::kMaxStarts)
            d.documentStarts.append(double(s.start));
    }
    d.referenceCounts = DocumentDistance::row(layout, IdsChoice::Reference, d.row);
    d.comparedCounts = DocumentDistance::row(layout, d.compare, d.row);
    const Shape table {d.cols, d.cols};
    for (const auto &[panel, choice, grid] : {std::tuple {request.panels.value(0), IdsChoice::Reference, &d.reference},
                                              std::tuple {request.panels.value(1), d.compare, &d.compared}}) {
        const HeatmapRequest visible = VisibleCells::request(panel, Quantity::DocumentDistance, table);
        *grid = distanceGrid(layout, choice, d.row, visible, cancel);
        const DocumentDistance::Counts inView
            = DocumentDistance::rectangle(layout, choice, d.row, visible.block.row0, visible.block.rowEnd(),
                                          visible.block.col0, visible.block.colEnd());
        if (inView.attended > 0)
            d.extent = std::max({d.extent, double(std::abs(inView.least)), double(std::abs(inView.most))});
        if (cancel)
            return {};
    }
    d.reference.colourExtent = d.compared.colourExtent = d.extent;
    return {data, std::nullopt};
}

} // namespace posenc
