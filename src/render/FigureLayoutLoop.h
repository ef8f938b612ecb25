#pragma once

#include "FigureFonts.h"
#include "FigureRoom.h"
#include "QCustomPlot.h"

#include <QList>
#include <QRect>
#include <QSize>

#include <optional>
#include <vector>

namespace posenc {

// The layout-and-refit loop of a figure, on screen and in a file alike (docs/ARCHITECTURE.md,
// "Exporting"): the data is computed for the axis rects as they are laid out when it is asked
// for; once it fills the figure, the figure is laid out again and, on little room, fitted to it
// (FigureFit) round after round. Its new content can move the axis rects (a title that came with
// the data, a legend that grew, wider tick labels): the data was computed for other pixels, so it
// is computed again, for them. A view of the window and the export of its figure at its size go
// through the same passes, so they draw the same pixels.
class FigureLayoutLoop
{
public:
    // Computations again for moved axes after one asked for, in a row: tick labels that change
    // width with the data could otherwise make the layout and the data chase each other. The
    // window's views and the exports share it, or an export could settle where its view stopped.
    static constexpr int kMaxRefits = 2;

    // A view of the window: laid out in the plot's own rect without painting (its queued replot
    // paints it once).
    explicit FigureLayoutLoop(QCustomPlot *plot, double points = FigureFonts::kBasePointSize);
    // A figure for a file at `size` (layout units): laid out by a replot, which also fills
    // QCustomPlot's cache of tick labels, whose sizes then set the margins, as when it is drawn.
    FigureLayoutLoop(QCustomPlot *plot, QSize size, double points);

    // Lays the figure out with every text at the loop's size: QCustomPlot places its axis rects
    // only when it replots.
    void layOut();
    // The data about to be asked for is computed for the axis rects as they are now.
    void computingFor();
    // After a filling: lays the figure out and fits it to its room, giving up what little room
    // must (FigureRoom), from all the figure shows each time. True when its axis rects moved from
    // those the data was computed for and a refit is left: compute it again.
    bool refitAfterFilling();
    // After a filling drawn as a draft while the controls move: lays the figure out and fits its
    // texts with what its room gave up at the last refitAfterFilling kept, one settling instead of
    // the ladder's; refitAfterFilling fits it in full once the controls rest. Exports never draft.
    // The texts the filling set are fitted first to the room of the layout before it, the draft's
    // own but for its texts: a title that wraps is then laid out once, not once whole and again
    // wrapped. The settling ends where the fit of the new layout changes nothing, as it would have.
    void refitKeepingRoom();
    // Other parameters, another size or figure: the refits are counted from none again.
    void restart() { m_refits = 0; }
    // The figure is laid out as it is: the last settling ended with a fit that changed nothing,
    // in the plot's rect as it is now, and nothing marked it stale since (invalidate). Laying it out
    // again would give the same axis rects (FigureView::submitNow).
    bool isCurrent() const;
    // What the figure shows changed where the loop does not see it (its ranges, options or figure).
    void invalidate() { m_current = false; }
    // The fittings to the room (refitAfterFilling) made in this program, on any thread.
    static quint64 fittings();
    // The layouts (layOut) made in this program, on any thread: a fitting is several.
    static quint64 layouts();

private:
    QList<QRect> axisRects() const;
    // Lays out and fits (FigureFit) until nothing changes.
    void settle();
    // Gives up what little room must, from all the figure shows (FigureRoom).
    void fitRoom();
    // All the figure shows, then the steps of `path` given up in its order.
    void giveUpTo(const std::vector<int> &path);
    // The ticks thinned again from the figure's own, for the layout as it is.
    void retick();

    QCustomPlot *m_plot;
    double m_points;
    std::optional<QSize> m_fileSize;
    QList<QRect> m_computedFor; // empty until data is asked for
    int m_refits = 0;
    // The last settle() ended with a fit that changed nothing: the layout is that of the figure as it is.
    bool m_settled = false;
    bool m_current = false; // isCurrent(), but for the rect
    FigureRoom::LabelsBack m_labelsBack; // a view's labels back under their axes at its last size
    QRect m_currentRect; // the plot's rect when the layout became current
};

} // namespace posenc
