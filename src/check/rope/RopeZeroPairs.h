#pragma once

#include "check/CellTolerance.h"
#include "check/TableSample.h"
#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// Where a RoPE table's identity pairs sit (docs/ARCHITECTURE.md, Checking a table): the pairs of
// frequency 0, whose columns hold A cos 0 = A, or sin 0 = 0, in every row. HF's proportional RoPE
// (modeling_rope_utils.py, _compute_proportional_rope_parameters) appends them to inv_freq,
// cat((inv_freq_rotated, zeros(nope_angles))), and the rotary embedding's cat((freqs, freqs)) then
// puts them at the end of each half: columns [live, r/2) and [r/2 + live, r). GPT-NeoX's partial
// rotary (modeling_gpt_neox.py, apply_rotary_pos_emb: query[..., :rotary_ndims] turned,
// query[..., rotary_ndims:] passed) leaves them out of the table, at the end of the head.
namespace posenc::RopeZeroPairs {

// A table whose identity columns are not where HF's proportional RoPE puts them: which columns
// they are, the layout the turning columns repeat in, and each column's place in HF's table.
struct Placement
{
    RopeLayout layout = RopeLayout::Half;
    std::int64_t livePairs = 0; // pairs that turn
    bool cosine = true; // the identity columns hold A (cos), else 0 (sin)
    std::vector<std::int64_t> identity; // the table's identity columns, increasing
    std::vector<std::int64_t> hfIdentity; // where HF's proportional table has them, increasing
    std::vector<std::int64_t> hfColumn; // table column c is HF's column hfColumn[c]
};

// The placement of a table some of whose columns never move over the sample's compared rows, all
// holding one value, while the others repeat as RoPE's in a layout: nothing when the identity
// columns already sit where HF puts them for that layout, or the table is no such table.
// `tolerance` is a value's rounding relative to 1.
std::optional<Placement> misplaced(const TableSample &sample, const RowFraming &framing, double tolerance);

// A value's rounding relative to 1 in `format` (and the text's): what a column that never turns may move by.
double identityTolerance(ValueFormat format, double textRounding);

// The sample with its columns moved to HF's places.
TableSample inHfOrder(const TableSample &sample, const Placement &placement);

// The mistake zero-pairs-misplaced in words: where the identity pairs sit, what that placement
// is, and where HF puts them.
QString diagnosis(const Placement &placement, std::int64_t cols);

} // namespace posenc::RopeZeroPairs
