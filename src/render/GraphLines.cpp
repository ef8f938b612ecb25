#include "GraphLines.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

namespace posenc {

AxisPixels::AxisPixels(const QCPAxis &axis)
    : m_axis(&axis)
    , m_horizontal(axis.orientation() == Qt::Horizontal)
    , m_logarithmic(axis.scaleType() == QCPAxis::stLogarithmic)
    , m_reversed(axis.rangeReversed())
    , m_lower(axis.range().lower)
    , m_upper(axis.range().upper)
    , m_size(axis.range().size())
    , m_logSpan(m_logarithmic ? std::log(m_upper / m_lower) : 0.0)
    , m_origin(m_horizontal ? axis.axisRect()->left() : axis.axisRect()->bottom())
    , m_extent(m_horizontal ? axis.axisRect()->width() : axis.axisRect()->height())
{ }

// The expressions of QCPAxis::coordToPixel (QCustomPlot 2.1), in its order of operations.
double AxisPixels::operator()(double coord) const
{
    double along = 0.0;
    if (!m_logarithmic) {
        along = (m_reversed ? m_upper - coord : coord - m_lower) / m_size * m_extent;
    } else {
        // A coordinate a log axis has no place for is drawn outside the rect, as QCustomPlot places it.
        if ((coord >= 0.0 && m_upper < 0.0) || (coord <= 0.0 && m_upper >= 0.0))
            return m_axis->coordToPixel(coord);
        along = std::log(m_reversed ? m_upper / coord : coord / m_lower) / m_logSpan * m_extent;
    }
    return m_horizontal ? along + m_origin : m_origin - along;
}

bool AxisPixels::sameMap(const AxisPixels &other) const
{
    const auto same = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
    return m_horizontal == other.m_horizontal && m_logarithmic == other.m_logarithmic && m_reversed == other.m_reversed
        && same(m_lower, other.m_lower) && same(m_upper, other.m_upper) && same(m_origin, other.m_origin)
        && same(m_extent, other.m_extent);
}

namespace {

std::atomic<quint64> g_made {0};

// The last keys' pixels on a log axis, and the map they were taken on (its numbers: the axis it
// read is not read again).
struct KeyPixels
{
    std::optional<AxisPixels> map;
    std::vector<double> keys;
    std::vector<double> pixels;
};

} // namespace

QVector<QPointF> graphLines(const QCPAxis &keyAxis, const QCPAxis &valueAxis, const QVector<QCPGraphData> &data)
{
    g_made.fetch_add(1, std::memory_order_relaxed);
    const AxisPixels key(keyAxis);
    const AxisPixels value(valueAxis);
    const bool horizontal = keyAxis.orientation() == Qt::Horizontal;
    QVector<QPointF> lines(data.size());
    const auto place = [&](qsizetype i, double keyPixel) {
        const double valuePixel = value(data[i].value);
        lines[i] = horizontal ? QPointF(keyPixel, valuePixel) : QPointF(valuePixel, keyPixel);
    };
    if (keyAxis.scaleType() != QCPAxis::stLogarithmic || data.isEmpty()) {
        for (qsizetype i = 0; i < data.size(); ++i)
            place(i, key(data[i].key));
        return lines;
    }
    thread_local KeyPixels last;
    const auto n = static_cast<std::size_t>(data.size());
    // The same keys, bit for bit, read where they are (no copy a graph).
    const auto known = [&] {
        if (!last.map || !last.map->sameMap(key) || last.keys.size() != n)
            return false;
        for (std::size_t i = 0; i < n; ++i)
            if (std::memcmp(&last.keys[i], &data[qsizetype(i)].key, sizeof(double)) != 0)
                return false;
        return true;
    };
    if (!known()) {
        last.map = key;
        last.keys.resize(n);
        last.pixels.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            last.keys[i] = data[qsizetype(i)].key;
            last.pixels[i] = key(last.keys[i]);
        }
    }
    for (qsizetype i = 0; i < data.size(); ++i)
        place(i, last.pixels[std::size_t(i)]);
    return lines;
}

quint64 graphLinesMade()
{
    return g_made.load(std::memory_order_relaxed);
}

} // namespace posenc
