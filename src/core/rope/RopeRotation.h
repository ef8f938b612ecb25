#pragma once

#include "core/Block.h"
#include "core/Params.h"
#include "core/PositionalTable.h"

#include <cstdint>
#include <functional>

namespace posenc {

// The rotary embedding of one head as HF transformers' rotary embedding returns it, computed by
// the exact anchored kernel (docs/ARCHITECTURE.md, The mathematics, Exactness): the cos and sin
// tables with the attention factor included, and R(p) applied to rows (apply_rotary_pos_emb).
// An engine source: built from the parameters on first use, immutable, shared by the threads.
class RopeRotation
{
public:
    // Precondition: params valid, encoding rope.
    explicit RopeRotation(const Params &params);

    std::int64_t headDim() const { return m_headDim; }
    std::int64_t rotaryDim() const { return 2 * m_pairs; }
    std::int64_t pairs() const { return m_pairs; }
    RopeLayout layout() const { return m_layout; }
    // The head's first rotary column: 0, or head_dim - rotary_dim for RotaryPlace::Suffix.
    std::int64_t firstRotary() const { return m_first; }

    // A block of rope-cos (`cosine`) or rope-sin: L x rotary_dim, the pair of column c being
    // c mod h (half) or c / 2 (interleaved). The kernel writes each cell once, a hop of rows at a
    // time (PositionalTable::fillValues); `streaming` writes around the caches where a row is
    // vector-aligned.
    void fillTable(bool cosine, const Block &block, BlockRef out, bool streaming) const;

    // Rows row0 .. row0 + rows - 1 of the head's input x (headDim columns each, row r at
    // x + r * xStride) rotated to their positions, columns col0 .. col0 + cols - 1 of the result
    // into `out`: rotate_half's or GPT-J's pairs times cos and sin (attention factor included),
    // the columns outside the rotary ones (RotaryPlace) passed through.
    void rotateRows(const Block &block, const float *x, std::int64_t xStride, BlockRef out) const;

    // The pairs' af·sin(p θ_i) in column i and af·cos(p θ_i) in h + i, exact: its
    // forEachErrorRow is the error of the same values from a float32 angle, fl(fl(p)·fl(θ_i)), as
    // transformers' LlamaRotaryEmbedding.forward forms it (autocast disabled, float32 matmul).
    const PositionalTable &kernel() const { return m_kernel; }

private:
    RopeRotation(const Params &params, const FrequencySchedule &schedule);

    std::int64_t m_headDim;
    std::int64_t m_pairs; // h: rotary_dim / 2
    RopeLayout m_layout;
    std::int64_t m_first; // the first rotary column of the head
    // 2h columns in the split layout: af * sin(p w_i) in column i, af * cos(p w_i) in h + i.
    PositionalTable m_kernel;
    // 2h columns in the model's layout (split for half), which the cos and sin tables fill with
    // one of the two values in both columns of a pair.
    PositionalTable m_tables;
};

} // namespace posenc
