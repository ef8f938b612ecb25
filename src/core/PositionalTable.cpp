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
    // Room for one run of rows, handed to the sink one by one.
    const std::int64_t cols = std::max<std::int64_t>(0, block.cols);
    std::vector<float> rows(static_cast<std::size_t>(kRunRows * cols));
    forEachRowInto(
        block, false, [&](std::int64_t, std::int64_t r) { return rows.data() + r * cols; }, sink);
}

void PositionalTable::fill(const Block &block, BlockRef out, bool streaming) const
{
    forEachRowInto(
        block, streaming, [&](std::int64_t p, std::int64_t) { return out.row(p - block.row0).data(); },
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
// rotateAndStore() and this one give the same bits.
inline void rotate(double *s, double *c, const double *rotCos, const double *rotSin, std::int64_t n)
{
    for (std::int64_t k = 0; k < n; ++k) {
        const double sk = s[k];
        const double ck = c[k];
        s[k] = sk * rotCos[k] + ck * rotSin[k];
        c[k] = ck * rotCos[k] - sk * rotSin[k];
    }
}

#if defined(__AVX512F__)
// Groups x 8 pairs of the interleaved layout through `count` rows: round to float32, interleave
// sin and cos in one permute and store 16 * Groups floats to each row (streaming where
// stream[r]), rotating the double state to the next row in registers; `rotations` is
// count - 1, or count to leave the state past the last row. Each row receives whole cache
// lines in one burst, which keeps non-temporal stores to several rows at full speed.
template<int Groups>
void rotateAndStore(double *sines, double *cosines, const double *rotCos, const double *rotSin, float *const *rows,
                    const bool *stream, std::int64_t count, std::int64_t rotations)
{
    const __m512i interleave = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    __m512d sv[Groups], cv[Groups], rc[Groups], rs[Groups];
    for (int g = 0; g < Groups; ++g) {
        sv[g] = _mm512_loadu_pd(sines + 8 * g);
        cv[g] = _mm512_loadu_pd(cosines + 8 * g);
        rc[g] = _mm512_loadu_pd(rotCos + 8 * g);
        rs[g] = _mm512_loadu_pd(rotSin + 8 * g);
    }
    for (std::int64_t r = 0;; ++r) {
        for (int g = 0; g < Groups; ++g) {
            const __m512 values = _mm512_permutex2var_ps(_mm512_castps256_ps512(_mm512_cvtpd_ps(sv[g])), interleave,
                                                         _mm512_castps256_ps512(_mm512_cvtpd_ps(cv[g])));
            if (stream[r])
                _mm512_stream_ps(rows[r] + 16 * g, values);
            else
                _mm512_storeu_ps(rows[r] + 16 * g, values);
        }
        if (r == rotations)
            break;
        for (int g = 0; g < Groups; ++g) {
            const __m512d nextS = _mm512_add_pd(_mm512_mul_pd(sv[g], rc[g]), _mm512_mul_pd(cv[g], rs[g]));
            cv[g] = _mm512_sub_pd(_mm512_mul_pd(cv[g], rc[g]), _mm512_mul_pd(sv[g], rs[g]));
            sv[g] = nextS;
        }
        if (r + 1 == count)
            break; // advanced past the run's last row
    }
    if (rotations > 0) {
        for (int g = 0; g < Groups; ++g) {
            _mm512_storeu_pd(sines + 8 * g, sv[g]);
            _mm512_storeu_pd(cosines + 8 * g, cv[g]);
        }
    }
}
#endif

} // namespace

template<typename RunFn>
void PositionalTable::forEachExactRun(std::int64_t row0, std::int64_t rows, PairRange pairs, RunFn &&runFn) const
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
        // A run stays within one hop segment: its rows follow each other by one step.
        const std::int64_t count = std::min({kRunRows, end - p, kHopRows - p % kHopRows});
        const std::int64_t next = p + count;
        runFn(p, count, s.data(), c.data(), step, next != end && next % kHopRows != 0);
        if (next == end)
            break;
        p = next;
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

void PositionalTable::storeRows(double *sines, double *cosines, PairRange pairs, std::int64_t col0, std::int64_t cols,
                                float *const *dsts, std::int64_t count, bool streaming, const Rotation &step,
                                bool advancePast) const
{
    const std::int64_t end = col0 + cols;
    const std::int64_t pair0 = pairs.first;
    // The state of every pair outside [fusedBegin, fusedEnd) is written and advanced row by
    // row below; the vector loop does the pairs inside.
    std::int64_t fusedBegin = 0;
    std::int64_t fusedEnd = 0;
#if defined(__AVX512F__)
    if (m_layout == Layout::Interleaved) {
        const std::int64_t c = col0 + (col0 & 1);
        const std::int64_t k0 = c / 2 - pair0;
        const std::int64_t vectorPairs = (end - c) / 2 / 8 * 8;
        bool stream[kRunRows];
        for (std::int64_t r = 0; r < count; ++r)
            stream[r] = streaming && (reinterpret_cast<std::uintptr_t>(dsts[r] + (c - col0)) & 63u) == 0;
        const std::int64_t rotations = count - 1 + (advancePast ? 1 : 0);
        float *at[kRunRows];
        const auto place = [&](std::int64_t i) {
            for (std::int64_t r = 0; r < count; ++r)
                at[r] = dsts[r] + (c - col0) + 2 * i;
        };
        std::int64_t i = 0;
        for (; i + 32 <= vectorPairs; i += 32) {
            place(i);
            rotateAndStore<4>(sines + k0 + i, cosines + k0 + i, step.cos + k0 + i, step.sin + k0 + i, at, stream, count,
                              rotations);
        }
        for (; i < vectorPairs; i += 8) {
            place(i);
            rotateAndStore<1>(sines + k0 + i, cosines + k0 + i, step.cos + k0 + i, step.sin + k0 + i, at, stream, count,
                              rotations);
        }
        fusedBegin = k0;
        fusedEnd = k0 + vectorPairs;
    }
#else
    (void)streaming;
#endif
    const std::int64_t h = Frequencies::pairCount(m_dModel);
    // Columns [skipBegin, skipEnd) are the vector loop's (an empty range when it wrote none).
    const std::int64_t skipBegin = 2 * (pair0 + fusedBegin);
    const std::int64_t skipEnd = 2 * (pair0 + fusedEnd);
    for (std::int64_t r = 0; r < count; ++r) {
        float *dst = dsts[r] - col0;
        if (m_layout == Layout::Interleaved) {
            const auto put = [&](std::int64_t c) {
                const std::int64_t k = c / 2 - pair0;
                dst[c] = static_cast<float>((c & 1) ? cosines[k] : sines[k]);
            };
            for (std::int64_t c = col0; c < std::min(end, skipBegin); ++c)
                put(c);
            for (std::int64_t c = std::max(col0, skipEnd); c < end; ++c)
                put(c);
        } else {
            for (std::int64_t c = col0; c < std::min(end, h); ++c)
                dst[c] = static_cast<float>(sines[c - pair0]);
            for (std::int64_t c = std::max(col0, h); c < end; ++c)
                dst[c] = static_cast<float>(cosines[c - h - pair0]);
        }
        if (r + 1 < count || advancePast) {
            rotate(sines, cosines, step.cos, step.sin, fusedBegin);
            rotate(sines + fusedEnd, cosines + fusedEnd, step.cos + fusedEnd, step.sin + fusedEnd,
                   pairs.count - fusedEnd);
        }
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
        forEachExactRun(block.row0, block.rows, pairs,
                        [&](std::int64_t p, std::int64_t count, double *sines, double *cosines, const Rotation &step,
                            bool advancePast) {
                            float *dsts[kRunRows];
                            for (std::int64_t r = 0; r < count; ++r)
                                dsts[r] = destination(p + r, r);
                            storeRows(sines, cosines, pairs, block.col0, block.cols, dsts, count, streaming, step,
                                      advancePast);
                            for (std::int64_t r = 0; r < count; ++r)
                                done(p + r, static_cast<const float *>(dsts[r]));
                        });
        return;
    }
    for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
        float *dst = destination(p, 0);
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
    forEachExactRun(
        block.row0, block.rows, pairs,
        [&](std::int64_t p0, std::int64_t count, double *s, double *c, const Rotation &step, bool advancePast) {
            for (std::int64_t p = p0; p < p0 + count; ++p) {
                const Float32Angles angles {m_wFloat.data(), static_cast<float>(p)};
                for (std::int64_t col = 0; col < block.cols; ++col) {
                    const ColumnRole role = Frequencies::role(block.col0 + col, m_dModel, m_layout);
                    const double a = angles.angle(role.pair);
                    const double float32Value = static_cast<float>(role.isCos ? std::cos(a) : std::sin(a));
                    const double exact = role.isCos ? c[role.pair - pairs.first] : s[role.pair - pairs.first];
                    dst[col] = static_cast<float>(float32Value - exact);
                }
                if (p + 1 < p0 + count || advancePast)
                    rotate(s, c, step.cos, step.sin, pairs.count);
                sink(p, dst);
            }
        });
}

} // namespace posenc
