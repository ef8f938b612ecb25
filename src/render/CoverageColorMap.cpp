#include "CoverageColorMap.h"

#include <QPaintEngine>

#include <algorithm>
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

// The weights of device pixels along one axis, each pixel's a run of (source pixel, device pixels of
// it that fall in the device pixel, at most 1): pixel p's are entries [start[p], start[p + 1]).
struct CoverageWeights
{
    std::vector<int> start;
    std::vector<int> source;
    std::vector<float> weight;
};

// The weights of device pixels [first, end) along an axis where `count` source pixels span device
// coordinates [lo, hi): source pixel i covers [lo + i w, lo + (i + 1) w), w = (hi - lo) / count.
CoverageWeights axisWeights(double lo, double hi, int count, int first, int end)
{
    const double width = (hi - lo) / count;
    CoverageWeights all;
    all.start.reserve(static_cast<std::size_t>(std::max(0, end - first)) + 1);
    for (int pixel = first; pixel < end; ++pixel) {
        all.start.push_back(static_cast<int>(all.source.size()));
        const int from = std::max(0, static_cast<int>(std::floor((pixel - lo) / width)));
        for (int i = from; i < count; ++i) {
            const double a = std::max<double>(pixel, lo + i * width);
            const double b = std::min<double>(pixel + 1, lo + (i + 1) * width);
            if (a >= pixel + 1)
                break;
            if (b > a) {
                all.source.push_back(i);
                all.weight.push_back(static_cast<float>(b - a));
            }
        }
    }
    all.start.push_back(static_cast<int>(all.source.size()));
    return all;
}

// A channel's sum rounded to the nearest byte, half up, as std::lround rounds a sum of
// non-negative terms (exactly: a float plus 0.5 is exact in double), without its call a channel.
int channelByte(float v)
{
    return std::clamp(static_cast<int>(static_cast<double>(v) + 0.5), 0, 255);
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
    const CoverageWeights across = axisWeights(target.left(), target.right(), w, touched.left(), touched.right() + 1);
    const CoverageWeights down = axisWeights(target.top(), target.bottom(), h, touched.top(), touched.bottom() + 1);
    // Separably: each source row's pixels summed into the device's columns, then the rows. A
    // device row's source rows follow the last's, so only those of one device row are kept. Each
    // sum is a pixel's four channels side by side, added term by term in the weights' order.
    const int outW = touched.width();
    const auto channels = static_cast<std::size_t>(outW) * 4;
    std::vector<float> unpacked(static_cast<std::size_t>(w) * 4);
    // The source columns some device column reads (a zoom leaves most outside the clip).
    const std::pair<int, int> usedColumns
        = across.source.empty() ? std::pair {0, 0} : std::pair {across.source.front(), across.source.back() + 1};
    std::map<int, std::vector<float>> summedRows;
    const auto acrossRow = [&](int row) -> const std::vector<float> & {
        auto found = summedRows.find(row);
        if (found != summedRows.end())
            return found->second;
        const auto *line = reinterpret_cast<const QRgb *>(premultiplied.constScanLine(row));
        for (int col = usedColumns.first; col < usedColumns.second; ++col) {
            const QRgb c = line[col];
            float *channel = unpacked.data() + std::size_t(col) * 4;
            channel[0] = float(qRed(c));
            channel[1] = float(qGreen(c));
            channel[2] = float(qBlue(c));
            channel[3] = float(qAlpha(c));
        }
        std::vector<float> out(channels, 0.0f);
        for (int x = 0; x < outW; ++x) {
            float *p = out.data() + std::size_t(x) * 4;
            for (int j = across.start[std::size_t(x)]; j < across.start[std::size_t(x) + 1]; ++j) {
                const float weight = across.weight[std::size_t(j)];
                const float *in = unpacked.data() + std::size_t(across.source[std::size_t(j)]) * 4;
                for (std::size_t k = 0; k < 4; ++k)
                    p[k] += weight * in[k];
            }
        }
        return summedRows.emplace(row, std::move(out)).first->second;
    };
    QImage image(outW, touched.height(), QImage::Format_ARGB32_Premultiplied);
    std::vector<float> sum(channels);
    for (int y = 0; y < touched.height(); ++y) {
        const int first = down.start[std::size_t(y)], end = down.start[std::size_t(y) + 1];
        if (first < end)
            summedRows.erase(summedRows.begin(), summedRows.lower_bound(down.source[std::size_t(first)]));
        std::fill(sum.begin(), sum.end(), 0.0f);
        for (int j = first; j < end; ++j) {
            const float weight = down.weight[std::size_t(j)];
            const float *in = acrossRow(down.source[std::size_t(j)]).data();
            for (std::size_t i = 0; i < channels; ++i)
                sum[i] += weight * in[i];
        }
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        for (int x = 0; x < outW; ++x) {
            const float *p = sum.data() + std::size_t(x) * 4;
            const int alpha = channelByte(p[3]);
            // Premultiplied: no channel above its alpha, whatever the rounding.
            line[x] = qRgba(std::min(channelByte(p[0]), alpha), std::min(channelByte(p[1]), alpha),
                            std::min(channelByte(p[2]), alpha), alpha);
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
    const double halfHeight = mMapData->valueSize() > 1 ? 0.5 * imageRect.height() / (mMapData->valueSize() - 1) : 0.0;
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
