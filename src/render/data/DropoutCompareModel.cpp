#include "DropoutCompareModel.h"

#include "DropoutData.h"
#include "FigureText.h"
#include "ViewOptions.h"
#include "VisibleCells.h"

using namespace Qt::StringLiterals;

namespace posenc {

Block DropoutCompareModel::defaultBlock(const Params &params)
{
    constexpr std::int64_t kRows = 20, kColumns = 24;
    // Rows (or columns) within twice that show whole, so that every row its texts name (the
    // padding, the last special row) is in view and its counts are the whole sequence's, however
    // wide the model (24 rows of Transformer big's 1024 columns: all 24 rows, 24 columns).
    Block block = DropoutCompute::sequenceBlock(DropoutCompareCompute::shown(params), kRows, kColumns);
    if (params.maxLen <= 2 * kRows)
        block.row0 = 0, block.rows = params.maxLen;
    if (params.dModel <= 2 * kColumns)
        block.col0 = 0, block.cols = params.dModel;
    return block;
}

QString DropoutCompareModel::name() const
{
    return u"dropout-compare"_s;
}

QString DropoutCompareModel::title() const
{
    return u"Dropout modes compared"_s;
}

QString DropoutCompareModel::summary() const
{
    return u"Y under the five dropout modes side by side from the same X and mask, over the PE's part of each "
           "(what a dropped cell loses), token roles marked"_s;
}

QList<FigureOption> DropoutCompareModel::ownOptions() const
{
    return {ViewOptions::positions(u"positions A..B-1 in view"_s),
            ViewOptions::dims(u"the columns in view, lowest to highest"_s, false), FigureText::dropoutOwnerOption()};
}

QList<Quantity> DropoutCompareModel::inputs(const FigureState &) const
{
    return {Quantity::Output};
}

QList<ParamError> DropoutCompareModel::checkOptions(const Params &params, const FigureState &state) const
{
    const Shape shape = Quantities::shape(Quantity::Output, params);
    return ViewOptions::check(state, name(), shape.rows, shape.cols);
}

bool DropoutCompareModel::hasPreview(const FigureRequest &request) const
{
    const HeatmapRequest visible
        = VisibleCells::request(request.panels.value(0), Quantity::Output, request.engine->shape(Quantity::Output));
    return visible.block.cells() > Budget::cells(Detail::Preview) / 8;
}

FigureResult DropoutCompareModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const HeatmapRequest visible
        = VisibleCells::request(request.panels.value(0), Quantity::Output, engine.shape(Quantity::Output));
    auto data = DropoutCompareCompute::compute(engine, visible, request.detail, {request.threads, &cancel});
    if (!data) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr, VisibleCells::refusal(engine, Quantity::Output, visible.block)};
    }
    return {std::make_shared<const DropoutCompareData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
