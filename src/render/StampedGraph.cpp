#include "StampedGraph.h"

#include "ColumnFill.h"
#include "GraphLines.h"
#include "PolylineSimplify.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace posenc {

namespace {

std::atomic<quint64> g_simplifications {0};

} // namespace

StampedGraph::StampedGraph(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPGraph(keyAxis, valueAxis)
{ }

void StampedGraph::drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                                   const QCPScatterStyle &style) const
{
    // Aliased markers (none of our figures has them) snap to pixels by their own rules: drawn as
    // QCPGraph draws them.
    applyScattersAntialiasingHint(painter);
    const bool exporting = painter->modes() & (QCPPainter::pmVectorized | QCPPainter::pmNoCaching);
    const bool stampable = style.shape() != QCPScatterStyle::ssNone && style.shape() != QCPScatterStyle::ssPixmap
        && style.shape() != QCPScatterStyle::ssCustom;
    if (exporting || !stampable || !painter->antialiasing()
        || painter->worldTransform().type() > QTransform::TxTranslate) {
        QCPGraph::drawScatterPlot(painter, scatters, style);
        return;
    }
    const qreal ratio = painter->device()->devicePixelRatioF();
    const QPen pen = style.isPenDefined() ? style.pen() : mPen;
    const StampKey key {style.shape(), style.size(), pen, style.brush(), ratio};
    // An odd number of device pixels a side: the marker's centre is a pixel's centre, as where
    // QCustomPlot draws it on a whole coordinate.
    const int side = 2 * static_cast<int>(std::ceil((style.size() + pen.widthF() + 2.0) * ratio / 2.0)) + 1;
    if (!(key == m_stampKey) || m_stamp.isNull()) {
        m_stamp = QPixmap(side, side);
        m_stamp.setDevicePixelRatio(ratio);
        m_stamp.fill(Qt::transparent);
        QCPPainter stampPainter(&m_stamp);
        // The render hint alone: QCPPainter::setAntialiasing would also shift by half a pixel.
        stampPainter.setRenderHint(QPainter::Antialiasing);
        style.applyTo(&stampPainter, pen);
        const double centre = side / 2.0 / ratio;
        style.drawShape(&stampPainter, centre, centre);
        stampPainter.end();
        m_stampKey = key;
    }
    // QCPPainter draws antialiased shapes half a pixel further (its setAntialiasing): the exact
    // centre is there. The copies go without that shift, to whole device pixels.
    constexpr double shift = 0.5;
    painter->setAntialiasing(false);
    const QPointF offset(painter->worldTransform().dx(), painter->worldTransform().dy());
    const double half = side / 2.0;
    // A marker on the device pixel of one already stamped is left out: its copy would only darken the
    // stamp's rim. Dense markers land there often (the magnitudes' thousand columns, two or three to a
    // pixel column at two levels), and each copy costs as much as a stamp. A graph's points come in
    // the order of their keys: the markers of one pixel column (or row, for a vertical key axis) come
    // together, and those of the column are all it compares with.
    // A marker wholly outside the painter's clip (an axis rect's: a |mean| of 1e-17 on a log axis
    // from 1e-3) draws no pixel: it is not handed to the raster engine at all. The clip is widened
    // by a pixel, for a copy the engine rounds to the pixel beside.
    const std::optional<QRectF> visible = painter->hasClipping()
        ? std::optional(painter->clipBoundingRect().adjusted(-1.0, -1.0, 1.0, 1.0))
        : std::nullopt;
    const QSizeF stampSize = QSizeF(side, side) / ratio;
    const bool keysAcross = keyAxis() && keyAxis()->orientation() == Qt::Horizontal;
    double line = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> &across = m_stampedAcross;
    across.clear();
    for (const QPointF &scatter : scatters) {
        // A point whose value is NaN or infinite has no place: QCPGraph draws nothing for it, and
        // a copy to a NaN pixel would crash the raster engine.
        if (!std::isfinite(scatter.x()) || !std::isfinite(scatter.y()))
            continue;
        const QPointF corner(std::round((scatter.x() + shift) * ratio - half),
                             std::round((scatter.y() + shift) * ratio - half));
        const double along = keysAcross ? corner.x() : corner.y();
        const double other = keysAcross ? corner.y() : corner.x();
        if (along != line) {
            line = along;
            across.clear();
        } else if (std::find(across.begin(), across.end(), other) != across.end()) {
            continue;
        }
        across.push_back(other);
        const QPointF at = corner / ratio - offset;
        if (visible && !visible->intersects(QRectF(at, stampSize)))
            continue;
        painter->drawPixmap(at, m_stamp);
    }
}

