#include "Engine.h"

#include "ModelInput.h"

#include "MemoryBudget.h"
#include "StreamStore.h"
#include "TableAllocation.h"
#include "ThreadPools.h"

#include <QThreadPool>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Outputs larger than this are written with streaming stores: they cannot stay in cache.
constexpr std::int64_t kStreamingCells = std::int64_t(8) << 20;
// A tile is large enough to amortise the exact re-anchoring at its first row (a sine and a
// cosine per pair: at d = 4096, a tile of 2^22 cells is 1024 rows, one anchor interval) and
// small enough that the threads share the work evenly.
constexpr std::int64_t kTileCells = std::int64_t(1) << 22;
// Columns computed together where a row is cut into column tiles.
constexpr std::int64_t kTileColumns = 1024;

std::int64_t tileRowsFor(const Block &block, int threads)
{
    const int workers = threads > 0 ? threads : std::max(1, QThreadPool::globalInstance()->maxThreadCount());
    std::int64_t rows = std::max<std::int64_t>(1, kTileCells / std::max<std::int64_t>(1, block.cols));
    rows = std::min(rows, (block.rows + 4 * workers - 1) / (4 * workers)); // at least ~4 tiles a worker
    // Start tiles on hop rows so that no tile repeats the rotations of another.
    if (rows >= PositionalTable::kHopRows)
        rows -= rows % PositionalTable::kHopRows;
    return std::max<std::int64_t>(1, rows);
}

} // namespace

Engine::Engine(Params params)
    : m_params(std::move(params))
{ }

const ModelInput &Engine::modelInput() const
{
    return source<ModelInput>();
}

std::optional<QString> Engine::check(Quantity quantity, const Block &block) const
{
    const QuantitySpec &spec = Quantities::spec(quantity);
    if (const auto missing = spec.missing(m_params))
        return u"the %1 table is not defined here: %2"_s.arg(spec.name, *missing);
    const Shape s = shape(quantity);
    if (block.row0 < 0 || block.rows < 0 || block.rowEnd() > s.rows)
        return u"rows [%1, %2) are outside the %3 table's rows [0, %4)"_s.arg(block.row0)
            .arg(block.rowEnd())
            .arg(spec.name)
            .arg(s.rows);
    if (block.col0 < 0 || block.cols < 0 || block.colEnd() > s.cols)
        return u"columns [%1, %2) are outside the %3 table's columns [0, %4)"_s.arg(block.col0)
            .arg(block.colEnd())
            .arg(spec.name)
            .arg(s.cols);
    return MemoryBudget::check(spec.workCells(m_params, block), m_params.memoryBudget,
                               u"the %1 x %2 block of %3"_s.arg(block.rows).arg(block.cols).arg(spec.name));
}

void Engine::inputParts(const Block &block, BlockRef embeddingPart, BlockRef positionalPart) const
{
    modelInput().parts(block, embeddingPart, positionalPart);
}

void Engine::computeBlock(Quantity quantity, const Block &block, BlockRef out) const
{
    if (!block.isEmpty())
        Quantities::spec(quantity).fill(*this, block, out, false);
}

bool Engine::compute(Quantity quantity, const Block &block, BlockRef out, const ComputeOptions &options) const
{
    if (options.cancel && options.cancel->load())
        return false;
    if (block.isEmpty())
        return true;
    const QuantitySpec &spec = Quantities::spec(quantity);
    const Tiling tiling = spec.tiling;
    const bool streaming = block.cells() >= kStreamingCells && tiling != Tiling::RowsOnly;
    const std::int64_t tileRows = tileRowsFor(block, options.threads);
    return forEachTile((block.rows + tileRows - 1) / tileRows, options.threads, options.cancel, [&](std::int64_t tile) {
        const std::int64_t r0 = tile * tileRows;
        const std::int64_t rows = std::min(tileRows, block.rows - r0);
        // Column tiles start on multiples of the tile width, so that they line up with the
        // random generators' groups whatever the block. A kernel that goes through the
        // columns itself keeps whole rows (Tiling::WholeRows).
        const std::int64_t width = tiling == Tiling::Columns ? kTileColumns : block.colEnd();
        for (std::int64_t c0 = block.col0; c0 < block.colEnd();) {
            const std::int64_t c1 = std::min(block.colEnd(), (c0 / width + 1) * width);
            spec.fill(*this, Block {block.row0 + r0, rows, c0, c1 - c0}, out.block(r0, c0 - block.col0, rows, c1 - c0),
                      streaming);
            c0 = c1;
        }
        if (streaming)
            streamFence(); // this thread's non-temporal stores, before the table is read
    });
}

std::optional<RowMatrixXf> Engine::table(Quantity quantity, const Block &block, const ComputeOptions &options) const
{
    RowMatrixXf result = allocateTable(block.rows, block.cols);
    if (!compute(quantity, block, result, options))
        return std::nullopt;
    return result;
}

} // namespace posenc
