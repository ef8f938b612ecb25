#pragma once

#include "QCustomPlot.h"

#include <QPixmap>

#include <memory>
#include <vector>

namespace posenc {

// A graph drawn on screen with shortcuts the eye cannot tell from QCPGraph's drawing, a replot
// being most of the window's time while parameters change:
// - its scatter markers are copies of one pre-drawn marker (a stamp), as QCustomPlot draws its tick
//   labels from cached pixmaps: a thousand antialiased rings take about 0.65 ms a replot, their
//   copies 0.1 ms. A marker lands on the nearest device pixel, half a pixel from its exact place at
//   most.
// - its line, and the band it fills with another StampedGraph (setChannelFillGraph), keep only the
//   vertices that a tenth of a device pixel does not explain (simplifyPolyline): a curve sampled a
//   point a pixel is drawn with a fraction of its segments, each one's stroke a fixed cost.
// - its solid line (a pen wider than a device pixel) goes to the raster engine in batches of segments,
//   the pixels of QCustomPlot's segment-by-segment fast polyline (drawSolidSegments).
// - its dashed line (a pen wider than a pixel) is handed to the raster engine as dashed segments,
//   not stroked as one path of dashes and filled (drawDashedSegments): the same dashes, but for
//   their corners.
// - that band is filled column by column of device pixels (ColumnFill), the aliased polygon's
//   pixels, antialiased or not: its edge is within half a pixel of the antialiased polygon's.
// - its line's points and its markers' are QCPGraph's, their pixels taken with what the axes read
//   once (graphLines, scatterData, graphScatters: the same bits, one logarithm a coordinate on a log
//   axis where QCustomPlot takes two, and the keys' pixels shared by the graphs of the same keys).
// Exports (QCustomPlot's toPixmap and toPainter mark their painter pmNoCaching, its PDF writer
// pmVectorized) draw every marker and vertex exactly, as QCPGraph does.
class StampedGraph : public QCPGraph
{
public:
    StampedGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

    // How far a vertex left out of a line on screen may be from what is drawn, in device pixels.
    static constexpr double kLineTolerance = 0.1;

    // How many lines StampedGraphs have simplified (simplifyPolyline) in this process: a line drawn
    // again with the same points, its gaps' NaN included, is not simplified again, by any graph of
    // its thread that drew it lately (a figure filled anew makes new graphs of mostly the same lines).
    static quint64 simplifications();

    // Whether a line of `pen` is drawn on screen as dashed segments (drawDashedSegments).
    static bool dashedInSegments(const QPen &pen);
    // The polyline through `points` with the painter's dashed pen, its segments handed to the raster
    // engine as lines (which dashes them without stroking a path), the pattern running on along
    // it as QDashStroker's does; a non-finite point ends a run and the next starts the pattern again.
    static void drawDashedSegments(QPainter &painter, const QVector<QPointF> &points);
    // The polyline through `points` with the painter's solid pen as QCustomPlot's fast polyline
    // draws it, a segment at a time, its segments handed over in batches.
    static void drawSolidSegments(QPainter &painter, const QVector<QPointF> &points);

protected:
    // QCPGraph::draw for a line or markers alone of data none of which is selected, their points
    // from graphLines and graphScatters; anything else, and an export, is QCPGraph's.
    void draw(QCPPainter *painter) override;
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override;
    void drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const override;
    void drawFill(QCPPainter *painter, QVector<QPointF> *lines) const override;
    // The graph's line in pixels over all its data, as QCPGraph::getLines makes it (graphLines for a
    // line, QCPGraph's own for a step or impulse).
    QVector<QPointF> allLines() const;
    // The graph's markers in pixels over all its data, as QCPGraph::getScatters places them
    // (scatterData and graphScatters).
    QVector<QPointF> allScatters() const;

private:
    // `lines` simplified within `tolerance` (simplifyPolyline), remembered for the same lines (the
    // same bits: a gap's NaN equals itself): a band's side is simplified for its line and again for
    // the band's fill, in one replot, and a replot of data that did not change (a frame) simplifies
    // nothing. The lines its thread's graphs simplified lately are remembered too: the curves
    // figure makes its graphs anew at each filling, and a change of d or L leaves most of their
    // lines as they were (the fastest columns' simplifications were a third of its replot).
    const QVector<QPointF> &simplified(const QVector<QPointF> &lines, double tolerance) const;

    // A line and what simplifying it kept (simplified()).
    struct Simplification;

    // What the stamp was drawn for: a new style, pen or pixel ratio draws it again.
    struct StampKey
    {
        QCPScatterStyle::ScatterShape shape = QCPScatterStyle::ssNone;
        double size = 0.0;
        QPen pen;
        QBrush brush;
        qreal pixelRatio = 0.0;
        bool operator==(const StampKey &) const = default;
    };

    mutable StampKey m_stampKey;
    mutable QPixmap m_stamp;
    mutable std::vector<double> m_stampedAcross; // the markers stamped on the current pixel column

    mutable std::shared_ptr<const Simplification> m_simplified;
};

} // namespace posenc