namespace {

bool exporting(const QCPPainter *painter)
{
    return painter->modes() & (QCPPainter::pmVectorized | QCPPainter::pmNoCaching);
}

bool finite(const QVector<QPointF> &points)
{
    for (const QPointF &p : points)
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
            return false;
    return true;
}

} // namespace

void StampedGraph::drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const
{
    if (exporting(painter)) {
        QCPGraph::drawLinePlot(painter, lines);
        return;
    }
    const qreal ratio = painter->device()->devicePixelRatioF();
    const QVector<QPointF> &shown = simplified(lines, kLineTolerance / ratio);
    const QPen &pen = painter->pen();
    if (pen.style() == Qt::NoPen || pen.color().alpha() == 0)
        return;
    const bool wide = !pen.isCosmetic() && pen.widthF() * ratio > 1.0;
    const bool fast = mParentPlot && mParentPlot->plottingHints().testFlag(QCP::phFastPolylines);
    if (dashedInSegments(pen)) {
        applyDefaultAntialiasingHint(painter);
        drawDashedSegments(*painter, shown);
    } else if (pen.style() == Qt::SolidLine && wide && fast) {
        applyDefaultAntialiasingHint(painter);
        drawSolidSegments(*painter, shown);
    } else {
        QCPGraph::drawLinePlot(painter, shown);
    }
}

// QCustomPlot's fast polyline (QCPAbstractPlottable1D::drawPolyline with phFastPolylines): a solid
// line is drawn segment by segment, a NaN point leaving out the segments on either side, aliased at
// whole pixels (QCPPainter::drawLine). The same segments go to the raster engine a batch at a time:
// a pen wider than a device pixel strokes each line of a batch alone (QRasterPaintEngine::stroke of
// a LinesHint path), so the pixels are those of one call a segment, without the calls' cost, which
// was most of the time of a curve with a vertex on every pixel column.
void StampedGraph::drawSolidSegments(QPainter &painter, const QVector<QPointF> &points)
{
    constexpr int kBatch = 64;
    const bool whole = !painter.testRenderHint(QPainter::Antialiasing);
    QLineF exact[kBatch];
    QLine rounded[kBatch];
    int used = 0;
    const auto flush = [&] {
        if (whole)
            painter.drawLines(rounded, used);
        else
            painter.drawLines(exact, used);
        used = 0;
    };
    const auto isNan = [](const QPointF &p) { return std::isnan(p.x()) || std::isnan(p.y()); };
    for (qsizetype i = 1; i < points.size(); ++i) {
        if (isNan(points[i - 1]) || isNan(points[i]))
            continue;
        const QLineF line(points[i - 1], points[i]);
        if (whole)
            rounded[used++] = line.toLine();
        else
            exact[used++] = line;
        if (used == kBatch)
            flush();
    }
    if (used > 0)
        flush();
}

bool StampedGraph::dashedInSegments(const QPen &pen)
{
    // A pen at most a pixel wide is dashed by the raster engine's cosmetic stroker already, and a
    // round cap has no segment rasteriser.
    return pen.style() != Qt::SolidLine && pen.style() != Qt::NoPen && !pen.isCosmetic() && pen.widthF() > 1.0
        && pen.capStyle() != Qt::RoundCap;
}

// Each segment goes to the raster engine as a line of its own, which it dashes without stroking a
// path (QRasterPaintEngine::stroke of a LinesHint path: every line starts the pattern at the pen's
// offset), the pen offset by the pattern's phase where the segment starts. The dashes lie where
// QDashStroker puts them along the whole polyline; a dash that turns a corner is drawn as two pieces
// with their square caps instead of one with a bevel join, which differs within the pen's width of
// the vertex. Stroking the dashes as one path and filling it took ~1.3 ms aliased and ~6 ms
// antialiased for a line of 400 vertices zigzagging down every pixel column (PositionEffect's chosen
// band); the segments take a fraction of that.
void StampedGraph::drawDashedSegments(QPainter &painter, const QVector<QPointF> &points)
{
    QPen pen = painter.pen();
    const double start = pen.dashOffset();
    const double width = pen.widthF();
    double patternLength = 0.0;
    for (const double part : pen.dashPattern())
        patternLength += part;
    if (patternLength <= 0.0 || width <= 0.0)
        return;
    double phase = start;
    for (qsizetype i = 1; i < points.size(); ++i) {
        const QPointF &a = points[i - 1], &b = points[i];
        if (!std::isfinite(a.x()) || !std::isfinite(a.y()) || !std::isfinite(b.x()) || !std::isfinite(b.y())) {
            // A gap: the next run starts the pattern afresh, as QCustomPlot's polyline of each run does.
            phase = start;
            continue;
        }
        const QLineF line(a, b);
        const double length = line.length();
        if (length <= 0.0)
            continue;
        pen.setDashOffset(phase);
        painter.setPen(pen);
        painter.drawLines(&line, 1);
        phase = std::fmod(phase + length / width, patternLength);
    }
    pen.setDashOffset(start);
    painter.setPen(pen);
}

