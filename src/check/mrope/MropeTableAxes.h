#pragma once

#include "check/TableHypothesis.h"
#include "check/mrope/MropeTableReference.h"
#include "core/Params.h"

#include <QString>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

// Which axis's ids each column of an M-RoPE table turns by, read at a declared prompt's ids
// (docs/ARCHITECTURE.md, Checking a table): the split of another mrope_section
// (mrope-other-section), or columns at another axis than any split gives them (mrope-columns-axis),
// and the words that say so. The splits are huggingface/transformers'
// models/qwen2_vl/modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb (chunked) and
// models/qwen3_vl/modeling_qwen3_vl.py, Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope
// (interleaved), as MropeAxes gives them.
namespace posenc::MropeTableAxes {

// For each column of the sampled rows and each axis (0 t, 1 h, 2 w), whether that axis's ids at
// the prompt explain the column's cells (a text token's three ids are one), to float32 angles'
// rounding.
using AxisFits = std::vector<std::array<bool, 3>>;
AxisFits axisFits(const TableEvidence &e, const MropePromptReference &reference, bool cosine);

// Each column's axis: the declared one where it fits, else the one other axis that does; and for
// each column whether the t ids fit too (a pair too slow to tell its axes apart). Nothing where an
// axis explains no column or every column is the declared one's.
struct ColumnAxes
{
    std::vector<int> axes;
    std::vector<bool> timeFits;
};
std::optional<ColumnAxes> columnAxesRead(const MropeTurns &turns, const AxisFits &fits);

// The columns that turn by another axis than the declared split's, said by axis, and where they
// are all one half of cat(freqs, freqs) left at the t ids, that the sections were merged into the
// other half only.
QString columnAxesWords(const MropeTurns &turns, const ColumnAxes &read, const Params &p);

// The mrope_sections other than the declared, split the declared way (chunked or interleaved),
// whose axes explain every column (the table made with another config's mrope_section: Qwen2-VL's
// 16,24,24 where Qwen3-VL's 24,20,20 belongs, or the reverse). Pairs too slow to tell their axes
// apart at the prompt's ids let several sections fit: the published ones first (Qwen2-VL's,
// Qwen3-VL's), then the roundest (the largest common factor of the three counts, as configs write
// them), then those that move the fewest pairs from the declared; each split of axes once.
std::vector<std::vector<std::int64_t>> sectionsRead(const MropeTurns &turns, const AxisFits &fits, const Params &p);

// The table read as the first of `sections`, in words: the section, the pairs that move, and
// where the sampled ids cannot tell it from the others.
QString sectionWords(const std::vector<std::vector<std::int64_t>> &sections, const MropeTurns &turns, const Params &p);

} // namespace posenc::MropeTableAxes
