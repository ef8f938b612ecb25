#include "EmbeddingMoments.h"

#include "core/Embeddings.h"
#include "core/ThreadPools.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <vector>

namespace posenc::EmbeddingMoments {

namespace {

// A tile of the base table filled at once. Its rows are fixed, so that each column's moments
// come out the same whatever columns are measured with it; its columns are bounded, so that a
// tile stays in the cache at any d.
constexpr std::int64_t kTileRows = 64;
constexpr std::int64_t kTileColumns = 4096;
constexpr std::int64_t kMinBlockRows = 256;
// Row squares held per slab of rows, one per column tile and row.
constexpr std::int64_t kSlabEntries = std::int64_t(1) << 20;
// Blocks times columns kept: 2^21 (32 MiB of moments) when the blocks are chosen; a request that
// would need more than twice that starts again with larger blocks.
constexpr std::int64_t kKeptEntries = std::int64_t(1) << 21;

// Per column the mean and the sum of squared deviations over `n` rows, and per row the sum of
// squares, of a region of the base table.
struct Moments
{
    std::int64_t n = 0;
    Eigen::ArrayXd mean;
    Eigen::ArrayXd m2;
    Eigen::ArrayXd rowSquares;
};

// Chan et al.'s update: the moments of the union of two sets of rows over the same columns.
// The row squares stay with their rows.
void merge(Moments &into, const Moments &part)
{
    if (part.n == 0)
        return;
    if (into.n == 0) {
        into.n = part.n;
        into.mean = part.mean;
        into.m2 = part.m2;
        return;
    }
    const double na = static_cast<double>(into.n), nb = static_cast<double>(part.n);
    const Eigen::ArrayXd delta = part.mean - into.mean;
    into.mean += delta * (nb / (na + nb));
    into.m2 += part.m2 + delta.square() * (na * nb / (na + nb));
    into.n += part.n;
}

// The moments of one tile's columns, [c0, c0 + w) of the region, over its rows [r, r + n) after
// the region's first r rows: Chan et al.'s update of `mean` and `m2` (those columns' segments),
// and each row's sum of squares added to rowSquares[r + i]. The tile is shifted by its first row
// before it is summed, so that the squares do not cancel whatever a column's offset.
void measureTile(const Embeddings &base, const Block &tile, std::int64_t r, Eigen::Ref<Eigen::ArrayXd> mean,
                 Eigen::Ref<Eigen::ArrayXd> m2, double *rowSquares)
{
    thread_local RowMatrixXf t_values;
    thread_local Eigen::ArrayXd t_s1, t_s2, t_row;
    const std::int64_t n = tile.rows;
    const std::int64_t w = tile.cols;
    t_values.resize(n, w);
    base.fill(tile, t_values);
    const Eigen::ArrayXd shift = t_values.row(0).transpose().cast<double>().array();
    t_s1.setZero(w);
    t_s2.setZero(w);
    t_row.resize(w);
    double *sum = t_s1.data();
    double *squares = t_s2.data();
    const double *k = shift.data();
    double *wide = t_row.data();
    for (std::int64_t i = 0; i < n; ++i) {
        const float *narrow = t_values.row(i).data();
        for (std::int64_t c = 0; c < w; ++c) {
            wide[c] = static_cast<double>(narrow[c]);
            const double deviation = wide[c] - k[c];
            sum[c] += deviation;
            squares[c] += deviation * deviation;
        }
        // Summed apart, in packets: a running sum in the loop above would not vectorise.
        rowSquares[i] += t_row.square().sum();
    }
    const double na = static_cast<double>(r), nb = static_cast<double>(n);
    const Eigen::ArrayXd tileMean = shift + t_s1 / nb;
    const Eigen::ArrayXd tileM2 = t_s2 - t_s1.square() / nb;
    const Eigen::ArrayXd delta = tileMean - mean;
    mean += delta * (nb / (na + nb));
    m2 += tileM2 + delta.square() * (na * nb / (na + nb));
}

// Rows [row0, row0 + rows) and columns [col0, col1) of the base table, on `threads` threads:
// slabs of rows in order, each slab's column tiles in parallel (a column's moments are its own,
// and each row's squares are added tile by tile in column order), so that the numbers are the
// same whatever the threads. Nothing when cancelled.
std::optional<Moments> measure(const Embeddings &base, std::int64_t row0, std::int64_t rows, std::int64_t col0,
                               std::int64_t col1, const ComputeOptions &options)
{
    const std::int64_t cols = col1 - col0;
    const std::int64_t colTiles = (cols + kTileColumns - 1) / kTileColumns;
    Moments total;
    total.mean = Eigen::ArrayXd::Zero(cols);
    total.m2 = Eigen::ArrayXd::Zero(cols);
    total.rowSquares = Eigen::ArrayXd::Zero(rows);
    // Each column tile's squares of a slab's rows, summed in column order after the slab.
    const std::int64_t slabRows
        = std::max<std::int64_t>(kTileRows, kSlabEntries / std::max<std::int64_t>(colTiles, 1)) / kTileRows * kTileRows;
    RowMatrixXd squares;
    for (std::int64_t s0 = 0; s0 < rows; s0 += slabRows) {
        const std::int64_t slab = std::min(slabRows, rows - s0);
        squares.setZero(colTiles, slab);
        const bool done = forEachTile(colTiles, options.threads, options.cancel, [&](std::int64_t t) {
            const std::int64_t c0 = t * kTileColumns;
            const std::int64_t w = std::min(kTileColumns, cols - c0);
            for (std::int64_t r = s0; r < s0 + slab; r += kTileRows) {
                if (options.cancel && options.cancel->load(std::memory_order_relaxed))
                    return;
                const std::int64_t n = std::min(kTileRows, s0 + slab - r);
                measureTile(base, {row0 + r, n, col0 + c0, w}, r, total.mean.segment(c0, w), total.m2.segment(c0, w),
                            squares.row(t).data() + (r - s0));
            }
        });
        if (!done || (options.cancel && options.cancel->load()))
            return std::nullopt;
        for (std::int64_t t = 0; t < colTiles; ++t)
            total.rowSquares.segment(s0, slab) += squares.row(t).transpose().array();
    }
    total.n = rows;
    return total;
}

// The base table of `params`: the loaded matrix, or the seeded cells with sigma 1. Its
// identity is the matrix, or the seed and the cells' law.
struct Source
{
    std::weak_ptr<const EmbeddingMatrix> matrix;
    bool loaded = false; // a matrix, even once released: never the seeded normals
    std::uint64_t seed = 0;
    CellLaw law = CellLaw::Normal;

