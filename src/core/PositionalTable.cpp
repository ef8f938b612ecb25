#include "PositionalTable.h"

#include "Frequencies.h"

#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace posenc {

PositionalTable::PositionalTable(std::int64_t dModel, double base, Layout layout, Angles angles)
    : m_dModel(dModel)
    , m_layout(layout)
    , m_angles(angles)
{
    const std::int64_t pairs = Frequencies::pairCount(dModel);
    m_w.resize(pairs);
    m_stepCos.resize(pairs);
    m_stepSin.resize(pairs);
    m_hopCos.resize(pairs);
    m_hopSin.resize(pairs);
    m_wFloat.resize(pairs);
    for (std::int64_t i = 0; i < pairs; ++i) {
        const double w = Frequencies::angular(i, dModel, base);
        m_w[i] = w;
        m_stepCos[i] = std::cos(w);
        m_stepSin[i] = std::sin(w);
        m_hopCos[i] = std::cos(static_cast<double>(kHopRows) * w);
        m_hopSin[i] = std::sin(static_cast<double>(kHopRows) * w);
        m_wFloat[i] = static_cast<float>(w);
    }
}

void PositionalTable::forEachRow(const Block &block, const RowSink &sink) const
{
    std::vector<float> row(static_cast<std::size_t>(std::max<std::int64_t>(0, block.cols)));
    forEachRowInto(
        block, false, [&](std::int64_t) { return row.data(); }, sink);
}

void PositionalTable::fill(const Block &block, BlockRef out, bool streaming) const
{
    forEachRowInto(
        block, streaming, [&](std::int64_t p) { return out.row(p - block.row0).data(); },
        [](std::int64_t, const float *) {});
}

PositionalTable::PairRange PositionalTable::pairsFor(std::int64_t col0, std::int64_t cols) const
{
    const std::int64_t end = col0 + cols;
    if (m_layout == Layout::Interleaved)
        return {col0 / 2, (end - 1) / 2 - col0 / 2 + 1};
    const std::int64_t h = Frequencies::pairCount(m_dModel);
    std::int64_t first = h;
    std::int64_t last = 0; // one past
    if (col0 < h) {
        first = col0;
        last = std::min(end, h);
    }
    if (end > h) {
        first = std::min(first, std::max(col0, h) - h);
        last = std::max(last, end - h);
    }
    return {first, last - first};
}

namespace {

// One step of the recurrence: (sin, cos)(a + t) from (sin, cos)(a) and (cos t, sin t).
// Products and sums are rounded one by one (no contraction), so that the vector loop of
// storeRow() and this one give the same bits.
inline void rotate(double *s, double *c, const double *rotCos, const double *rotSin, std::int64_t n)
{
    for (std::int64_t k = 0; k < n; ++k) {
        const double sk = s[k];
        const double ck = c[k];
        s[k] = sk * rotCos[k] + ck * rotSin[k];
        c[k] = ck * rotCos[k] - sk * rotSin[k];
    }
}

} // namespace

template<typename RowFn>
void PositionalTable::forEachExactRow(std::int64_t row0, std::int64_t rows, PairRange pairs, RowFn &&rowFn) const
{
    const std::int64_t n = pairs.count;
    const double *w = m_w.data() + pairs.first;
    const double *stepCos = m_stepCos.data() + pairs.first;
    const double *stepSin = m_stepSin.data() + pairs.first;
    const double *hopCos = m_hopCos.data() + pairs.first;
    const double *hopSin = m_hopSin.data() + pairs.first;
    Eigen::ArrayXd hopS(n), hopC(n), s(n), c(n);

    // sin and cos of the exact product p * w: the double product plus its rounding error,
    // which fma gives exactly and which reaches ~1e-9 near p = 2^24.
    const auto anchor = [&](std::int64_t p) {
        const auto position = static_cast<double>(p);
        for (std::int64_t k = 0; k < n; ++k) {
            const double angle = position * w[k];
            const double rest = std::fma(position, w[k], -angle);
            const double s = std::sin(angle);
            const double c = std::cos(angle);
            hopS[k] = s + c * rest;
            hopC[k] = c - s * rest;
        }
    };

    std::int64_t p = row0;
    const std::int64_t end = row0 + rows;
    // The state at row0 is reached exactly as a whole-table pass reaches it: anchor, hops, steps.
    const std::int64_t anchorRow = p - p % kAnchorRows;
    anchor(anchorRow);
    for (std::int64_t q = anchorRow + kHopRows; q <= p - p % kHopRows; q += kHopRows)
        rotate(hopS.data(), hopC.data(), hopCos, hopSin, n);
    s = hopS;
    c = hopC;
    for (std::int64_t q = p - p % kHopRows; q < p; ++q)
        rotate(s.data(), c.data(), stepCos, stepSin, n);

    const Rotation step {stepCos, stepSin};
    for (;;) {
        const bool last = p + 1 == end;
        rowFn(p, s.data(), c.data(), !last && (p + 1) % kHopRows != 0 ? &step : nullptr);
        if (last)
            break;
        ++p;
        if (p % kAnchorRows == 0) {
            anchor(p);
            s = hopS;
            c = hopC;
        } else if (p % kHopRows == 0) {
            rotate(hopS.data(), hopC.data(), hopCos, hopSin, n);
            s = hopS;
            c = hopC;
        }
    }
}

