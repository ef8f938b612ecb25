#include "RopeRotationModel.h"

#include "core/rope/RopeText.h"

#include "core/rope/RopeFrequencies.h"
#include "render/data/HeatmapModel.h"
#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc {

std::int64_t RopeRotationModel::pair(const Params &params, const FigureState &state)
{
    bool ok = false;
    const std::int64_t given = state.option(QString::fromUtf16(kPair)).toLongLong(&ok);
    return ok ? given : RopeFrequencies::pairs(params.rope) / 4;
}

std::int64_t RopeRotationModel::shownColumns(const Params &params)
{
    const std::int64_t rotary = RopeFrequencies::rotaryDim(params.rope);
    return params.rope.layout == RopeLayout::Half ? rotary / 2 : rotary;
}

QString RopeRotationModel::name() const
{
    return u"rope-rotation"_s;
}

QString RopeRotationModel::title() const
{
    return u"RoPE rotation"_s;
}

QString RopeRotationModel::summary() const
{
    return u"one rotary pair's vector (cos p·theta_i, sin p·theta_i) turning with position (--pair), beside the "
           "rope-cos and rope-sin tables over positions x pairs"_s;
}

QList<FigureOption> RopeRotationModel::ownOptions() const
{
    FigureOption pair;
    pair.key = QString::fromUtf16(kPair);
    pair.kind = FigureOption::Kind::Text;
    pair.valueName = u"I"_s;
    pair.help = u"the rotary pair on the circle, 0 .. rotary dim/2 - 1; empty: a quarter of the way, rotary dim/8"_s;
    return {pair, ViewOptions::positions(u"positions A..B-1 in view"_s)};
}

QString RopeRotationModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(kPair))
        return QString::number(RopeFrequencies::pairs(params.rope) / 4);
    return FigureModel::defaultText(key, params);
}

QList<Quantity> RopeRotationModel::inputs(const FigureState &) const
{
    return {Quantity::RopeCos, Quantity::RopeSin};
}

QList<ParamError> RopeRotationModel::checkOptions(const Params &params, const FigureState &state) const
{
    QList<ParamError> problems = ViewOptions::check(state, name(), params.maxLen, shownColumns(params));
    const QString text = state.option(QString::fromUtf16(kPair)).trimmed();
    const std::int64_t pairs = RopeFrequencies::pairs(params.rope);
    bool ok = text.isEmpty();
    if (!text.isEmpty()) {
        const std::int64_t value = text.toLongLong(&ok);
        ok = ok && value >= 0 && value < pairs;
    }
    if (!ok)
        problems.append(
            {QString::fromUtf16(kPair),
             u"an integer in [0, %1]: a rotary pair of the %2 figure (rotary dim %3)"_s.arg(pairs - 1).arg(name()).arg(
                 RopeFrequencies::rotaryDim(params.rope)),
             QString(), ParamError::quoted(text)});
    return problems;
}

bool RopeRotationModel::hasPreview(const FigureRequest &request) const
{
    const HeatmapRequest visible
        = VisibleCells::request(request.panels.value(1), Quantity::RopeCos, request.engine->shape(Quantity::RopeCos));
    return 2 * visible.block.cells() > Budget::cells(Detail::Preview);
}

namespace {

// The pairs in view whose pixel rows average half a turn or more of their wave: the mean over an
// interval of L radians keeps sin(L/2)/(L/2) of the swing, 2/π at half a turn, 0 at a whole one.
void meanPairs(RopeRotationData &data, const std::vector<double> &inv)
{
    const HeatmapGrid &grid = data.cos;
    data.positionsPerPixel = grid.rows > 0 ? std::max(1.0, double(grid.block.rows) / grid.rows) : 1.0;
    if (data.positionsPerPixel <= 1.0 || data.pairs <= 0)
        return;
    for (std::int64_t column = grid.block.col0; column < grid.block.colEnd(); ++column) {
        // rope-cos's column j is pair j mod r/2 (rotate_half) or ⌊j/2⌋ (interleaved).
        const std::int64_t pair = data.layout == RopeLayout::Half ? column % data.pairs : column / 2;
        if (pair < 0 || pair >= std::int64_t(inv.size()) || inv[std::size_t(pair)] * data.positionsPerPixel < std::numbers::pi)
            continue;
        data.firstMeanPair = data.firstMeanPair < 0 ? pair : std::min(data.firstMeanPair, pair);
        data.lastMeanPair = std::max(data.lastMeanPair, pair);
    }
}

} // namespace

