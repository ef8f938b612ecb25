#pragma once

#include "Block.h"
#include "DropoutMask.h"
#include "Embeddings.h"
#include "Params.h"
#include "PositionalTable.h"
#include "Quantity.h"
#include "WorkProgress.h"

#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace posenc {

struct ComputeOptions
{
    int threads = 0; // 0: the machine's; 1: serial in the caller
    const std::atomic<bool> *cancel = nullptr; // polled between tiles
    WorkProgress *progress = nullptr; // the rows done, where the work counts them (statistics, tables)
};

// Computes any block of any quantity for one valid Params. Immutable once built, so one
// engine serves any number of threads. Every cell is a pure function of the parameters and
// its (row, column), so a block computed alone, serially or threaded, equals the same cells
// of the whole table bit for bit.
class Engine
{
public:
    // Precondition: params.validate() is empty.
    explicit Engine(Params params);

    const Params &params() const { return m_params; }
    Shape shape(Quantity quantity) const { return Quantities::shape(quantity, m_params); }
    const PositionalTable &positionalTable() const { return m_pe; }
    const Embeddings &embeddings() const { return m_embeddings; }
    const DropoutMask &dropoutMask() const { return m_mask; }

    // The error that refuses `block` of `quantity` (outside the table, or over the memory
    // budget with cells and GiB), or nothing when it can be computed.
    std::optional<QString> check(Quantity quantity, const Block &block) const;

    // One block in the calling thread. Precondition: check() passed; out is block-sized.
    void computeBlock(Quantity quantity, const Block &block, BlockRef out) const;
    // The block split into row tiles computed in parallel; false when cancelled (then `out`
    // is partly written and must not be shown).
    bool compute(Quantity quantity, const Block &block, BlockRef out, const ComputeOptions &options = {}) const;
    // A new matrix holding the block, or nothing when cancelled.
    std::optional<RowMatrixXf> table(Quantity quantity, const Block &block, const ComputeOptions &options = {}) const;

    // A block of the model input split into its two parts: the embedding part (s*E, zero in
    // the PE-only columns of concat) and the positional part (PE, zero in the E-only
    // columns). X is their sum.
    void inputParts(const Block &block, BlockRef embeddingPart, BlockRef positionalPart) const;

private:
    // Rows row0 .. row0 + rows - 1 of the model input's columns col0 .. col0 + cols - 1 by their
    // parts: row r is x(r).
    struct InputTile
    {
        std::int64_t row0;
        std::int64_t rows;
        std::int64_t col0;
        std::int64_t cols;
        const float *embedding; // row r at embedding + r * embeddingStride
        std::int64_t embeddingStride;
        float scale;
        const float *positional;
        std::int64_t positionalStride;

        InputRow x(std::int64_t r) const
        {
            return {embedding + r * embeddingStride, scale, positional + r * positionalStride};
        }
    };
    using InputTileSink = std::function<void(const InputTile &tile)>;
    // Hands the model input of the block to `sink` in tiles of at most
    // PositionalTable::kRunRows rows and kTileColumns columns, each cell once: for the parts of
    // X, and for X and Y where the PE kernel does not combine them itself (combinesInKernel).
    void forEachInputTile(const Block &block, const InputTileSink &sink) const;
    void computeRows(Quantity quantity, const Block &block, BlockRef out, bool streaming) const;
    // Whether the PE kernel itself can turn the PE into `quantity` (X or Y) as it stores it: the
    // sum, exact angles, and for Y a p below 1.
    bool combinesInKernel(Quantity quantity) const;
    // X or Y of the block through the PE kernel: each run of rows gets its embeddings and keep
    // bits first, then the kernel loads E and stores X or Y alongside its own arithmetic.
    void combineRows(Quantity quantity, const Block &block, BlockRef out, bool streaming) const;

    Params m_params;
    PositionalTable m_pe; // the table that enters X: d columns, or k in concat
    Embeddings m_embeddings; // d columns, or d - k in concat
    DropoutMask m_mask;
    float m_scale;
};

} // namespace posenc
