#include "CoverageColorMap.h"

#include <QPaintEngine>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace posenc {

namespace {

// Whether QCPColorMapData's cells changed since its image was made: QCustomPlot keeps the mark
// protected; a pointer to the member, formed in a class derived from it, reads it.
struct ColorMapDataState : QCPColorMapData
{
    ColorMapDataState() = delete;
    static bool modified(const QCPColorMapData &data) { return data.*(&ColorMapDataState::mDataModified); }
    static void markDrawn(QCPColorMapData &data) { data.*(&ColorMapDataState::mDataModified) = false; }
    static const double *cells(const QCPColorMapData &data) { return data.*(&ColorMapDataState::mData); }
    static bool hasAlpha(const QCPColorMapData &data) { return data.*(&ColorMapDataState::mAlpha) != nullptr; }
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

// A pixel's four channels in the order of its bytes in memory, a lane each (GCC's and Clang's
// vector extension: SIMD where the target has it): the sums are each channel's own, every product
// and sum rounded as a float's is, in the weights' order.
using Lanes = float __attribute__((vector_size(16)));
using IntLanes = std::int32_t __attribute__((vector_size(16)));
using ByteLanes = std::uint8_t __attribute__((vector_size(4)));
// The lane of alpha: a QRgb is the 32-bit word 0xAARRGGBB.
constexpr int kAlphaLane = Q_BYTE_ORDER == Q_LITTLE_ENDIAN ? 3 : 0;

Lanes lanesOf(QRgb pixel)
{
#ifdef __SSE2__
    // The bytes widened to 16 and 32 bits, converted at once (a convertvector of bytes is four
    // scalar conversions); x86 is little-endian, as kAlphaLane assumes.
    const __m128i zero = _mm_setzero_si128();
    const __m128i bytes = _mm_cvtsi32_si128(static_cast<int>(pixel));
    return Lanes(_mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero)));
#else
    ByteLanes bytes;
    std::memcpy(&bytes, &pixel, sizeof bytes);
    return __builtin_convertvector(bytes, Lanes);
#endif
}

// Each channel's sum rounded to the nearest byte, half up (of a sum of non-negative terms:
// floor(v + 0.5), as std::lround rounds it), within [0, 255]; premultiplied, no channel above its
// alpha, whatever the rounding.
QRgb pixelOf(Lanes sum)
{
    const IntLanes whole = __builtin_convertvector(sum, IntLanes); // towards zero
    const Lanes fraction = sum - __builtin_convertvector(whole, Lanes); // exact
    IntLanes rounded = whole - (fraction >= 0.5f); // a comparison that holds is -1
    rounded = rounded < 0 ? IntLanes {} : rounded;
    rounded = rounded > 255 ? IntLanes {} + 255 : rounded;
    const std::int32_t alpha = rounded[kAlphaLane];
    rounded = rounded > alpha ? IntLanes {} + alpha : rounded;
#ifdef __SSE2__
    // Lanes within [0, 255] packed to bytes by two saturating packs, which leave them as they are.
    const __m128i words = _mm_packs_epi32(__m128i(rounded), __m128i(rounded));
    return static_cast<QRgb>(_mm_cvtsi128_si32(_mm_packus_epi16(words, words)));
#else
    const ByteLanes bytes = __builtin_convertvector(rounded, ByteLanes);
    QRgb pixel;
    std::memcpy(&pixel, &bytes, sizeof pixel);
    return pixel;
#endif
}

#ifdef __SSE2__
// Four pixels at once, each as pixelOf makes it: the lanes rounded alike, then packed with
// saturation (to [0, 255], as pixelOf's clamps) and each colour byte held at most its pixel's alpha
// byte (an unsigned byte minimum against the alpha repeated over the pixel's bytes).
void storeFour(QRgb *out, Lanes a, Lanes b, Lanes c, Lanes d)
{
    const auto rounded = [](Lanes sum) {
        const __m128i whole = _mm_cvttps_epi32(__m128(sum)); // towards zero
        const __m128 fraction = _mm_sub_ps(__m128(sum), _mm_cvtepi32_ps(whole)); // exact
        return _mm_sub_epi32(whole, _mm_castps_si128(_mm_cmpge_ps(fraction, _mm_set1_ps(0.5f))));
    };
    const __m128i bytes
        = _mm_packus_epi16(_mm_packs_epi32(rounded(a), rounded(b)), _mm_packs_epi32(rounded(c), rounded(d)));
    __m128i alpha = _mm_srli_epi32(bytes, 24);
    alpha = _mm_or_si128(alpha, _mm_slli_epi32(alpha, 8));
    alpha = _mm_or_si128(alpha, _mm_slli_epi32(alpha, 16));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), _mm_min_epu8(bytes, alpha));
}
#endif

