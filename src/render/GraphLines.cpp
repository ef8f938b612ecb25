#include "GraphLines.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
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

namespace {

// graphLines' points; the keys' pixels on a log axis are remembered only where `remember` says
// (a graph's markers, thinned, read the lines' keys remembered but leave them as they are).
QVector<QPointF> placed(const QCPAxis &keyAxis, const QCPAxis &valueAxis, const QVector<QCPGraphData> &data,
                        bool remember)
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
    if (!known() && !remember) {
        for (qsizetype i = 0; i < data.size(); ++i)
            place(i, key(data[i].key));
        return lines;
    }
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

} // namespace

QVector<QPointF> graphLines(const QCPAxis &keyAxis, const QCPAxis &valueAxis, const QVector<QCPGraphData> &data)
{
    return placed(keyAxis, valueAxis, data, true);
}

quint64 graphLinesMade()
{
    return g_made.load(std::memory_order_relaxed);
}

namespace {

// A double converted to an int as x86-64 converts it (cvttsd2si): toward zero, and INT_MIN for a NaN
// or a number out of an int's range, where C++ leaves the conversion undefined.
int truncated(double value)
{
    constexpr double kLimit = 2147483648.0; // 2^31
    return value > -kLimit - 1.0 && value < kLimit ? static_cast<int>(value) : std::numeric_limits<int>::min();
}

// Qt 6's qRound on x86-64 (qglobal.h, SSE2): value + copysign(0.5, value), converted as above.
int rounded(double value)
{
    return truncated(value + std::copysign(0.5, value));
}

} // namespace

// QCPGraph::getOptimizedScatterData (QCustomPlot 2.1), its steps in its order; only the axes'
// coordToPixel is AxisPixels.
QVector<QCPGraphData> scatterData(const QCPAxis &keyAxis, const QCPAxis &valueAxis,
                                  const QCPGraphDataContainer &container, QCPGraphDataContainer::const_iterator begin,
                                  QCPGraphDataContainer::const_iterator end, int scatterSkip, bool adaptive)
{
    QVector<QCPGraphData> out;
    const int modulo = scatterSkip + 1;
    const bool skipping = scatterSkip > 0;
    int beginIndex = static_cast<int>(begin - container.constBegin());
    const int endIndex = static_cast<int>(end - container.constBegin());
    while (skipping && begin != end && beginIndex % modulo != 0) {
        ++beginIndex;
        ++begin;
    }
    if (begin == end)
        return out;
    const AxisPixels key(keyAxis);
    const AxisPixels value(valueAxis);
    const int count = static_cast<int>(end - begin);
    int maxCount = std::numeric_limits<int>::max();
    if (adaptive) {
        const int span = truncated(std::abs(key(begin->key) - key((end - 1)->key)));
        // 2 * span + 2 in an int, wrapping as the machine's addition does.
        maxCount = static_cast<int>(2u * static_cast<unsigned>(span) + 2u);
    }
    // The next point after `at` (its index `atIndex`): the next one, or scatterSkip further on, not past `end`.
    const auto advance = [&](QCPGraphDataContainer::const_iterator &at, int &atIndex) {
        if (!skipping) {
            ++at;
            return;
        }
        atIndex += modulo;
        if (atIndex < endIndex) {
            at += modulo;
        } else {
            at = end;
            atIndex = endIndex;
        }
    };
    if (!(adaptive && count >= maxCount)) {
        out.reserve(count);
        int index = beginIndex;
        for (auto it = begin; it != end; advance(it, index))
            out.append(*it);
        return out;
    }
    const double rangeUpper = valueAxis.range().upper;
    const double rangeLower = valueAxis.range().lower;
    const auto inRange = [&](double v) { return v > rangeLower && v < rangeUpper; };
    const int reversedFactor = keyAxis.pixelOrientation();
    const int reversedRound = reversedFactor == -1 ? 1 : 0;
    const bool epsilonVaries = keyAxis.scaleType() == QCPAxis::stLogarithmic;
    const auto startKeyOf = [&](double k) { return keyAxis.pixelToCoord(truncated(key(k) + reversedRound)); };
    const auto epsilonAt = [&](double startKey) {
        return std::abs(startKey - keyAxis.pixelToCoord(key(startKey) + 1.0 * reversedFactor));
    };
    auto it = begin;
    int itIndex = beginIndex;
    double minValue = it->value;
    double maxValue = it->value;
    auto minIt = it, maxIt = it, intervalStart = it;
    double startKey = startKeyOf(begin->key);
    double epsilon = epsilonAt(startKey);
    int intervalCount = 1;
    // The points of the interval from intervalStart to `upTo`: about one every four value pixels,
    // its least and its most among them.
    const auto takeInterval = [&](QCPGraphDataContainer::const_iterator upTo, int upToIndex) {
        const double valuePixelSpan = std::abs(value(minValue) - value(maxValue));
        const int dataModulo = std::max(1, rounded(intervalCount / (valuePixelSpan / 4.0)));
        auto at = intervalStart;
        int atIndex = static_cast<int>(at - container.constBegin());
        for (int c = 0; at != upTo; ++c) {
            if ((c % dataModulo == 0 || at == minIt || at == maxIt) && inRange(at->value))
                out.append(*at);
            if (!skipping) {
                ++at;
            } else if (atIndex += modulo; atIndex < upToIndex) {
                at += modulo;
            } else {
                at = upTo;
                atIndex = upToIndex;
            }
        }
    };
    advance(it, itIndex);
    while (it != end) {
        if (it->key < startKey + epsilon) {
            if (it->value < minValue && inRange(it->value)) {
                minValue = it->value;
                minIt = it;
            } else if (it->value > maxValue && inRange(it->value)) {
                maxValue = it->value;
                maxIt = it;
            }
            ++intervalCount;
        } else {
            if (intervalCount >= 2)
                takeInterval(it, itIndex);
            else if (inRange(intervalStart->value))
                out.append(*intervalStart);
            minValue = it->value;
            maxValue = it->value;
            intervalStart = it;
            startKey = startKeyOf(it->key);
            if (epsilonVaries)
                epsilon = epsilonAt(startKey);
            intervalCount = 1;
        }
        advance(it, itIndex);
    }
    if (intervalCount >= 2)
        takeInterval(it, itIndex);
    else if (inRange(intervalStart->value))
        out.append(*intervalStart);
    return out;
}

QVector<QPointF> graphScatters(const QCPAxis &keyAxis, const QCPAxis &valueAxis, const QVector<QCPGraphData> &data)
{
    QVector<QPointF> scatters = placed(keyAxis, valueAxis, data, false);
    for (qsizetype i = 0; i < data.size(); ++i)
        if (std::isnan(data[i].value))
            scatters[i] = QPointF();
    return scatters;
}

} // namespace posenc
