#include "HeatmapModel.h"

#include "core/FamilySpec.h"

#include "FigureText.h"
#include "ViewOptions.h"
#include "VisibleCells.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {
constexpr int kPreviewCoarseness = 2;
// Cells a full-detail grid computes one by one at most (Budget::kMaxExactCells). Past that (X of
// d 2^20 by L 2^24 would take hours), the largest pass within it, labelled a preview.
constexpr std::int64_t kFullCells = Budget::kMaxExactCells;
} // namespace

QList<Quantity> HeatmapModel::quantities()
{
    // Every table of cells that are values of one kind; not the records whose columns are each
    // their own quantity (rope-frequencies' inv_freq, wavelength, ...).
    QList<Quantity> list;
    for (const QuantitySpec &row : Quantities::rows())
        if (row.columnNames.isEmpty())
            list.append(row.quantity);
    return list;
}

namespace {

// Whether the parameters have the quantity's table, with cells.
bool hasCells(Quantity q, const Params &params)
{
    if (Quantities::spec(q).missing(params))
        return false;
    const Shape shape = Quantities::shape(q, params);
    return shape.rows > 0 && shape.cols > 0;
}

} // namespace

Quantity HeatmapModel::natural(const Params &params)
{
    if (hasCells(Quantity::Pe, params))
        return Quantity::Pe;
    std::optional<Quantity> best;
    double most = 0.0;
    for (const Quantity q : Quantities::available(params)) {
        if (Families::owning(q) != params.encoding || !hasCells(q, params))
            continue;
        const Shape shape = Quantities::shape(q, params);
        const double cells = double(shape.rows) * double(shape.cols);
        if (cells > most) {
            best = q;
            most = cells;
        }
    }
    return best.value_or(Quantity::Input);
}

std::optional<Quantity> HeatmapModel::chosen(const FigureState &state)
{
    return Quantities::fromName(state.option(QString::fromUtf16(kQuantity)));
}

Quantity HeatmapModel::quantity(const FigureState &state, const Params &params)
{
    return chosen(state).value_or(natural(params));
}

QString HeatmapModel::name() const
{
    return u"heatmap"_s;
}

QString HeatmapModel::title() const
{
    return u"Heatmap"_s;
}

QString HeatmapModel::summary() const
{
    return u"positions x columns of one quantity (--quantity), with a colorbar"_s;
}

QList<FigureOption> HeatmapModel::ownOptions() const
{
    FigureOption quantity;
    quantity.key = QString::fromUtf16(kQuantity);
    quantity.kind = FigureOption::Kind::Choice;
    quantity.help = u"the quantity shown; by default the family's own table: the PE, RoPE's cos, ALiBi's bias, T5's "
                    "buckets, ..."_s;
    quantity.defaultText = Quantities::name(Quantity::Pe);
    quantity.choiceAvailable = [](const QString &choice, const Params &params) {
        const auto q = Quantities::fromName(choice);
        return q && hasCells(*q, params);
    };
    for (const Quantity q : quantities()) {
        quantity.choices.append(Quantities::name(q));
        quantity.choiceLabels.append(Quantities::label(q));
    }
    quantity.choiceLabelFor = [](const QString &choice, const Params &params) {
        const auto q = Quantities::fromName(choice);
        return q ? Quantities::label(*q, params) : choice;
    };
    // Its choices are too many for one word of --help and the man page's tag: named in the text.
    quantity.valueName = u"QUANTITY"_s;
    quantity.help += u" (QUANTITY: %1)"_s.arg(quantity.choices.join(u", "_s));
    quantity.resetsView = true;

    // The shared --colormap, whose auto is the heatmap's own for each quantity.
    FigureOption colormap = ViewOptions::colormap();
    colormap.help = u"colormap: auto is diverging about zero for signed data, sequential (viridis) for data of one "
                    "sign, cividis for the mask"_s;

    return {quantity, colormap, ViewOptions::meanOnly(), ViewOptions::positions(u"positions A..B-1 in view"_s),
            ViewOptions::dims(u"the columns in view, lowest to highest"_s, false)};
}

QString HeatmapModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(kQuantity))
        return Quantities::name(natural(params));
    return FigureModel::defaultText(key, params);
}

QList<Quantity> HeatmapModel::inputs(const FigureState &state) const
{
    if (const auto q = chosen(state))
        return {*q};
    // The natural table of any parameters: the position term, X, or a family's own.
    QList<Quantity> any {Quantity::Pe, Quantity::Input};
    for (const Quantity q : quantities())
        if (Families::owning(q))
            any.append(q);
    return any;
}

