#include "RopeInputModel.h"

#include "core/rope/RopeText.h"

#include "core/rope/RopeFrequencies.h"
#include "render/data/FigureText.h"
#include "render/data/HeatmapModel.h"
#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

QString RopeInputModel::name() const
{
    return u"rope-input"_s;
}

QString RopeInputModel::title() const
{
    return u"RoPE on the input"_s;
}

QString RopeInputModel::summary() const
{
    return u"the rope-input table, R(p) applied to one head's columns of s·E in the chosen layout, beside the "
           "same columns before the rotation and the change"_s;
}

QList<FigureOption> RopeInputModel::ownOptions() const
{
    return {ViewOptions::positions(u"positions A..B-1 in view"_s),
            ViewOptions::dims(u"the columns in view, lowest to highest"_s, false)};
}

QList<Quantity> RopeInputModel::inputs(const FigureState &) const
{
    return {Quantity::RopeInput, Quantity::Input};
}

QList<ParamError> RopeInputModel::checkOptions(const Params &params, const FigureState &state) const
{
    const Shape shape = Quantities::shape(Quantity::RopeInput, params);
    return ViewOptions::check(state, name(), shape.rows, shape.cols);
}

bool RopeInputModel::hasPreview(const FigureRequest &request) const
{
    const HeatmapRequest visible = VisibleCells::request(request.panels.value(1), Quantity::RopeInput,
                                                         request.engine->shape(Quantity::RopeInput));
    return 2 * visible.block.cells() > Budget::cells(Detail::Preview);
}

FigureResult RopeInputModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const Params &params = engine.params();
    auto data = std::make_shared<RopeInputData>();
    data->headDim = params.rope.headDim;
    data->rotaryDim = RopeFrequencies::rotaryDim(params.rope);
    data->attentionFactor = RopeFrequencies::table(params).attentionFactor;
    data->layout = params.rope.layout;
    data->scaling = RopeText::scalingText(params);
    data->model = RopeText::modelText(params);
    data->input = FigureText::parametersText(Quantity::Input, params);
    const ComputeOptions options {request.threads, &cancel};
    // Both tables over one head's cells, for the panel after the rotation (the three panels show
    // the same cells): X's shape is wider, its first head_dim columns in view.
    const Shape head = engine.shape(Quantity::RopeInput);
    const HeatmapRequest visible = VisibleCells::request(request.panels.value(1), Quantity::RopeInput, head);
    for (const auto &[quantity, grid] :
         {std::pair {Quantity::Input, &data->before}, std::pair {Quantity::RopeInput, &data->after}}) {
        HeatmapRequest asked = visible;
        asked.quantity = quantity;
        auto computed = computeHeatmap(engine, asked, request.detail, options);
        if (!computed) {
            if (cancel.load(std::memory_order_relaxed))
                return {};
            return {nullptr, VisibleCells::refusal(engine, quantity, asked.block)};
        }
        *grid = std::move(*computed);
    }
    // The change, cell by cell: a grid cell's mean of differences is the difference of its means.
    data->change = data->after;
    for (std::size_t c = 0; c < data->change.values.size() && c < data->before.values.size(); ++c)
        data->change.values[c] = data->after.values[c] - data->before.values[c];
    const auto [lo, hi] = std::minmax_element(data->change.values.begin(), data->change.values.end());
    data->change.minValue = data->change.values.empty() ? 0.0 : *lo;
    data->change.maxValue = data->change.values.empty() ? 0.0 : *hi;
    return {std::move(data), std::nullopt};
}

std::optional<TableRequest> RopeInputModel::table(const Params &params, const FigureState &state) const
{
    // The rope-input cells in view: `posenc table rope-input --positions A:B --dims C:D`.
    const Shape shape = Quantities::shape(Quantity::RopeInput, params);
    const ViewRange columns = state.range(QString::fromUtf16(kColumnsAxis)).value_or(VisibleCells::wholeColumns(shape));
    const ViewRange positions
        = state.range(QString::fromUtf16(kPositionsAxis)).value_or(VisibleCells::wholeRows(shape));
    const auto rows = TableView::cellsInView(positions.lower, positions.upper, shape.rows);
    const auto cols = TableView::cellsInView(columns.lower, columns.upper, shape.cols);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::RopeInput,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

} // namespace posenc
