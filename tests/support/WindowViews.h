#pragma once

#include "gui/FigureView.h"
#include "gui/MainWindow.h"
#include "render/data/DropoutData.h"
#include "render/data/HeatmapModel.h"
#include "render/data/MagnitudesData.h"
#include "render/data/learned/LearnedData.h"
#include "render/data/sinusoidal/CurvesData.h"
#include "render/figures/HeatmapFigure.h"

#include <QtTest>

// The window's views by the figure they show, and what they drew, for the tests of the window.
namespace WindowViews {

inline posenc::FigureView *heatmapView(const posenc::MainWindow &window)
{
    return window.viewOf(QStringLiteral("heatmap"));
}
inline posenc::FigureView *curvesView(const posenc::MainWindow &window)
{
    return window.viewOf(QStringLiteral("curves"));
}
inline posenc::FigureView *magnitudesView(const posenc::MainWindow &window)
{
    return window.viewOf(QStringLiteral("magnitudes"));
}
inline posenc::FigureView *dropoutView(const posenc::MainWindow &window)
{
    return window.viewOf(QStringLiteral("dropout"));
}

// The data a view drew, as its figure's type; null when it drew none (or of another figure).
template<typename Data> const Data *data(const posenc::FigureView *view)
{
    return dynamic_cast<const Data *>(view->data().get());
}

// The grid a heatmap view drew.
inline const posenc::HeatmapGrid *grid(const posenc::FigureView *view)
{
    const auto *drawn = data<posenc::HeatmapFigureData>(view);
    return drawn ? &drawn->grid : nullptr;
}

// The panel of a heatmap view.
inline posenc::HeatmapPanel &heatmapPanel(posenc::FigureView *view)
{
    return static_cast<posenc::HeatmapFigure *>(view->figurePlot())->panel();
}

// The range a view's state keeps for `axis`.
inline QCPRange range(const posenc::FigureView *view, const QString &axis)
{
    const auto kept = view->state().range(axis);
    return kept ? QCPRange(kept->lower, kept->upper) : QCPRange();
}

// Shows `ranges` (axis key -> range) in `view`, as a zoom would.
inline void showRanges(posenc::FigureView *view, const QList<std::pair<QString, QCPRange>> &ranges)
{
    posenc::FigureState state = view->state();
    for (const auto &[axis, range] : ranges)
        state.view.insert(axis, {range.lower, range.upper});
    view->setState(state);
}

} // namespace WindowViews
