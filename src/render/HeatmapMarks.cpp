#include "HeatmapMarks.h"

#include "Colormaps.h"
#include "FigureRoomChanges.h"
#include "SwatchLegend.h"

#include <QPaintEngine>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace posenc {

namespace {

// The oscillation mark's lines: one every kPitch layout units, kWidth thick.
constexpr double kPitch = 4.0;
constexpr double kWidth = 1.25;
// Cells narrower than this (output pixels) are filled without an outline, which would cover them.
constexpr double kOutlineCell = 5.0;
// Output pixels per layout unit of a vector output's texture: its image is drawn at 4x.
constexpr double kVectorScale = 4.0;
// Marked cells' fills, counted (markFills).
std::atomic<quint64> s_fills {0};

} // namespace

QColor HeatmapMarks::droppedColor()
{
    return QColor(140, 140, 140);
}

QColor HeatmapMarks::notNumberColor()
{
    return Colormaps::notNumberColor();
}

QColor HeatmapMarks::lineColor(double spread)
{
    const double strength = std::clamp(spread / kFullSpread, 0.0, 1.0);
    return QColor(0, 0, 0, static_cast<int>(std::lround(60.0 + 170.0 * strength)));
}

HeatmapMarks::HeatmapMarks(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setAntialiased(false);
    setSelectable(QCP::stNone);
}

void HeatmapMarks::setGrid(const QCPRange &keys, const QCPRange &values, int cols, int rows)
{
    m_keys = keys;
    m_values = values;
    m_cols = cols;
    m_rows = rows;
}

void HeatmapMarks::setSpread(std::vector<float> spread)
{
    m_spread = std::move(spread);
    m_shade.resize(m_spread.size());
    // lineColor's black at its opacity, premultiplied: only the alpha byte. A cell a pixel, so
    // without a QColor each.
    std::transform(m_spread.begin(), m_spread.end(), m_shade.begin(), [](float s) {
        if (!(s >= kMinSpread)) // NaN: nothing
            return QRgb(0);
        const double strength = std::min(double(s) / kFullSpread, 1.0);
        // std::lround of a value in [60, 230] without libm's call a cell: a half added (exactly below
        // 128; from 127.5 the sum is 128 either way) and truncated rounds half away from zero.
        const double alpha = 60.0 + 170.0 * strength;
        return qRgba(0, 0, 0, static_cast<int>(alpha + 0.5));
    });
}

bool HeatmapMarks::hasSpread() const
{
    return std::any_of(m_spread.begin(), m_spread.end(), [](float s) { return s >= kMinSpread; });
}

bool HeatmapMarks::hasMark(CellMark mark) const
{
    return std::find(m_marks.begin(), m_marks.end(), mark) != m_marks.end();
}

QCPRange HeatmapMarks::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    foundRange = false;
    return {};
}

QCPRange HeatmapMarks::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    foundRange = false;
    return {};
}

std::vector<double> HeatmapMarks::edges(QCPAxis *axis, const QCPRange &centres, int cells) const
{
    // As QCPColorMap draws them: centres evenly spread over the range, each cell half a step
    // beyond; a lone cell spans the whole range.
    std::vector<double> out(static_cast<std::size_t>(cells) + 1);
    const double step = cells > 1 ? centres.size() / (cells - 1) : centres.size();
    const double first = cells > 1 ? centres.lower - 0.5 * step : centres.lower;
    for (int i = 0; i <= cells; ++i)
        out[static_cast<std::size_t>(i)] = axis->coordToPixel(first + i * step);
    return out;
}

void HeatmapMarks::draw(QCPPainter *painter)
{
    if (m_cols <= 0 || m_rows <= 0 || (m_marks.empty() && !showsSpread()))
        return;
    const std::vector<double> x = edges(keyAxis(), m_keys, m_cols);
    const std::vector<double> y = edges(valueAxis(), m_values, m_rows);
    if (!m_marks.empty())
        drawMarks(painter, x, y);
    if (showsSpread() && explained())
        drawSpread(painter, x, y);
}

bool HeatmapMarks::explained() const
{
    if (!m_key)
        return true;
    // An entry taken out of its legend, or a legend given up (FigureRoom's hidden layer), is not drawn.
    for (const QCPLayoutElement *at = m_key; at; at = at->layout())
        if (!at->realVisibility() || FigureRoom::Changes::isHidden(at))
            return false;
    const auto *item = qobject_cast<const QCPAbstractLegendItem *>(m_key.data());
    return !item || (item->parentLegend() && item->parentLegend()->hasItem(const_cast<QCPAbstractLegendItem *>(item)));
}

