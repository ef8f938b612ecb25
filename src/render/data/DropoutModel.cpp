#include "DropoutModel.h"

#include "Colormap.h"
#include "FigureText.h"
#include "ViewOptions.h"
#include "VisibleCells.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString DropoutModel::name() const
{
    return u"dropout"_s;
}

QString DropoutModel::title() const
{
    return u"Dropout"_s;
}

QString DropoutModel::summary() const
{
    return u"the keep mask and the output Y side by side"_s;
}

QList<FigureOption> DropoutModel::ownOptions() const
{
    FigureOption colormap;
    colormap.key = QString::fromUtf16(kColormap);
    colormap.kind = FigureOption::Kind::Choice;
    colormap.help = u"colormap of both panels (default: cividis for the mask, diverging for Y); %1"_s.arg(
        Colormaps::reversedHelp());
    colormap.defaultText = u"auto"_s;
    colormap.choices = QStringList {colormap.defaultText} + Colormaps::names();
    colormap.aliases = Colormaps::aliases();
    colormap.valueName = Colormaps::optionValueName(colormap.defaultText);
    colormap.redrawsOnly = true;
    colormap.inWindow = false;
    return {colormap, ViewOptions::positions(u"positions A..B-1 in view"_s),
            ViewOptions::dims(u"the columns in view, lowest to highest"_s, false), FigureText::dropoutOwnerOption()};
}

QList<Quantity> DropoutModel::inputs(const FigureState &) const
{
    return {Quantity::Mask, Quantity::Output};
}

QList<ParamError> DropoutModel::checkOptions(const Params &params, const FigureState &state) const
{
    const Shape shape = Quantities::shape(Quantity::Mask, params);
    return ViewOptions::check(state, name(), shape.rows, shape.cols);
}

bool DropoutModel::hasPreview(const FigureRequest &request) const
{
    const Params &p = request.engine->params();
    return p.maxLen * p.dModel > Budget::cells(Detail::Preview);
}

FigureResult DropoutModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const HeatmapRequest visible
        = VisibleCells::request(request.panels.value(0), Quantity::Mask, engine.shape(Quantity::Mask));
    auto data = DropoutCompute::compute(engine, {visible.block, visible.pixelRows, visible.pixelCols}, request.detail,
                                        {request.threads, &cancel});
    if (!data) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr, VisibleCells::refusal(engine, Quantity::Output, visible.block)};
    }
    return {std::make_shared<const DropoutData>(std::move(*data)), std::nullopt};
}

std::optional<TableRequest> DropoutModel::table(const Params &params, const FigureState &state) const
{
    // The mask's whole cells in view.
    const Shape shape = Quantities::shape(Quantity::Mask, params);
    const auto columns = state.range(QString::fromUtf16(kColumnsAxis));
    const auto positions = state.range(QString::fromUtf16(kPositionsAxis));
    if (!columns || !positions)
        return std::nullopt;
    const auto rows = TableView::cellsInView(positions->lower, positions->upper, shape.rows);
    const auto cols = TableView::cellsInView(columns->lower, columns->upper, shape.cols);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::Mask,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

} // namespace posenc
