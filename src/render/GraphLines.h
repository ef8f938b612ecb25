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
// How many lines graphLines, and markers graphScatters, have placed in this process.
quint64 graphLinesMade();

// QCPGraph::getOptimizedScatterData (QCustomPlot 2.1) of the data from `begin` to `end` of
// `container`, its keys on `keyAxis` and values on `valueAxis`, every `scatterSkip` + 1st point,
// thinned where `adaptive` sampling finds two or more points a key pixel: the same points, with
// the axes' pixels from AxisPixels. Where QCustomPlot converts a pixel out of an int's range to an
// int (undefined in C++), this takes what x86-64's conversion gives there (INT_MIN).
QVector<QCPGraphData> scatterData(const QCPAxis &keyAxis, const QCPAxis &valueAxis,
                                  const QCPGraphDataContainer &container, QCPGraphDataContainer::const_iterator begin,
                                  QCPGraphDataContainer::const_iterator end, int scatterSkip, bool adaptive);
// QCPGraph::getScatters' points for `data` as scatterData gives it, in ascending key pixels:
// graphLines' pixels, with a point of a NaN value at (0, 0), where QCustomPlot leaves it. The keys'
// pixels remembered for lines serve markers of the same keys; a graph's markers, often fewer than its
// line's points, leave them for the next graph's line.
QVector<QPointF> graphScatters(const QCPAxis &keyAxis, const QCPAxis &valueAxis, const QVector<QCPGraphData> &data);

} // namespace posenc
