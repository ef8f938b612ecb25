#include "LevelledGraph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc {

namespace {

// The least and the greatest value of the points of `from` in each block of keys `width` wide from
// `first` (and its first NaN, a gap), in the keys' order.
QSharedPointer<QCPGraphDataContainer> extremes(const QCPGraphDataContainer &from, double first, double width)
{
    QVector<QCPGraphData> out;
    const auto begin = from.constBegin();
    const qsizetype n = from.size();
    out.reserve(n / 2 + 3);
    for (qsizetype start = 0; start < n;) {
        const double block = std::floor(((begin + start)->key - first) / width);
        qsizetype least = -1, greatest = -1, gap = -1, end = start;
        for (; end < n && std::floor(((begin + end)->key - first) / width) == block; ++end) {
            const double v = (begin + end)->value;
            if (std::isnan(v)) {
                if (gap < 0)
                    gap = end;
                continue;
            }
            if (least < 0 || v < (begin + least)->value)
                least = end;
            if (greatest < 0 || v > (begin + greatest)->value)
                greatest = end;
        }
        end = std::max(end, start + 1); // a key that is no number stands alone
        qsizetype kept[3] = {least, greatest, gap};
        std::sort(std::begin(kept), std::end(kept));
        for (qsizetype k = 0; k < 3; ++k)
            if (kept[k] >= 0 && (k == 0 || kept[k] != kept[k - 1]))
                out.append(*(begin + kept[k]));
        start = end;
    }
    auto container = QSharedPointer<QCPGraphDataContainer>::create();
    container->set(out, true);
    return container;
}

} // namespace

std::shared_ptr<const LevelledPoints> LevelledPoints::make(QSharedPointer<QCPGraphDataContainer> all)
{
    auto made = std::make_shared<LevelledPoints>();
    made->all = std::move(all);
    const qsizetype n = made->all->size();
    const double first = n > 0 ? made->all->constBegin()->key : 0.0;
    if (n > 1) {
        const double last = (made->all->constEnd() - 1)->key;
        made->m_keysPerPoint = std::max((last - first) / double(n - 1), std::numeric_limits<double>::min());
    }
    // Each level from the one before: a block's least and greatest are among its parts'.
    const QCPGraphDataContainer *finer = made->all.data();
    for (qsizetype block = kGrowth; n / (block / kGrowth) > kLeastPoints; block *= kGrowth) {
        made->levels.append({block, extremes(*finer, first, double(block) * made->m_keysPerPoint)});
        finer = made->levels.constLast().points.data();
    }
    return made;
}

QSharedPointer<QCPGraphDataContainer> LevelledPoints::forView(double span, double pixels) const
{
    const double pointsPerPixel = std::abs(span) / m_keysPerPoint / std::max(pixels, 1.0);
    for (qsizetype i = levels.size() - 1; i >= 0; --i)
        if (2.0 * double(levels[i].block) <= pointsPerPixel)
            return levels[i].points;
    return all;
}

LevelledGraph::LevelledGraph(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : StampedGraph(keyAxis, valueAxis)
{
    connect(keyAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] { choose(); });
}

void LevelledGraph::setLevels(std::shared_ptr<const LevelledPoints> points)
{
    m_levels = std::move(points);
    if (!m_levels)
        return;
    setData(m_levels->all);
    choose();
}

void LevelledGraph::choose()
{
    if (!m_levels)
        return;
    QCPAxis *key = keyAxis();
    if (!key || !key->axisRect())
        return;
    const QRect rect = key->axisRect()->rect();
    const double pixels = key->orientation() == Qt::Horizontal ? rect.width() : rect.height();
    const QSharedPointer<QCPGraphDataContainer> points = m_levels->forView(key->range().size(), pixels);
    if (points != mDataContainer)
        setData(points);
}

void LevelledGraph::draw(QCPPainter *painter)
{
    choose(); // the axis rect's length as laid out for this replot
    StampedGraph::draw(painter);
}

} // namespace posenc
