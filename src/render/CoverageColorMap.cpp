#include "CoverageColorMap.h"

#include <QPaintEngine>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace posenc {

namespace {

// Whether QCPColorMapData's cells changed since its image was made: QCustomPlot keeps the mark
// protected; a pointer to the member, formed in a class derived from it, reads it.
struct ColorMapDataState : QCPColorMapData
{
    ColorMapDataState() = delete;
    static bool modified(const QCPColorMapData &data) { return data.*(&ColorMapDataState::mDataModified); }
};

// One device pixel's share of the source pixels along one axis: (source pixel, device pixels of
// it that fall in the device pixel, at most 1).
using Weights = std::vector<std::pair<int, float>>;

// The weights of device pixels [first, end) along an axis where `count` source pixels span device
// coordinates [lo, hi): source pixel i covers [lo + i w, lo + (i + 1) w), w = (hi - lo) / count.
std::vector<Weights> axisWeights(double lo, double hi, int count, int first, int end)
{
    const double width = (hi - lo) / count;
    std::vector<Weights> all(static_cast<std::size_t>(std::max(0, end - first)));
    for (int pixel = first; pixel < end; ++pixel) {
        Weights &weights = all[static_cast<std::size_t>(pixel - first)];
        const int from = std::max(0, static_cast<int>(std::floor((pixel - lo) / width)));
        for (int i = from; i < count; ++i) {
            const double a = std::max<double>(pixel, lo + i * width);
            const double b = std::min<double>(pixel + 1, lo + (i + 1) * width);
            if (a >= pixel + 1)
                break;
            if (b > a)
                weights.emplace_back(i, static_cast<float>(b - a));
        }
    }
    return all;
}

} // namespace

QImage CoverageColorMap::coverage(const QImage &source, const QRectF &target, const QRect &clip, QPoint *origin)
{
    const QImage premultiplied = source.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    const int w = premultiplied.width();
    const int h = premultiplied.height();
    const QRect touched = target.toAlignedRect().intersected(clip);
    if (w == 0 || h == 0 || touched.isEmpty() || !(target.width() > 0) || !(target.height() > 0))
        return {};
    if (origin)
        *origin = touched.topLeft();
    const std::vector<Weights> across
        = axisWeights(target.left(), target.right(), w, touched.left(), touched.right() + 1);
    const std::vector<Weights> down
        = axisWeights(target.top(), target.bottom(), h, touched.top(), touched.bottom() + 1);
    // Separably: each source row's pixels summed into the device's columns, then the rows. A
    // device row's source rows follow the last's, so only those of one device row are kept.
    const int outW = touched.width();
    using Pixel = std::array<float, 4>;
    std::map<int, std::vector<Pixel>> summedRows;
    const auto acrossRow = [&](int row) -> const std::vector<Pixel> & {
        auto found = summedRows.find(row);
        if (found != summedRows.end())
            return found->second;
        std::vector<Pixel> out(static_cast<std::size_t>(outW), Pixel {});
        const auto *line = reinterpret_cast<const QRgb *>(premultiplied.constScanLine(row));
        for (int x = 0; x < outW; ++x)
            for (const auto &[col, weight] : across[static_cast<std::size_t>(x)]) {
                const QRgb c = line[col];
                Pixel &p = out[static_cast<std::size_t>(x)];
                p[0] += weight * float(qRed(c));
                p[1] += weight * float(qGreen(c));
                p[2] += weight * float(qBlue(c));
                p[3] += weight * float(qAlpha(c));
            }
        return summedRows.emplace(row, std::move(out)).first->second;
    };
    QImage image(outW, touched.height(), QImage::Format_ARGB32_Premultiplied);
    std::vector<Pixel> sum(static_cast<std::size_t>(outW));
    const auto channel = [](float v) { return std::clamp(static_cast<int>(std::lround(v)), 0, 255); };
    for (int y = 0; y < touched.height(); ++y) {
        const Weights &rows = down[static_cast<std::size_t>(y)];
        if (!rows.empty())
            summedRows.erase(summedRows.begin(), summedRows.lower_bound(rows.front().first));
        std::fill(sum.begin(), sum.end(), Pixel {});
        for (const auto &[row, weight] : rows) {
            const std::vector<Pixel> &in = acrossRow(row);
            for (int x = 0; x < outW; ++x)
                for (std::size_t k = 0; k < 4; ++k)
                    sum[static_cast<std::size_t>(x)][k] += weight * in[static_cast<std::size_t>(x)][k];
        }
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        for (int x = 0; x < outW; ++x) {
            const Pixel &p = sum[static_cast<std::size_t>(x)];
            const int alpha = channel(p[3]);
            // Premultiplied: no channel above its alpha, whatever the rounding.
            line[x] = qRgba(std::min(channel(p[0]), alpha), std::min(channel(p[1]), alpha),
                            std::min(channel(p[2]), alpha), alpha);
        }
    }
    return image;
}