void PositionalTable::storeRow(double *sines, double *cosines, PairRange pairs, std::int64_t col0, std::int64_t cols,
                               float *dst, bool streaming, const Rotation *step) const
{
    const std::int64_t end = col0 + cols;
    const std::int64_t pair0 = pairs.first;
    // Pairs [fusedBegin, fusedEnd) of the state are advanced by the vector loop; the rest after.
    std::int64_t fusedBegin = 0;
    std::int64_t fusedEnd = 0;
    if (m_layout == Layout::Interleaved) {
        std::int64_t c = col0;
        if (c < end && (c & 1)) {
            *dst++ = static_cast<float>(cosines[c / 2 - pair0]);
            ++c;
        }
        const std::int64_t k0 = c / 2 - pair0;
        const std::int64_t count = (end - c) / 2;
        std::int64_t i = 0;
#if defined(__AVX512F__)
        // Eight pairs at a time: round to float32, interleave sin and cos in one permute, store,
        // and rotate the double state to the next row while it is in registers.
        const __m512i interleave = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        const bool stream = streaming && (reinterpret_cast<std::uintptr_t>(dst) & 63u) == 0;
        for (; i + 8 <= count; i += 8) {
            double *s = sines + k0 + i;
            double *cs = cosines + k0 + i;
            const __m512d sv = _mm512_loadu_pd(s);
            const __m512d cv = _mm512_loadu_pd(cs);
            const __m512 values = _mm512_permutex2var_ps(_mm512_castps256_ps512(_mm512_cvtpd_ps(sv)), interleave,
                                                         _mm512_castps256_ps512(_mm512_cvtpd_ps(cv)));
            if (stream)
                _mm512_stream_ps(dst + 2 * i, values);
            else
                _mm512_storeu_ps(dst + 2 * i, values);
            if (step) {
                const __m512d rc = _mm512_loadu_pd(step->cos + k0 + i);
                const __m512d rs = _mm512_loadu_pd(step->sin + k0 + i);
                _mm512_storeu_pd(s, _mm512_add_pd(_mm512_mul_pd(sv, rc), _mm512_mul_pd(cv, rs)));
                _mm512_storeu_pd(cs, _mm512_sub_pd(_mm512_mul_pd(cv, rc), _mm512_mul_pd(sv, rs)));
            }
        }
        fusedBegin = k0;
        fusedEnd = k0 + i;
#endif
        for (; i < count; ++i) {
            dst[2 * i] = static_cast<float>(sines[k0 + i]);
            dst[2 * i + 1] = static_cast<float>(cosines[k0 + i]);
        }
        c += 2 * count;
        dst += 2 * count;
        if (c < end)
            *dst = static_cast<float>(sines[c / 2 - pair0]);
    } else {
        const std::int64_t h = Frequencies::pairCount(m_dModel);
        const std::int64_t sinEnd = std::min(end, h);
        for (std::int64_t c = col0; c < sinEnd; ++c)
            dst[c - col0] = static_cast<float>(sines[c - pair0]);
        for (std::int64_t c = std::max(col0, h); c < end; ++c)
            dst[c - col0] = static_cast<float>(cosines[c - h - pair0]);
    }
    if (step) {
        rotate(sines, cosines, step->cos, step->sin, fusedBegin);
        rotate(sines + fusedEnd, cosines + fusedEnd, step->cos + fusedEnd, step->sin + fusedEnd,
               pairs.count - fusedEnd);
    }
}

namespace {

// sin and cos of the float32 angle float(p) * float(w), the way float32 frameworks form it.
struct Float32Angles
{
    const float *wFloat;
    float position;

    double angle(std::int64_t pair) const { return static_cast<double>(position * wFloat[pair]); }
};

} // namespace

template<typename Destination, typename Done>
void PositionalTable::forEachRowInto(const Block &block, bool streaming, Destination &&destination, Done &&done) const
{
    if (block.isEmpty())
        return;
    if (m_angles == Angles::Exact) {
        const PairRange pairs = pairsFor(block.col0, block.cols);
        forEachExactRow(block.row0, block.rows, pairs,
                        [&](std::int64_t p, double *sines, double *cosines, const Rotation *step) {
                            float *dst = destination(p);
                            storeRow(sines, cosines, pairs, block.col0, block.cols, dst, streaming, step);
                            done(p, static_cast<const float *>(dst));
                        });
        return;
    }
    for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
        float *dst = destination(p);
        const Float32Angles angles {m_wFloat.data(), static_cast<float>(p)};
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const ColumnRole role = Frequencies::role(block.col0 + c, m_dModel, m_layout);
            const double a = angles.angle(role.pair);
            dst[c] = static_cast<float>(role.isCos ? std::cos(a) : std::sin(a));
        }
        done(p, static_cast<const float *>(dst));
    }
}

void PositionalTable::forEachErrorRow(const Block &block, const RowSink &sink) const
{
    if (block.isEmpty())
        return;
    const PairRange pairs = pairsFor(block.col0, block.cols);
    std::vector<float> row(static_cast<std::size_t>(block.cols));
    float *dst = row.data();
    forEachExactRow(block.row0, block.rows, pairs, [&](std::int64_t p, double *s, double *c, const Rotation *step) {
        const Float32Angles angles {m_wFloat.data(), static_cast<float>(p)};
        for (std::int64_t col = 0; col < block.cols; ++col) {
            const ColumnRole role = Frequencies::role(block.col0 + col, m_dModel, m_layout);
            const double a = angles.angle(role.pair);
            const double float32Value = static_cast<float>(role.isCos ? std::cos(a) : std::sin(a));
            const double exact = role.isCos ? c[role.pair - pairs.first] : s[role.pair - pairs.first];
            dst[col] = static_cast<float>(float32Value - exact);
        }
        if (step)
            rotate(s, c, step->cos, step->sin, pairs.count);
        sink(p, dst);
    });
}

} // namespace posenc