FigureResult RopeRotationModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const Params &params = engine.params();
    auto data = std::make_shared<RopeRotationData>();
    data->pair = pair(params, request.state);
    data->layout = params.rope.layout;
    data->rotaryDim = RopeFrequencies::rotaryDim(params.rope);
    data->pairs = RopeFrequencies::pairs(params.rope);
    data->column = params.rope.layout == RopeLayout::Half ? data->pair : 2 * data->pair;
    const RopeFrequencies::Table table = RopeFrequencies::table(params);
    data->frequency = table.inv[static_cast<std::size_t>(data->pair)];
    data->attentionFactor = table.attentionFactor;
    data->scaling = RopeText::scalingText(params);
    data->model = RopeText::modelText(params);

    const ComputeOptions options {request.threads, &cancel};
    const PanelExtent cosPanel = request.panels.value(1);
    const PanelExtent sinPanel = request.panels.value(2);
    const Shape shape = engine.shape(Quantity::RopeCos);
    for (const auto &[quantity, panel, grid] :
         {std::tuple {Quantity::RopeCos, cosPanel, &data->cos}, std::tuple {Quantity::RopeSin, sinPanel, &data->sin}}) {
        const HeatmapRequest visible = VisibleCells::request(panel, quantity, shape);
        auto computed = computeHeatmap(engine, visible, request.detail, options);
        if (!computed) {
            if (cancel.load(std::memory_order_relaxed))
                return {};
            return {nullptr, VisibleCells::refusal(engine, quantity, visible.block)};
        }
        *grid = std::move(*computed);
    }
    meanPairs(*data, table.inv);
    // The circle's positions: the integers of the tables' rows in view, every stride-th.
    const auto rows = TableView::integersInView(cosPanel.y.lower, cosPanel.y.upper, params.maxLen);
    if (rows) {
        std::int64_t count = rows->second - rows->first;
        // One turn at most: the dots of a second turn would lie on those of the first.
        if (data->frequency > 0.0) {
            const auto turn = static_cast<std::int64_t>(std::ceil(2.0 * std::numbers::pi / data->frequency)) + 1;
            data->oneTurn = turn < count;
            count = std::min(count, turn);
        }
        data->stride = std::max<std::int64_t>(1, (count + kMaxPoints - 1) / kMaxPoints);
        RowMatrixXf cell(1, 1);
        for (std::int64_t p = rows->first; p < rows->first + count; p += data->stride) {
            if (cancel.load(std::memory_order_relaxed))
                return {};
            data->position.append(static_cast<double>(p));
            engine.computeBlock(Quantity::RopeCos, {p, 1, data->column, 1}, cell);
            data->x.append(cell(0, 0));
            engine.computeBlock(Quantity::RopeSin, {p, 1, data->column, 1}, cell);
            data->y.append(cell(0, 0));
        }
    }
    return {std::move(data), std::nullopt};
}

std::optional<TableRequest> RopeRotationModel::table(const Params &params, const FigureState &state) const
{
    // The rope-cos cells in view: `posenc table rope-cos --positions A:B --dims C:D`.
    const Shape shape = Quantities::shape(Quantity::RopeCos, params);
    const ViewRange columns = state.range(QString::fromUtf16(kColumnsAxis))
                                  .value_or(ViewRange {-0.5, static_cast<double>(shownColumns(params)) - 0.5});
    const ViewRange positions
        = state.range(QString::fromUtf16(kPositionsAxis)).value_or(VisibleCells::wholeRows(shape));
    const auto rows = TableView::cellsInView(positions.lower, positions.upper, shape.rows);
    const auto cols = TableView::cellsInView(columns.lower, columns.upper, shape.cols);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::RopeCos,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

} // namespace posenc