void HeatmapMarks::drawMarks(QCPPainter *painter, const std::vector<double> &x, const std::vector<double> &y)
{
    const QRectF clip(clipRect());
    // A dropped cell is outlined where it is kOutlineCell output pixels across, whatever the layout
    // units: a slide drawn at three pixels a unit outlines the cells a window of the same view
    // would (pytorch-embedding's 32 columns lost theirs at 4.7 units a cell). Below kOutlineCell
    // units the outline is one output pixel, so that it never fills a small cell.
    const bool vector = painter->modes().testFlag(QCPPainter::pmVectorized);
    const double scale
        = vector ? kVectorScale : std::max(1.0, painter->transform().m11() * painter->device()->devicePixelRatioF());
    const auto cellAt
        = [&x, &y](int a, int b) { return QRectF(QPointF(x[b], y[a]), QPointF(x[b + 1], y[a + 1])).normalized(); };
    painter->save();
    if (fillsInRuns(*painter, x, y, scale)) {
        // A row's neighbouring cells of one mark, each within the clip, filled as one rect where the
        // device columns the raster engine fills for each (deviceColumns) meet end to end and the
        // run's own are their union: the same pixels, each filled once.
        const QTransform toDevice = painter->deviceTransform();
        const auto fill = [&](const QRectF &rect, CellMark mark) {
            painter->fillRect(rect, droppedColor());
            if (mark == CellMark::Padding)
                painter->fillRect(rect, SwatchLegend::hatchBrush());
            ++s_fills;
        };
        for (int a = 0; a < m_rows; ++a) {
            const CellMark *row = m_marks.data() + static_cast<std::size_t>(a) * m_cols;
            for (int b = 0; b < m_cols;) {
                if (row[b] == CellMark::None || !cellAt(a, b).intersects(clip)) {
                    ++b;
                    continue;
                }
                auto [from, to] = deviceColumns(toDevice, cellAt(a, b));
                int end = b + 1;
                for (; end < m_cols && row[end] == row[b]; ++end) {
                    const QRectF next = cellAt(a, end);
                    if (!next.intersects(clip))
                        break;
                    const auto [nextFrom, nextTo] = deviceColumns(toDevice, next);
                    if (nextFrom == to)
                        to = nextTo;
                    else if (nextTo == from)
                        from = nextFrom;
                    else
                        break;
                }
                const QRectF run = QRectF(QPointF(x[b], y[a]), QPointF(x[end], y[a + 1])).normalized();
                if (deviceColumns(toDevice, run) == std::pair {from, to}) {
                    fill(run, row[b]);
                } else {
                    for (int c = b; c < end; ++c)
                        fill(cellAt(a, c), row[c]);
                }
                b = end;
            }
        }
        painter->restore();
        return;
    }
    for (int a = 0; a < m_rows; ++a) {
        for (int b = 0; b < m_cols; ++b) {
            const CellMark mark = m_marks[static_cast<std::size_t>(a) * m_cols + b];
            if (mark == CellMark::None)
                continue;
            const QRectF cell = cellAt(a, b);
            if (!cell.intersects(clip))
                continue;
            painter->fillRect(cell, droppedColor());
            if (mark == CellMark::Padding)
                painter->fillRect(cell, SwatchLegend::hatchBrush());
            ++s_fills;
            const double side = std::min(cell.width(), cell.height());
            if (mark == CellMark::Dropped && side * scale >= kOutlineCell) {
                const double pen = side >= kOutlineCell ? 1.0 : 1.0 / scale;
                painter->setPen(QPen(QColor(40, 40, 40), pen));
                painter->setBrush(Qt::NoBrush);
                painter->drawRect(cell.adjusted(pen / 2.0, pen / 2.0, -pen / 2.0, -pen / 2.0));
            }
        }
    }
    painter->restore();
}

// The device columns QRasterPaintEngine::fillRect fills for `rect` without antialiasing under
// `toDevice`, at most a scale: QTransform::mapRect's arithmetic, then toNormalizedFillRect's qRound of
// its left and right edges (Qt 6.4, qpaintengine_raster.cpp), from and to (past the last).
std::pair<int, int> HeatmapMarks::deviceColumns(const QTransform &toDevice, const QRectF &rect)
{
    double left = rect.x(), width = rect.width();
    if (toDevice.type() == QTransform::TxTranslate) {
        left = rect.x() + toDevice.dx();
    } else if (toDevice.type() == QTransform::TxScale) {
        left = toDevice.m11() * rect.x() + toDevice.dx();
        width = toDevice.m11() * rect.width();
        if (width < 0) {
            width = -width;
            left -= width;
        }
    }
    const int from = qRound(left), to = qRound(left + width);
    return from <= to ? std::pair {from, to} : std::pair {to, from};
}

