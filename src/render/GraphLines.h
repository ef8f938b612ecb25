#pragma once

#include "QCustomPlot.h"

#include <QPointF>
#include <QVector>

namespace posenc {

// QCPAxis::coordToPixel with what it reads of its axis (range, scale, direction, rect) read once,
// and a log axis's log(upper / lower) taken once: the same pixels, bit for bit, with one logarithm a
// coordinate on a log axis where QCustomPlot takes two. The ALiBi attention span's 32 curves a panel
// on log axes spent 38 % of their replot in coordToPixel (docs/PERFORMANCE.md, The window's views).
class AxisPixels
{
public:
    explicit AxisPixels(const QCPAxis &axis);

    double operator()(double coord) const;
    // The same pixels for every coordinate: the same range, scale, direction and rect.
    bool sameMap(const AxisPixels &other) const;

private:
    const QCPAxis *m_axis;
    bool m_horizontal;
    bool m_logarithmic;
    bool m_reversed;
    double m_lower;
    double m_upper;
    double m_size;
    double m_logSpan;
    double m_origin; // left, or bottom for a vertical axis
    double m_extent; // width, or height
};

// QCPGraph::dataToLines of `data`, its keys on `keyAxis` and values on `valueAxis`, with AxisPixels:
// the same points. The keys' pixels on a log axis are remembered, per thread, for the next graph of
// the same keys on the same map (a figure's curves share their keys).
QVector<QPointF> graphLines(const QCPAxis &keyAxis, const QCPAxis &valueAxis, const QVector<QCPGraphData> &data);
// How many lines graphLines has made in this process.
quint64 graphLinesMade();

} // namespace posenc