void CoverageColorMap::draw(QCPPainter *painter)
{
    const bool raster = painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster
        && !painter->modes().testFlag(QCPPainter::pmVectorized);
    // QCPPainter shifts an antialiased raster drawing by half a pixel (QCPPainter::setAntialiasing):
    // the cells' edges are where the axes put them.
    if (raster)
        painter->setAntialiasing(false);
    const QTransform toDevice = painter->deviceTransform();
    if (!raster || toDevice.type() > QTransform::TxScale || mMapData->isEmpty() || !mKeyAxis || !mValueAxis
        || mKeyAxis->orientation() != Qt::Horizontal || mInterpolate || mTightBoundary) {
        QCPColorMap::draw(painter);
        return;
    }
    if (ColorMapDataState::modified(*mMapData) || mMapImageInvalidated)
        updateMapImage();
    // The cells' rectangle as QCPColorMap::draw takes it: the map range joins the centres of the
    // outer cells, which reach half a cell beyond it (a lone cell spans the range).
    QRectF imageRect = QRectF(coordsToPixels(mMapData->keyRange().lower, mMapData->valueRange().lower),
                              coordsToPixels(mMapData->keyRange().upper, mMapData->valueRange().upper))
                           .normalized();
    const double halfWidth = mMapData->keySize() > 1 ? 0.5 * imageRect.width() / (mMapData->keySize() - 1) : 0.0;
    const double halfHeight
        = mMapData->valueSize() > 1 ? 0.5 * imageRect.height() / (mMapData->valueSize() - 1) : 0.0;
    imageRect.adjust(-halfWidth, -halfHeight, halfWidth, halfHeight);
    QRectF visible = clipRect();
    if (painter->hasClipping())
        visible = visible.intersected(painter->clipBoundingRect());
    const QRectF target = toDevice.mapRect(imageRect);
    const QRect clip = toDevice.mapRect(visible).toAlignedRect();
    const bool keyReversed = mKeyAxis->rangeReversed(), valueReversed = mValueAxis->rangeReversed();
    if (m_drawn.image.isNull() || m_drawn.source != mMapImage.cacheKey() || m_drawn.keyReversed != keyReversed
        || m_drawn.valueReversed != valueReversed || m_drawn.target != target || m_drawn.clip != clip) {
        const QImage source = mMapImage.mirrored(keyReversed, valueReversed);
        QPoint origin;
        QImage image = coverage(source, target, clip, &origin);
        m_drawn = {mMapImage.cacheKey(), keyReversed, valueReversed, target, clip, std::move(image), origin};
    }
    const QImage &drawn = m_drawn.image;
    const QPoint origin = m_drawn.origin;
    if (drawn.isNull())
        return;
    // Device pixel for device pixel: the image's rectangle in the painter's coordinates.
    painter->save();
    painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter->drawImage(toDevice.inverted().mapRect(QRectF(origin, drawn.size())), drawn);
    painter->restore();
}

} // namespace posenc