quint64 HeatmapMarks::markFills()
{
    return s_fills;
}

// Without antialiasing and under at most a scale, the raster engine fills a rect by rounding each of
// its edges to the nearest pixel (QRasterPaintEngine::fillRect, toNormalizedFillRect): where
// neighbouring cells' rounded edges meet (deviceColumns), a run of them filled as one rect fills the
// pixels they fill one by one, the hatch's pattern anchored at the brush origin either way, in one
// call where there were as many as cells (a dropout mask's hundreds a replot). A dropped cell wide
// enough to be outlined draws its outline between its fill and the next cell's, and is left to the
// cell-by-cell drawing.
bool HeatmapMarks::fillsInRuns(const QPainter &painter, const std::vector<double> &x, const std::vector<double> &y,
                               double scale) const
{
    if (painter.testRenderHint(QPainter::Antialiasing) || !painter.paintEngine()
        || painter.paintEngine()->type() != QPaintEngine::Raster
        || painter.deviceTransform().type() > QTransform::TxScale)
        return false;
    // A dropped cell is outlined where its shorter side reaches kOutlineCell output pixels: none is
    // where the widest column's and the highest row's shorter one does not, or none is dropped.
    const auto largest = [](const std::vector<double> &edges) {
        double most = 0.0;
        for (std::size_t i = 0; i + 1 < edges.size(); ++i)
            most = std::max(most, std::abs(edges[i + 1] - edges[i]));
        return most;
    };
    return std::min(largest(x), largest(y)) * scale < kOutlineCell
        || std::find(m_marks.begin(), m_marks.end(), CellMark::Dropped) == m_marks.end();
}

void HeatmapMarks::drawSpread(QCPPainter *painter, const std::vector<double> &x, const std::vector<double> &y)
{
    // A texture at output resolution: each output pixel on a line takes its grid cell's shade.
    const QRectF area
        = QRectF(clipRect())
              .intersected(QRectF(QPointF(x.front(), y.front()), QPointF(x.back(), y.back())).normalized());
    if (area.isEmpty())
        return;
    const bool vector = painter->modes().testFlag(QCPPainter::pmVectorized);
    const double scale
        = vector ? kVectorScale : std::max(1.0, painter->transform().m11() * painter->device()->devicePixelRatioF());
    const int width = static_cast<int>(std::ceil(area.width() * scale));
    const int height = static_cast<int>(std::ceil(area.height() * scale));
    // Each output column and row's grid cell (the edges run either way along an axis).
    const auto cellsOf = [](const std::vector<double> &e, double from, int pixels, double scale) {
        std::vector<int> cell(static_cast<std::size_t>(pixels), -1);
        const bool rising = e.back() >= e.front();
        const int cells = static_cast<int>(e.size()) - 1;
        for (int i = 0; i < pixels; ++i) {
            const double at = from + (i + 0.5) / scale;
            int lo = 0, hi = cells; // edge lo before `at`, edge hi after it
            if ((rising ? at < e.front() || at >= e.back() : at > e.front() || at <= e.back()))
                continue;
            while (hi - lo > 1) {
                const int mid = (lo + hi) / 2;
                if (rising ? e[static_cast<std::size_t>(mid)] <= at : e[static_cast<std::size_t>(mid)] >= at)
                    lo = mid;
                else
                    hi = mid;
            }
            cell[static_cast<std::size_t>(i)] = lo;
        }
        return cell;
    };
    const std::vector<int> col = cellsOf(x, area.left(), width, scale);
    const std::vector<int> row = cellsOf(y, area.top(), height, scale);
    QImage texture(width, height, QImage::Format_ARGB32_Premultiplied);
    texture.fill(Qt::transparent);
    for (int i = 0; i < height; ++i) {
        const int a = row[static_cast<std::size_t>(i)];
        const double unit = std::fmod(area.top() + (i + 0.5) / scale, kPitch);
        if (a < 0 || unit >= kWidth)
            continue;
        auto *line = reinterpret_cast<QRgb *>(texture.scanLine(i));
        const QRgb *shade = m_shade.data() + static_cast<std::size_t>(a) * m_cols;
        for (int j = 0; j < width; ++j) {
            if (const int b = col[static_cast<std::size_t>(j)]; b >= 0)
                line[j] = shade[b];
        }
    }
    painter->drawImage(QRectF(area.topLeft(), QSizeF(width / scale, height / scale)), texture);
}

} // namespace posenc
