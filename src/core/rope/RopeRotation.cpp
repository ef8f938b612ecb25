#include "RopeRotation.h"

#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <vector>

namespace posenc {

RopeRotation::RopeRotation(const Params &params)
    : RopeRotation(params, RopeFrequencies::schedule(params))
{ }

RopeRotation::RopeRotation(const Params &params, const FrequencySchedule &schedule)
    : m_headDim(params.rope.headDim)
    , m_pairs(RopeFrequencies::pairs(params.rope))
    , m_layout(params.rope.layout)
    , m_first(params.rope.place == RotaryPlace::Suffix ? m_headDim - 2 * m_pairs : 0)
    , m_kernel(2 * m_pairs, schedule, Layout::Split, Angles::Exact)
    , m_tables(2 * m_pairs, schedule, m_layout == RopeLayout::Half ? Layout::Split : Layout::Interleaved, Angles::Exact)
{ }

void RopeRotation::fillTable(bool cosine, const Block &block, BlockRef out, bool streaming) const
{
    // Half's columns c and h + c, and interleaved's 2i and 2i + 1, hold the same value of a pair.
    m_tables.fillValues(block, out, cosine ? PairValues::Cosines : PairValues::Sines, streaming);
}

void RopeRotation::rotateRows(const Block &block, const float *x, std::int64_t xStride, BlockRef out) const
{
    if (block.isEmpty())
        return;
    const std::int64_t h = m_pairs;
    const std::int64_t rotary = 2 * h;
    const std::int64_t col0 = block.col0;
    const std::int64_t colEnd = block.colEnd();
    // The columns outside the rotary ones, [first, first + rotary), pass through.
    const std::int64_t first = m_first;
    const auto passThrough = [&](std::int64_t from, std::int64_t to) {
        const std::int64_t c0 = std::max(col0, from), c1 = std::min(colEnd, to);
        for (std::int64_t r = 0; c0 < c1 && r < block.rows; ++r)
            std::copy(x + r * xStride + c0, x + r * xStride + c1, out.row(r).data() + (c0 - col0));
    };
    passThrough(0, first);
    passThrough(first + rotary, m_headDim);
    if (col0 >= first + rotary || colEnd <= first)
        return;
    // From here, x and the columns written are those of the rotary part.
    x += first;
    // The pairs' sines arrive in one tile and their cosines in the next: the sines wait here.
    thread_local std::vector<float> t_sines;
    t_sines.resize(
        std::max(t_sines.size(),
                 static_cast<std::size_t>(PositionalTable::kRunRows * std::min(h, PositionalTable::kTilePairs))));
    float *sines = t_sines.data();
    const auto put = [&](float *row, std::int64_t c, double value) {
        if (c + first >= col0 && c + first < colEnd)
            row[c + first - col0] = static_cast<float>(value);
    };
    m_kernel.forEachTile({block.row0, block.rows, 0, rotary}, [&](const PositionalTable::Tile &tile) {
        if (tile.col0 < h) {
            for (std::int64_t r = 0; r < tile.rows; ++r)
                std::copy(tile.values + r * tile.stride, tile.values + r * tile.stride + tile.cols,
                          sines + r * tile.cols);
            return;
        }
        const std::int64_t t0 = tile.col0 - h;
        for (std::int64_t r = 0; r < tile.rows; ++r) {
            const std::int64_t row = tile.row0 + r - block.row0;
            const float *in = x + row * xStride;
            const float *cosRow = tile.values + r * tile.stride;
            const float *sinRow = sines + r * tile.cols;
            float *dst = out.row(row).data();
            for (std::int64_t k = 0; k < tile.cols; ++k) {
                const std::int64_t i = t0 + k;
                // x1, x2: the pair's columns, i and h + i (rotate_half) or 2i and 2i + 1 (GPT-J).
                const std::int64_t a = m_layout == RopeLayout::Half ? i : 2 * i;
                const std::int64_t b = m_layout == RopeLayout::Half ? h + i : 2 * i + 1;
                const double c = cosRow[k];
                const double s = sinRow[k];
                const double x1 = in[a];
                const double x2 = in[b];
                put(dst, a, x1 * c - x2 * s);
                put(dst, b, x2 * c + x1 * s);
            }
        }
    });
}

} // namespace posenc