// The natural quantity's table alone, as these parameters choose it (its data, label and parameters
// text read that table's keys): inputs() lists every table any parameters may choose.
FigureModel::Reading HeatmapModel::readingAt(const FigureState &state, const Params &params) const
{
    if (chosen(state))
        return FigureModel::readingAt(state, params);
    const Quantity q = natural(params);
    return {{q}, Quantities::spec(q).reads};
}

QList<ParamError> HeatmapModel::checkOptions(const Params &params, const FigureState &state) const
{
    const Quantity q = quantity(state, params);
    if (const auto missing = Quantities::spec(q).missing(params))
        return {ParamError {QString::fromUtf16(kQuantity), u"a quantity these parameters have"_s,
                            u"the %1 table is not defined here: %2"_s.arg(Quantities::name(q), *missing),
                            ParamError::quoted(Quantities::name(q))}};
    const Shape shape = Quantities::shape(q, params);
    // The concatenation may give the PE or s*E no column: a table of no cells has nothing to show,
    // which is not a matter of memory.
    if (shape.cols == 0) {
        const bool embedding = Quantities::spec(q).part == QuantityPart::Embedding;
        return {ParamError {QString::fromUtf16(kQuantity), u"a quantity whose table has cells"_s,
                            u"the %1 table has no columns at these parameters (the concatenation gives %2 none)"_s.arg(
                                Quantities::name(q), embedding ? u"the embeddings"_s : u"the PE"_s),
                            ParamError::quoted(Quantities::name(q))}};
    }
    return ViewOptions::check(state, name(), shape.rows, shape.cols);
}

bool HeatmapModel::hasPreview(const FigureRequest &request) const
{
    // A block within the preview budget is exact at once.
    const Quantity q = quantity(request.state, request.engine->params());
    const HeatmapRequest visible = VisibleCells::request(request.panels.value(0), q, request.engine->shape(q));
    return visible.block.cells() > Budget::cells(Detail::Preview);
}

int HeatmapModel::passCount(const FigureRequest &request) const
{
    const Quantity q = quantity(request.state, request.engine->params());
    const HeatmapRequest visible = VisibleCells::request(request.panels.value(0), q, request.engine->shape(q));
    // Passes shown one by one only where the exact grid is long to compute: its cells one by one
    // past the full budget.
    const int last = HeatmapResampler::lastPassWithin(*request.engine, visible, kFullCells);
    if (HeatmapResampler::lastPassWithin(*request.engine, visible, Budget::cells(Detail::Full)) == last)
        return 1;
    return last + 1;
}

FigureResult HeatmapModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const Quantity q = quantity(request.state, engine.params());
    const Shape shape = engine.shape(q);
    const HeatmapRequest visible = VisibleCells::request(request.panels.value(0), q, shape);
    auto grid = computeHeatmap(engine, visible, request.detail, {request.threads, &cancel}, request.pass);
    if (!grid) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr, VisibleCells::refusal(engine, q, visible.block)};
    }
    auto data = std::make_shared<HeatmapFigureData>();
    data->grid = std::move(*grid);
    data->table = shape;
    data->label = Quantities::label(q, engine.params());
    data->parameters = FigureText::parametersText(q, engine.params());
    return {std::move(data), std::nullopt};
}

std::optional<TableRequest> HeatmapModel::table(const Params &params, const FigureState &state) const
{
    // The whole cells in view, as `posenc table QUANTITY --positions A:B --dims C:D` writes them.
    const Quantity q = quantity(state, params);
    const Shape shape = Quantities::shape(q, params);
    const ViewRange columns = state.range(QString::fromUtf16(kColumnsAxis)).value_or(VisibleCells::wholeColumns(shape));
    const ViewRange positions
        = state.range(QString::fromUtf16(kPositionsAxis)).value_or(VisibleCells::wholeRows(shape));
    const auto rows = TableView::cellsInView(positions.lower, positions.upper, shape.rows);
    const auto cols = TableView::cellsInView(columns.lower, columns.upper, shape.cols);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {
        TableRequest::Cells, q, {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first}, {}};
}

std::optional<HeatmapGrid> computeHeatmap(const Engine &engine, HeatmapRequest request, Detail detail,
                                          const ComputeOptions &options, int pass)
{
    if (detail == Detail::Full)
        return HeatmapResampler::resample(
            engine, request, options, pass >= 0 ? pass : HeatmapResampler::lastPassWithin(engine, request, kFullCells));
    // A preview is the first pass at half the resolution: the closed forms exact, the rest
    // from about the preview budget's cells (at least a row per shown row).
    request.cellBudget = Budget::cells(Detail::Preview);
    request.pixelRows = std::max(1, request.pixelRows / kPreviewCoarseness);
    request.pixelCols = std::max(1, request.pixelCols / kPreviewCoarseness);
    return HeatmapResampler::resample(engine, request, options, 0);
}

} // namespace posenc