quint64 StampedGraph::simplifications()
{
    return g_simplifications.load(std::memory_order_relaxed);
}

struct StampedGraph::Simplification
{
    QVector<QPointF> from;
    double tolerance = 0.0;
    size_t hash = 0;
    QVector<QPointF> kept;

    // Exactly the same points, bit for bit: QPointF's own == is fuzzy, and a gap's NaN is unequal to
    // itself by value (every line of the positions' figures has gaps: each of their replots
    // simplified every line again, 6 % of a frame).
    bool isOf(const QVector<QPointF> &lines, double within, size_t linesHash) const
    {
        return within == tolerance && linesHash == hash && lines.size() == from.size()
            && std::memcmp(lines.constData(), from.constData(), std::size_t(lines.size()) * sizeof(QPointF)) == 0;
    }
};

namespace {

// The lines a thread's graphs simplified lately: a figure's lines, the few figures a change redraws.
constexpr qsizetype kRecentLines = 32;
constexpr qsizetype kRecentPoints = qsizetype(1) << 20; // at most this many points remembered in all

} // namespace

const QVector<QPointF> &StampedGraph::simplified(const QVector<QPointF> &lines, double tolerance) const
{
    static_assert(sizeof(QPointF) == 2 * sizeof(double), "QPointF compared as its coordinates' bits");
    const size_t hash = qHashBits(lines.constData(), std::size_t(lines.size()) * sizeof(QPointF));
    if (m_simplified && m_simplified->isOf(lines, tolerance, hash))
        return m_simplified->kept;
    // Most recent first.
    thread_local std::vector<std::shared_ptr<const Simplification>> recent;
    const auto found = std::find_if(recent.begin(), recent.end(),
                                    [&](const auto &known) { return known->isOf(lines, tolerance, hash); });
    if (found != recent.end()) {
        m_simplified = *found;
        std::rotate(recent.begin(), found, found + 1);
        return m_simplified->kept;
    }
    g_simplifications.fetch_add(1, std::memory_order_relaxed);
    auto made = std::make_shared<Simplification>();
    made->from = lines;
    made->tolerance = tolerance;
    made->hash = hash;
    made->kept = simplifyPolyline(lines, tolerance);
    m_simplified = made;
    recent.insert(recent.begin(), std::move(made));
    qsizetype points = 0;
    for (auto it = recent.begin(); it != recent.end(); ++it) {
        points += (*it)->from.size() + (*it)->kept.size();
        if (it - recent.begin() >= kRecentLines || (points > kRecentPoints && it != recent.begin())) {
            recent.erase(it, recent.end());
            break;
        }
    }
    return m_simplified->kept;
}

// QCPGraph::getLines over all the data, for a line: the visible data, adaptively sampled, in
// ascending pixels, then graphLines where QCPGraph calls dataToLines.
QVector<QPointF> StampedGraph::allLines() const
{
    QVector<QPointF> lines;
    if (mLineStyle != lsLine || !mKeyAxis || !mValueAxis) {
        getLines(&lines, QCPDataRange(0, dataCount()));
        return lines;
    }
    QCPGraphDataContainer::const_iterator begin, end;
    getVisibleDataBounds(begin, end, QCPDataRange(0, dataCount()));
    if (begin == end)
        return lines;
    QVector<QCPGraphData> lineData;
    getOptimizedLineData(&lineData, begin, end);
    if (mKeyAxis->rangeReversed() != (mKeyAxis->orientation() == Qt::Vertical))
        std::reverse(lineData.begin(), lineData.end());
    return graphLines(*mKeyAxis, *mValueAxis, lineData);
}