    bool is(const Params &params) const
    {
        if (params.embeddings)
            return loaded && matrix.lock() == params.embeddings;
        return !loaded && seed == params.seed && law == params.cellLaw();
    }
};

// A block of rows of the base table: its columns [0, cols) measured.
struct KeptBlock
{
    std::int64_t cols = 0;
    Moments moments;
};

struct Kept
{
    Source source;
    std::int64_t blockRows = 0;
    std::vector<std::shared_ptr<const KeptBlock>> blocks; // by index; empty where not measured
};

std::mutex g_mutex;
Kept g_kept;

std::int64_t blockRowsFor(std::int64_t rows, std::int64_t cols)
{
    std::int64_t blockRows = kMinBlockRows;
    while ((rows + blockRows - 1) / blockRows * cols > kKeptEntries)
        blockRows *= 2;
    return blockRows;
}

// What is kept for `params`, started again when it is another table or would grow too large.
Kept keptFor(const Params &params, std::int64_t cols)
{
    const std::lock_guard lock(g_mutex);
    const std::int64_t L = params.maxLen;
    if (!g_kept.source.is(params) || g_kept.blockRows == 0
        || (L + g_kept.blockRows - 1) / g_kept.blockRows * cols > 2 * kKeptEntries) {
        g_kept = {};
        g_kept.source.matrix = params.embeddings;
        g_kept.source.loaded = params.embeddings != nullptr;
        g_kept.source.seed = params.seed;
        g_kept.source.law = params.cellLaw();
        g_kept.blockRows = blockRowsFor(L, cols);
    }
    return g_kept;
}

void keep(const Params &params, std::int64_t blockRows, std::size_t index, std::shared_ptr<const KeptBlock> block)
{
    const std::lock_guard lock(g_mutex);
    if (!g_kept.source.is(params) || g_kept.blockRows != blockRows)
        return;
    if (g_kept.blocks.size() <= index)
        g_kept.blocks.resize(index + 1);
    if (!g_kept.blocks[index] || g_kept.blocks[index]->cols < block->cols)
        g_kept.blocks[index] = std::move(block);
}

// One piece of work: rows [row0, row0 + rows) of block `index`, over columns [0, cols).
struct Work
{
    std::int64_t row0 = 0;
    std::int64_t rows = 0;
    std::size_t index = 0;
    // Taken from the whole block, kept or measured whole and kept: a whole block, or a last one
    // short of a few rows (those are measured and taken off).
    bool fromWhole = false;
    std::shared_ptr<const KeptBlock> kept; // the whole block as kept, may be empty
    // Results: the whole block to keep, if it grew, and the moments of the rows over [0, cols).
    std::shared_ptr<const KeptBlock> grown;
    Moments moments;
};

// The whole block `block` (may be empty) grown to at least `cols` columns: those not measured
// yet are appended to those that are.
std::shared_ptr<const KeptBlock> grow(const Embeddings &base, std::int64_t row0, std::int64_t rows,
                                      std::shared_ptr<const KeptBlock> block, std::int64_t cols,
                                      const ComputeOptions &options)
{
    const std::int64_t from = block ? block->cols : 0;
    const auto added = measure(base, row0, rows, from, cols, options);
    if (!added)
        return nullptr;
    auto grown = std::make_shared<KeptBlock>();
    grown->cols = cols;
    Moments &m = grown->moments;
    m.n = rows;
    m.mean.resize(cols);
    m.m2.resize(cols);
    m.rowSquares = added->rowSquares;
    if (block) {
        m.mean.head(from) = block->moments.mean;
        m.m2.head(from) = block->moments.m2;
        m.rowSquares += block->moments.rowSquares;
    }
    m.mean.tail(cols - from) = added->mean;
    m.m2.tail(cols - from) = added->m2;
    return grown;
}

// The moments of `whole` without those of its last rows, `part`: Chan's update run backwards.
void takeOff(Moments &whole, const Moments &part)
{
    const double n = static_cast<double>(whole.n), nb = static_cast<double>(part.n), na = n - nb;
    const Eigen::ArrayXd mean = (whole.mean * n - part.mean * nb) / na;
    const Eigen::ArrayXd delta = part.mean - mean;
    whole.m2 = (whole.m2 - part.m2 - delta.square() * (na * nb / n)).max(0.0);
    whole.mean = mean;
    whole.n = whole.n - part.n;
}

// Does `work` (a whole block measured to `keptColumns` columns when it grows); leaves it
// incomplete when cancelled.
void run(const Embeddings &base, std::int64_t blockRows, std::int64_t cols, std::int64_t keptColumns, bool norms,
         Work &work, const ComputeOptions &options)
{
    if (!work.fromWhole) {
        if (auto fresh = measure(base, work.row0, work.rows, 0, cols, options))
            work.moments = std::move(*fresh);
        return;
    }
    std::shared_ptr<const KeptBlock> block = work.kept;
    if (!block || block->cols < cols) {
        block = grow(base, work.row0, blockRows, block, keptColumns, options);
        if (!block)
            return;
        work.grown = block;
    }
    Moments &m = work.moments;
    m.n = blockRows;
    m.mean = block->moments.mean.head(cols);
    m.m2 = block->moments.m2.head(cols);
    if (norms) {
        m.rowSquares = block->moments.rowSquares.head(work.rows);
        if (block->cols > cols) {
            // Kept over more columns than asked for: the squares of the others come off.
            const auto extra = measure(base, work.row0, work.rows, cols, block->cols, options);
            if (!extra)
                return;
            m.rowSquares -= extra->rowSquares;
        }
    }
    if (work.rows < blockRows) {
        const auto last = measure(base, work.row0 + work.rows, blockRows - work.rows, 0, cols, options);
        if (!last)
            return;
        takeOff(m, *last);
    }
}

} // namespace

std::optional<Result> compute(const Engine &engine, std::int64_t rows, bool norms, const ComputeOptions &options)
{
    const Params &params = engine.params();
    rows = std::clamp<std::int64_t>(rows, 1, params.maxLen);
    const std::int64_t cols = params.embeddingColumns();
    // Seeded normals are generated a chunk of columns at a time: a block that grows measures the
    // whole chunk, so that a d a little higher later finds its columns there. A matrix has its
    // columns.
    const std::int64_t keptColumns = params.embeddings
        ? cols
        : (cols + Embeddings::kChunkColumns - 1) / Embeddings::kChunkColumns * Embeddings::kChunkColumns;
    const Embeddings base = params.embeddings ? Embeddings(params.embeddings)
                                              : Embeddings(params.seed, 1.0, keptColumns, params.cellLaw());
    const double factor = params.embeddings ? params.scale() : params.scale() * params.sigma();

    const Kept kept = keptFor(params, keptColumns);
    const std::int64_t blockRows = kept.blockRows;
    // The rows the table has: any for the seeded normals, those read for a matrix.
    const std::int64_t tableRows = params.embeddings ? params.embeddings->values.rows() : Params::kMaxLen;
    // Without the row norms, over whole blocks: a part of a block would be measured anew at each
    // request (tens of milliseconds at d 8192), a whole one is kept. More rows than asked for,
    // never fewer, and never past L: Result::rows says how many. But not a request of less than a
    // block: at d 2^20 by L 2^24 a block is 2^23 rows, and the 512 rows asked for became all of
    // them (hours).
    if (!norms && rows >= blockRows)
        rows = std::min(params.maxLen, (rows + blockRows - 1) / blockRows * blockRows);
    std::vector<Work> works;
    for (std::int64_t row0 = 0; row0 < rows; row0 += blockRows) {
        Work work;
        work.row0 = row0;
        work.rows = std::min(blockRows, rows - row0);
        work.index = static_cast<std::size_t>(row0 / blockRows);
        // A last block short of at most an eighth of its rows (L a little lower than before)
        // is its whole block less those rows, when the table has them.
        work.fromWhole
            = work.rows == blockRows || (row0 + blockRows <= tableRows && (blockRows - work.rows) * 8 <= blockRows);
        if (work.fromWhole && work.index < kept.blocks.size())
            work.kept = kept.blocks[work.index];
        works.push_back(std::move(work));
    }
    const bool done
        = forEachTile(static_cast<std::int64_t>(works.size()), options.threads, options.cancel, [&](std::int64_t i) {
              run(base, blockRows, cols, keptColumns, norms, works[static_cast<std::size_t>(i)], options);
          });
    // Whole blocks measured are kept, even when the rest was cancelled.
    for (Work &work : works) {
        if (work.grown)
            keep(params, blockRows, work.index, std::move(work.grown));
    }
    if (!done || (options.cancel && options.cancel->load()))
        return std::nullopt;

    Moments total;
    Result result;
    result.rows = rows;
    if (norms)
        result.rowNorms.resize(rows);
    for (const Work &work : works) {
        merge(total, work.moments);
        if (norms)
            result.rowNorms.segment(work.row0, work.rows) = work.moments.rowSquares.max(0.0).sqrt() * std::abs(factor);
    }
    result.mean = total.mean * factor;
    result.std = (total.m2 / static_cast<double>(total.n)).max(0.0).sqrt() * std::abs(factor);
    return result;
}

void clear()
{
    const std::lock_guard lock(g_mutex);
    g_kept = {};
}

} // namespace posenc::EmbeddingMoments