// Whether two rectangles are the same to the bit (QRectF's == is fuzzy).
bool sameRect(const QRectF &a, const QRectF &b)
{
    return a.x() == b.x() && a.y() == b.y() && a.width() == b.width() && a.height() == b.height();
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
    // Source pixels that fall on device pixels one for one (a grid computed for the panel's own
    // pixels, VisibleCells): each device pixel is its one source pixel, weight 1, which the sums
    // below give back unchanged (a premultiplied byte times 1, rounded), so it is copied.
    if (target.width() == w && target.height() == h && target.left() == std::round(target.left())
        && target.top() == std::round(target.top())) {
        const QPoint corner(static_cast<int>(target.left()), static_cast<int>(target.top()));
        return premultiplied.copy(touched.translated(-corner));
    }
    const CoverageWeights across = axisWeights(target.left(), target.right(), w, touched.left(), touched.right() + 1);
    const CoverageWeights down = axisWeights(target.top(), target.bottom(), h, touched.top(), touched.bottom() + 1);
    // Separably: each source row's pixels summed into the device's columns, then the rows. A
    // device row's source rows are consecutive and follow the last's: the sums of those of one
    // device row are kept, source row r in slot r mod (the most one device row reads).
    const int outW = touched.width();
    const auto width = static_cast<std::size_t>(outW);
    std::vector<Lanes> unpacked(static_cast<std::size_t>(w));
    // The source columns some device column reads (a zoom leaves most outside the clip).
    const std::pair<int, int> usedColumns
        = across.source.empty() ? std::pair {0, 0} : std::pair {across.source.front(), across.source.back() + 1};
    int kept = 1;
    for (std::size_t y = 0; y + 1 < down.start.size(); ++y)
        kept = std::max(kept, down.start[y + 1] - down.start[y]);
    std::vector<Lanes> summed(static_cast<std::size_t>(kept) * width);
    std::vector<int> held(static_cast<std::size_t>(kept), -1);
    const auto acrossRow = [&](int row) -> const Lanes * {
        const auto slot = static_cast<std::size_t>(row % kept);
        Lanes *out = summed.data() + slot * width;
        if (held[slot] == row)
            return out;
        held[slot] = row;
        const auto *line = reinterpret_cast<const QRgb *>(premultiplied.constScanLine(row));
        for (int col = usedColumns.first; col < usedColumns.second; ++col)
            unpacked[std::size_t(col)] = lanesOf(line[col]);
        for (std::size_t x = 0; x < width; ++x) {
            Lanes p {};
            for (int j = across.start[x]; j < across.start[x + 1]; ++j)
                p += across.weight[std::size_t(j)] * unpacked[std::size_t(across.source[std::size_t(j)])];
            out[x] = p;
        }
        return out;
    };
    QImage image(outW, touched.height(), QImage::Format_ARGB32_Premultiplied);
    std::vector<const Lanes *> rows(static_cast<std::size_t>(kept));
    for (int y = 0; y < touched.height(); ++y) {
        // The device row's source rows summed into each pixel, 0 + w0 r0 + w1 r1 + ... in the
        // weights' order, and rounded as each pixel is summed: no row of sums written and read again.
        const int first = down.start[std::size_t(y)];
        const int count = down.start[std::size_t(y) + 1] - first;
        for (int k = 0; k < count; ++k)
            rows[std::size_t(k)] = acrossRow(down.source[std::size_t(first + k)]);
        const float *weights = down.weight.data() + first;
        const auto sumAt = [&](std::size_t x) {
            Lanes p {};
            for (int k = 0; k < count; ++k)
                p += weights[k] * rows[std::size_t(k)][x];
            return p;
        };
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        std::size_t x = 0;
#ifdef __SSE2__
        for (; x + 4 <= width; x += 4)
            storeFour(line + x, sumAt(x), sumAt(x + 1), sumAt(x + 2), sumAt(x + 3));
#endif
        for (; x < width; ++x)
            line[x] = pixelOf(sumAt(x));
    }
    return image;
}

