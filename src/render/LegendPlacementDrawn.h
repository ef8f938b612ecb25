#pragma once

#include "QCustomPlot.h"

#include <QList>
#include <QPolygonF>
#include <QRectF>

#include <algorithm>
#include <optional>

// What a key placed in its plot is weighed against (LegendPlacement): the data drawn in the plot,
// in pixels, read once a fitting for each state of the plot.
namespace posenc::LegendPlacement {

// The least and most x and y of some points.
struct Bounds
{
    double left = 0.0, top = 0.0, right = 0.0, bottom = 0.0;

    // Whether none of the points is within the edges of `box` (edges included): all are beyond
    // one of its sides, and so is every segment between two of them.
    bool misses(const QRectF &box) const
    {
        return right < box.left() || left > box.right() || bottom < box.top() || top > box.bottom();
    }
};

// The points of a line plottable in pixels, whether its points are joined, and its marker's size.
struct Trace
{
    // A run holds the points kRun * k to kRun * (k + 1) (the last of them the first of the next
    // run), whose bounds a key's box is tried against before its segments: a box over a corner of
    // the plot misses most runs of a line of thousands of points.
    static constexpr qsizetype kRun = 64;

    QList<QPointF> points;
    bool joined = true;
    double marker = 0.0;
    bool shown = true; // a line or marks drawn, not only the edge of an area it fills
    double length = 0.0; // of its line, where its points are joined
    QList<Bounds> runs;

    qsizetype runStart(qsizetype run) const { return run * kRun; }
    // The last point of `run`: the first of the next one, or the trace's last.
    qsizetype runEnd(qsizetype run) const { return std::min((run + 1) * kRun, points.size() - 1); }
};

// An area a graph fills, in pixels: its outline, the rect that bounds it and its area.
struct Area
{
    QPolygonF polygon;
    QRectF bounds;
    double whole = 0.0;
};

// The lines and points drawn in a rect, and the areas its graphs fill (a band between two graphs,
// or down to zero) and the items clipped to it fill (a shade over a run of columns), in pixels.
struct Drawn
{
    QList<Trace> traces;
    QList<Area> areas;
    // The cells a colour map draws, in runs along its rows: none of them may be hidden.
    QList<QRectF> cells;
};

// What is drawn in `rect`, or nothing where something is drawn over all of it (bars, a colour map
// that colours its NaN cells too). Within a fitting (readOnce), read once for each state of the
// rect: its pixels, its plottables' data, axes and styles as they are.
std::optional<Drawn> drawnIn(QCPAxisRect *rect);

// Appends to `objects` and `numbers` all that drawnIn reads of `rect` as it is now (its key in a
// fitting: its pixels, and of each plottable drawn there its axes, data and styles, and the shades).
void addDrawnState(QCPAxisRect *rect, QList<const void *> &objects, QList<double> &numbers);

// While one lives on the calling thread, the state addDrawnState read last of a rect is what drawnIn
// finds it kept by, not read again: a key's decision (LegendPlacementInputs' decided) reads the
// state for its key and then, where none was made for it, drawnIn reads it again, with nothing
// changed between.
class DrawnStateHeld
{
public:
    DrawnStateHeld();
    ~DrawnStateHeld();
    DrawnStateHeld(const DrawnStateHeld &) = delete;
    DrawnStateHeld &operator=(const DrawnStateHeld &) = delete;
};

// While a fitting lasts, what drawnIn reads is kept and read again only where the rect's state
// changed; in a fitting the figure's data stays as it is. Outside one, it is read every time.
void readOnce(bool within);

// The area within `polygon`, closed (the shoelace formula).
double enclosedArea(const QList<QPointF> &polygon);

// Counts `points` of drawn data read or weighed against a key's box (pointsWeighed).
void weigh(qsizetype points);

} // namespace posenc::LegendPlacement
