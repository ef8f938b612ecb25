#pragma once

#include "QCustomPlot.h"

#include <QPixmap>

namespace posenc {

// A graph whose scatter markers are drawn on screen as copies of one pre-drawn marker (a
// stamp), as QCustomPlot draws its tick labels from cached pixmaps: a thousand antialiased
// rings take about 0.65 ms a replot, their copies 0.1 ms.
// A marker lands on the nearest device pixel, half a pixel from its exact place at most.
// Exports (QCustomPlot's toPixmap and toPainter mark their painter pmNoCaching, its PDF
// writer pmVectorized) draw every marker exactly, as QCPGraph does.
class StampedGraph : public QCPGraph
{
public:
    StampedGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

protected:
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override;

private:
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
};

} // namespace posenc