QImage CoverageColorMap::mapImage(const double *values, int keys, int rows, QCPColorGradient gradient,
                                  const QCPRange &range, bool logarithmic)
{
    if (keys <= 0 || rows <= 0)
        return {};
    // QCPColorMap::updateMapImage: each value row coloured into the image's line counted from the
    // bottom, then the image repeated int(1 + 100 / size) times each way (FastTransformation).
    const QImage::Format format = QImage::Format_ARGB32_Premultiplied;
    const int keyFactor = int(1.0 + 100.0 / double(keys));
    const int rowFactor = int(1.0 + 100.0 / double(rows));
    QImage image(QSize(keys, rows), format);
    if (image.isNull())
        return {};
    for (int line = 0; line < rows; ++line) {
        auto *pixels = reinterpret_cast<QRgb *>(image.scanLine(rows - 1 - line));
        gradient.colorize(values + static_cast<std::ptrdiff_t>(line) * keys, range, pixels, keys, 1, logarithmic);
    }
    if (keyFactor > 1 || rowFactor > 1)
        return image.scaled(keys * keyFactor, rows * rowFactor, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    return image;
}

quint64 CoverageColorMap::s_computed = 0;
quint64 CoverageColorMap::s_adopted = 0;
quint64 CoverageColorMap::s_adoptedMaps = 0;
quint64 CoverageColorMap::s_colouredMaps = 0;

void CoverageColorMap::setDataPending(bool pending)
{
    m_pending = pending;
}

quint64 CoverageColorMap::computedImages()
{
    return s_computed;
}

quint64 CoverageColorMap::colouredMapImages()
{
    return s_colouredMaps;
}

quint64 CoverageColorMap::adoptedMapImages()
{
    return s_adoptedMaps;
}

quint64 CoverageColorMap::adoptedImages()
{
    return s_adopted;
}

bool CoverageColorMap::adoptOfferedImage()
{
    const PreparedCoverage *offered = m_offered.get();
    // updateMapImage's inputs, each: the cells bit for bit (NaN where no number, as both write it).
    if (!offered || offered->source.isNull() || ColorMapDataState::hasAlpha(*mMapData)
        || offered->keys != mMapData->keySize() || offered->rows != mMapData->valueSize()
        || offered->cells.size() != static_cast<std::size_t>(offered->keys) * static_cast<std::size_t>(offered->rows)
        || offered->gradient != mGradient || offered->range != mDataRange
        || offered->logarithmic != (mDataScaleType == QCPAxis::stLogarithmic)
        || std::memcmp(offered->cells.data(), ColorMapDataState::cells(*mMapData),
                       offered->cells.size() * sizeof(double))
            != 0)
        return false;
    mMapImage = offered->source;
    mMapImageInvalidated = false;
    ++s_adoptedMaps;
    ColorMapDataState::markDrawn(*mMapData);
    return true;
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
    if ((ColorMapDataState::modified(*mMapData) || mMapImageInvalidated) && !adoptOfferedImage()) {
        updateMapImage();
        ++s_colouredMaps;
    }
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
    const bool sameCells = !m_drawn.image.isNull() && m_drawn.source == mMapImage.cacheKey()
        && m_drawn.keyReversed == keyReversed && m_drawn.valueReversed == valueReversed;
    if (!sameCells)
        m_pending = false; // the data asked for has come
    // Cells about to be replaced, drawn where the view has moved them: the last image stretched from
    // its target to the new one, in the window only (an export computes its own coverage).
    const bool exporting = painter->modes() & (QCPPainter::pmVectorized | QCPPainter::pmNoCaching);
    if (sameCells && m_pending && !exporting && (m_drawn.target != target || m_drawn.clip != clip)
        && !m_drawn.target.isEmpty()) {
        const double sx = target.width() / m_drawn.target.width(), sy = target.height() / m_drawn.target.height();
        const QRectF last(m_drawn.origin, m_drawn.image.size());
        const QRectF moved(target.left() + (last.left() - m_drawn.target.left()) * sx,
                           target.top() + (last.top() - m_drawn.target.top()) * sy, last.width() * sx,
                           last.height() * sy);
        painter->save();
        painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
        painter->drawImage(toDevice.inverted().mapRect(moved), m_drawn.image);
        painter->restore();
        return;
    }
    bool stale = !sameCells || m_drawn.target != target || m_drawn.clip != clip;
    if (stale) {
        // The worker's coverage, where it was made of this image for this target and clip: the
        // same function of the same inputs, so the same pixels (tst_preparedcoverage).
        const std::shared_ptr<const PreparedCoverage> offered = std::exchange(m_offered, nullptr);
        if (offered && !exporting && offered->keyReversed == keyReversed && offered->valueReversed == valueReversed
            && sameRect(offered->target, target) && offered->clip == clip && offered->source == mMapImage) {
            m_drawn = {mMapImage.cacheKey(), keyReversed, valueReversed, target, clip, offered->image, offered->origin};
            ++s_adopted;
            stale = false;
        }
    }
    if (stale) {
        const QImage source = mMapImage.mirrored(keyReversed, valueReversed);
        QPoint origin;
        QImage image = coverage(source, target, clip, &origin);
        m_drawn = {mMapImage.cacheKey(), keyReversed, valueReversed, target, clip, std::move(image), origin};
        ++s_computed;
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
