#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/t5/T5Params.h"

#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// T5's position_bias as a model returns it (docs/ARCHITECTURE.md, Checking a table, "Shapes"):
// [1, H, L, L] from T5Attention.compute_bias (huggingface/transformers src/transformers/models/t5/
// modeling_t5.py), [H, L, L] or [B, H, L, L], each head's cell (i, j) the learned
// relative_attention_bias weight at relative_position_bucket(j - i). No formula gives the values,
// but the structure is there: each head is constant on every bucket of the map. Read per bucket:
// the bucket's value is what most of its cells hold; a cell that holds another is a defect, named
// with its head, query, key and bucket. The maps tried are the declared one, else T5's own (32
// buckets, max_distance 128, the encoder's bidirectional and the decoder's causal map), each also
// with the offset mirrored (i - j: the mistake relative-position-reversed). A causal mask's cells
// (−inf, or the dtype's lowest: check/MaskFill.h) are left out. A head of q < k rows is a step with
// a cache: T5Attention.forward keeps position_bias[:, :, -seq_length:, :], so its queries are the
// last q of the k keys; a head that reads with them at 0 .. q - 1 instead has lost the cache's
// offset (position-offset, candle#899).
namespace posenc::T5BiasStack {

inline const QString kTable = QStringLiteral("t5-position-bias");
inline const QString kCellBroken = QStringLiteral("t5-bucket-value-broken");

// The reading, or nothing where no map's buckets hold the heads (another family's bias, a table
// too small to show the map, a constant one, heads too long to read whole).
std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows,
                               const std::optional<T5Params> &declared);

QStringList mistakeIds();

} // namespace posenc::T5BiasStack