// QCPGraph::getScatters over all the data: the visible data, thinned as QCustomPlot thins it
// (scatterData), in ascending pixels, then graphScatters where QCPGraph takes the pixels.
QVector<QPointF> StampedGraph::allScatters() const
{
    QCPGraphDataContainer::const_iterator begin, end;
    getVisibleDataBounds(begin, end, QCPDataRange(0, dataCount()));
    if (begin == end)
        return {};
    QVector<QCPGraphData> data
        = scatterData(*mKeyAxis, *mValueAxis, *mDataContainer, begin, end, mScatterSkip, mAdaptiveSampling);
    if (mKeyAxis->rangeReversed() != (mKeyAxis->orientation() == Qt::Vertical))
        std::reverse(data.begin(), data.end());
    return graphScatters(*mKeyAxis, *mValueAxis, data);
}

// QCPGraph::draw (QCustomPlot 2.1) for its one segment of unselected data, of a line or of markers
// alone.
void StampedGraph::draw(QCPPainter *painter)
{
    if (exporting(painter) || !mKeyAxis || !mValueAxis || (mLineStyle != lsLine && mLineStyle != lsNone)
        || !selection().isEmpty()) {
        QCPGraph::draw(painter);
        return;
    }
    if (mKeyAxis->range().size() <= 0 || mDataContainer->isEmpty() || (mLineStyle == lsNone && mScatterStyle.isNone()))
        return;
    QVector<QPointF> lines = mLineStyle == lsNone ? QVector<QPointF>() : allLines();
    painter->setBrush(mBrush);
    painter->setPen(Qt::NoPen);
    drawFill(painter, &lines);
    if (mLineStyle != lsNone) {
        painter->setPen(mPen);
        painter->setBrush(Qt::NoBrush);
        drawLinePlot(painter, lines);
    }
    if (!mScatterStyle.isNone())
        drawScatterPlot(painter, allScatters(), mScatterStyle);
    if (mSelectionDecorator)
        mSelectionDecorator->drawDecoration(painter, selection());
}

// A band between this graph and another StampedGraph over the same keys (each figure's bands: a
// least and a most at every key) is one polygon, this line out and the other's back, as
// QCPGraph::getChannelFillPolygon makes it there; each side simplified as a line is. Any other
// fill is QCPGraph's.
void StampedGraph::drawFill(QCPPainter *painter, QVector<QPointF> *lines) const
{
    const auto *other = dynamic_cast<const StampedGraph *>(mChannelFillGraph.data());
    const QBrush brush = painter->brush();
    if (exporting(painter) || !other || mLineStyle == lsImpulse || other->lineStyle() == lsImpulse
        || brush.style() == Qt::NoBrush || brush.color().alpha() == 0 || other->keyAxis() != keyAxis()) {
        QCPGraph::drawFill(painter, lines);
        return;
    }
    const QVector<QPointF> otherLines = other->allLines();
    const bool horizontal = keyAxis()->orientation() == Qt::Horizontal;
    const auto key = [horizontal](const QPointF &p) { return horizontal ? p.x() : p.y(); };
    // A band over columns of pixels (NaN gaps included) is filled column by column of the
    // unsimplified sides: the pixels the aliased polygon of every vertex fills (ColumnFill), in a
    // draft and in full quality alike. Antialiased, the polygon's edges would only blend the pixels
    // the band's edge crosses, under the sides' own lines where a figure draws them, at the cost of
    // an edge on every pixel of a curve sampled a point a pixel.
    applyFillAntialiasingHint(painter);
    if (horizontal && brush.style() == Qt::SolidPattern
        && painter->compositionMode() == QPainter::CompositionMode_SourceOver
        && ColumnFill::draw(*painter, *lines, otherLines, brush.color()))
        return;
    if (lines->size() < 2 || otherLines.size() < 2 || !finite(*lines) || !finite(otherLines)
        || key(lines->front()) != key(otherLines.front()) || key(lines->back()) != key(otherLines.back())) {
        QCPGraph::drawFill(painter, lines);
        return;
    }
    const double tolerance = kLineTolerance / painter->device()->devicePixelRatioF();
    QVector<QPointF> polygon = simplified(*lines, tolerance);
    const QVector<QPointF> &back = other->simplified(otherLines, tolerance);
    polygon.reserve(polygon.size() + back.size());
    for (auto it = back.crbegin(); it != back.crend(); ++it)
        polygon.append(*it);
    applyFillAntialiasingHint(painter);
    painter->drawPolygon(polygon.constData(), int(polygon.size()));
}

} // namespace posenc
