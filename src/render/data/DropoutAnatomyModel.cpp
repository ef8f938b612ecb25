#include "DropoutAnatomyModel.h"

#include "DropoutData.h"
#include "FigureText.h"
#include "ViewOptions.h"
#include "VisibleCells.h"

using namespace Qt::StringLiterals;

namespace posenc {

Block DropoutAnatomyModel::defaultBlock(const Params &params)
{
    return DropoutCompute::sequenceBlock(params, 16, 24);
}

QString DropoutAnatomyModel::name() const
{
    return u"dropout-anatomy"_s;
}

QString DropoutAnatomyModel::title() const
{
    return u"What dropout does"_s;
}

QString DropoutAnatomyModel::summary() const
{
    return u"X, the keep mask and Y (training and evaluation) on one colour scale, Y against X cell by cell with "
           "the slopes 0 and 1/(1-p), and the drop fraction against p with its 4 sigma band"_s;
}

QList<FigureOption> DropoutAnatomyModel::ownOptions() const
{
    return {ViewOptions::positions(u"positions A..B-1 in view"_s),
            ViewOptions::dims(u"the columns in view, lowest to highest"_s, false), FigureText::dropoutOwnerOption()};
}

QList<Quantity> DropoutAnatomyModel::inputs(const FigureState &) const
{
    return {Quantity::Input, Quantity::Mask, Quantity::Output};
}

QList<ParamError> DropoutAnatomyModel::checkOptions(const Params &params, const FigureState &state) const
{
    const Shape shape = Quantities::shape(Quantity::Output, params);
    return ViewOptions::check(state, name(), shape.rows, shape.cols);
}

bool DropoutAnatomyModel::hasPreview(const FigureRequest &request) const
{
    const HeatmapRequest visible
        = VisibleCells::request(request.panels.value(0), Quantity::Output, request.engine->shape(Quantity::Output));
    return visible.block.cells() > Budget::cells(Detail::Preview) / 4;
}

FigureResult DropoutAnatomyModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const HeatmapRequest visible
        = VisibleCells::request(request.panels.value(0), Quantity::Output, engine.shape(Quantity::Output));
    auto data = DropoutAnatomyCompute::compute(engine, visible, request.detail, {request.threads, &cancel});
    if (!data) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr, VisibleCells::refusal(engine, Quantity::Output, visible.block)};
    }
    return {std::make_shared<const DropoutAnatomyData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
