#pragma once

#include "Block.h"
#include "DropoutMask.h"
#include "Embeddings.h"
#include "PositionTerm.h"
#include "Quantity.h"

#include <functional>

namespace posenc {

class Engine;

// The model's input X = s*E + position term (or their concatenation) and its output Y after
// dropout, from the engine's sources (docs/PERFORMANCE.md, The model's input): where the position
// term is the sinusoid's kernel, X and Y are computed by the kernel itself as it stores the
// PE; otherwise tile by tile from the parts.
class ModelInput
{
public:
    explicit ModelInput(const Engine &engine);

    // X (`quantity` Input) or Y (Output) of the block. With `streaming`, rows that start on a
    // vector-aligned address are written with non-temporal stores; the caller fences.
    void fill(Quantity quantity, const Block &block, BlockRef out, bool streaming) const;
    // The block's two parts: s*E (zero in the position-only columns) and the position term
    // (zero in the E-only columns).
    void parts(const Block &block, BlockRef embeddingPart, BlockRef positionalPart) const;

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
    // PositionalTable::kRunRows rows and kTileColumns columns, each cell once.
    void forEachInputTile(const Block &block, const InputTileSink &sink) const;
    // Whether the sinusoid's kernel itself can turn the PE into `quantity` (X or Y) as it stores
    // it: the sum, exact angles, and for Y a p below 1.
    bool combinesInKernel(Quantity quantity) const;
    // X or Y of the block through the kernel: each run of rows gets its embeddings and keep bits
    // first, then the kernel loads E and stores X or Y alongside its own arithmetic.
    void combineRows(Quantity quantity, const Block &block, BlockRef out, bool streaming) const;

    const Params &m_params;
    const PositionTerm &m_term;
    const Embeddings &m_embeddings;
    const DropoutMask &m_mask;
    float m_scale;
};

} // namespace posenc
