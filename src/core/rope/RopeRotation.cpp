#include "RopeRotation.h"

#include "core/StreamStore.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <vector>

namespace posenc {

RopeRotation::RopeRotation(const Params &params)
    : m_headDim(params.rope.headDim)
    , m_pairs(RopeFrequencies::pairs(params.rope))
    , m_layout(params.rope.layout)
    , m_kernel(2 * RopeFrequencies::pairs(params.rope), RopeFrequencies::schedule(params), Layout::Split, Angles::Exact)
{ }

RopeRotation::PairSpan RopeRotation::pairsOf(std::int64_t col0, std::int64_t colEnd) const
{
    const std::int64_t h = m_pairs;
    colEnd = std::min(colEnd, 2 * h);
    if (col0 >= colEnd)
        return {};
    if (m_layout == RopeLayout::Interleaved)
        return {col0 / 2, (colEnd - 1) / 2 + 1};
    // Half: column c holds pair c mod h; columns on both sides of h read pairs from 0 on.
    if (col0 < h && colEnd > h)
        return {0, h};
    return {col0 % h, (colEnd - 1) % h + 1};
}

void RopeRotation::fillTable(bool cosine, const Block &block, BlockRef out, bool streaming) const
{
    const PairSpan span = pairsOf(block.col0, block.colEnd());
    if (block.isEmpty() || span.end <= span.first)
        return;
    const std::int64_t h = m_pairs;
    const std::int64_t pairCount = span.end - span.first;
    // The kernel's sines are its columns [0, h), its cosines [h, 2h). A chunk of rows of the
    // pairs asked for is filled into this thread's buffer, which stays in the cache, then each
    // output row is written once from it (around the caches with `streaming`).
    const std::int64_t offset = cosine ? h : 0;
    const std::int64_t chunkRows = std::clamp<std::int64_t>(kChunkBytes / (4 * pairCount), 1, block.rows);
    thread_local RowMatrixXf t_chunk;
    if (t_chunk.rows() < chunkRows || t_chunk.cols() != pairCount)
        t_chunk.resize(chunkRows, pairCount);
    thread_local std::vector<float> t_row;
    t_row.resize(static_cast<std::size_t>(block.cols));
    const std::int64_t col0 = block.col0;
    const std::int64_t colEnd = block.colEnd();
    for (std::int64_t r0 = 0; r0 < block.rows; r0 += chunkRows) {
        const std::int64_t rows = std::min(chunkRows, block.rows - r0);
        m_kernel.fill({block.row0 + r0, rows, offset + span.first, pairCount}, t_chunk.topRows(rows));
        for (std::int64_t r = 0; r < rows; ++r) {
            const float *src = t_chunk.row(r).data() - span.first; // src[i]: pair i
            float *to = out.row(r0 + r).data();
            // Column c of the output holds pair c mod h (half) or c / 2 (interleaved).
            float *row = streaming ? t_row.data() : to;
            if (m_layout == RopeLayout::Half) {
                for (const std::int64_t base : {std::int64_t(0), h}) {
                    const std::int64_t c0 = std::max(col0, base + span.first);
                    const std::int64_t c1 = std::min(colEnd, base + span.end);
                    if (c0 < c1)
                        std::copy(src + (c0 - base), src + (c1 - base), row + (c0 - col0));
                }
            } else {
                for (std::int64_t c = col0; c < colEnd; ++c)
                    row[c - col0] = src[c / 2];
            }
            if (streaming)
                streamCopy(to, row, block.cols);
        }
    }
}

void RopeRotation::rotateRows(const Block &block, const float *x, std::int64_t xStride, BlockRef out) const
{
    if (block.isEmpty())
        return;
    const std::int64_t h = m_pairs;
    const std::int64_t rotary = 2 * h;
    const std::int64_t col0 = block.col0;
    const std::int64_t colEnd = block.colEnd();
    // The columns past the rotary dim pass through.
    if (colEnd > rotary) {
        const std::int64_t c0 = std::max(col0, rotary);
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const float *from = x + r * xStride;
            std::copy(from + c0, from + colEnd, out.row(r).data() + (c0 - col0));
        }
    }
    if (col0 >= rotary)
        return;
    // The pairs' sines arrive in one tile and their cosines in the next: the sines wait here.
    thread_local std::vector<float> t_sines;
    t_sines.resize(
        std::max(t_sines.size(),
                 static_cast<std::size_t>(PositionalTable::kRunRows * std::min(h, PositionalTable::kTilePairs))));
    float *sines = t_sines.data();
    const auto put = [&](float *row, std::int64_t c, double value) {
        if (c >= col0 && c < colEnd)
            row[c - col0] = static_cast<float>(value);
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
