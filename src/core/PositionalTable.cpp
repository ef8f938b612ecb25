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
    if (block.isEmpty())
        return;
    if (m_angles == Angles::Exact)
        forEachExact(block, sink);
    else
        forEachFloat32(block, sink);
}

void PositionalTable::fill(const Block &block, BlockRef out) const
{
    forEachRow(block, [&](std::int64_t p, const float *values) {
        std::copy(values, values + block.cols, out.row(p - block.row0).data());
    });
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

    for (;;) {
        rowFn(p, s, c);
        if (++p == end)
            break;
        if (p % kAnchorRows == 0) {
            anchor(p);
            s = hopS;
            c = hopC;
        } else if (p % kHopRows == 0) {
            rotate(hopS.data(), hopC.data(), hopCos, hopSin, n);
            s = hopS;
            c = hopC;
        } else {
            rotate(s.data(), c.data(), stepCos, stepSin, n);
        }
    }
}

template<typename Source>
void PositionalTable::storeRow(const Source &sinOf, const Source &cosOf, std::int64_t pair0, std::int64_t col0,
                               std::int64_t cols, float *dst) const
{
    const std::int64_t end = col0 + cols;
    if (m_layout == Layout::Interleaved) {
        std::int64_t c = col0;
        if (c < end && (c & 1)) {
            *dst++ = static_cast<float>(cosOf[c / 2 - pair0]);
            ++c;
        }
        const std::int64_t k0 = c / 2 - pair0;
        const std::int64_t pairs = (end - c) / 2;
        std::int64_t i = 0;
#if defined(__AVX512F__)
        // Eight pairs at a time: round to float32, then interleave sin and cos in one permute.
        const __m512i interleave = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        for (; i + 8 <= pairs; i += 8) {
            const __m512 sines = _mm512_castps256_ps512(_mm512_cvtpd_ps(_mm512_loadu_pd(&sinOf[k0 + i])));
            const __m512 cosines = _mm512_castps256_ps512(_mm512_cvtpd_ps(_mm512_loadu_pd(&cosOf[k0 + i])));
            _mm512_storeu_ps(dst + 2 * i, _mm512_permutex2var_ps(sines, interleave, cosines));
        }
#endif
        for (; i < pairs; ++i) {
            dst[2 * i] = static_cast<float>(sinOf[k0 + i]);
            dst[2 * i + 1] = static_cast<float>(cosOf[k0 + i]);
        }
        c += 2 * pairs;
        dst += 2 * pairs;
        if (c < end)
            *dst = static_cast<float>(sinOf[c / 2 - pair0]);
        return;
    }
    const std::int64_t h = Frequencies::pairCount(m_dModel);
    const std::int64_t sinEnd = std::min(end, h);
    for (std::int64_t c = col0; c < sinEnd; ++c)
        dst[c - col0] = static_cast<float>(sinOf[c - pair0]);
    for (std::int64_t c = std::max(col0, h); c < end; ++c)
        dst[c - col0] = static_cast<float>(cosOf[c - h - pair0]);
}

void PositionalTable::forEachExact(const Block &block, const RowSink &sink) const
{
    const PairRange pairs = pairsFor(block.col0, block.cols);
    std::vector<float> row(static_cast<std::size_t>(block.cols));
    forEachExactRow(block.row0, block.rows, pairs,
                    [&](std::int64_t p, const Eigen::ArrayXd &s, const Eigen::ArrayXd &c) {
                        storeRow(s, c, pairs.first, block.col0, block.cols, row.data());
                        sink(p, row.data());
                    });
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

void PositionalTable::forEachFloat32(const Block &block, const RowSink &sink) const
{
    std::vector<float> row(static_cast<std::size_t>(block.cols));
    float *dst = row.data();
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const std::int64_t p = block.row0 + r;
        const Float32Angles angles {m_wFloat.data(), static_cast<float>(p)};
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const ColumnRole role = Frequencies::role(block.col0 + c, m_dModel, m_layout);
            const double a = angles.angle(role.pair);
            dst[c] = static_cast<float>(role.isCos ? std::cos(a) : std::sin(a));
        }
        sink(p, dst);
    }
}

void PositionalTable::forEachErrorRow(const Block &block, const RowSink &sink) const
{
    if (block.isEmpty())
        return;
    const PairRange pairs = pairsFor(block.col0, block.cols);
    std::vector<float> row(static_cast<std::size_t>(block.cols));
    float *dst = row.data();
    forEachExactRow(block.row0, block.rows, pairs,
                    [&](std::int64_t p, const Eigen::ArrayXd &s, const Eigen::ArrayXd &c) {
                        const Float32Angles angles {m_wFloat.data(), static_cast<float>(p)};
                        for (std::int64_t col = 0; col < block.cols; ++col) {
                            const ColumnRole role = Frequencies::role(block.col0 + col, m_dModel, m_layout);
                            const double a = angles.angle(role.pair);
                            const double float32Value = static_cast<float>(role.isCos ? std::cos(a) : std::sin(a));
                            const double exact = role.isCos ? c[role.pair - pairs.first] : s[role.pair - pairs.first];
                            dst[col] = static_cast<float>(float32Value - exact);
                        }
                        sink(p, dst);
                    });
}

} // namespace posenc
