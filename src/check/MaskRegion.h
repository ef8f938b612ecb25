#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "check/TableSample.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <variant>

// A mask's region that is no causal mask (docs/ARCHITECTURE.md, Checking a table): set aside before
// the table is identified, so that a mask never makes a readable file unreadable (exit 3 is for
// what cannot be read). A mask writes −inf or its dtype's lowest (check/MaskFill.h) where a key
// is not attended:
// - left padding (transformers' _prepare_4d_causal_attention_mask with a padded attention_mask,
//   src/transformers/modeling_attn_mask_utils.py: the padding's key columns masked in every row,
//   and a padding query's row masked whole): rows and columns 0 .. p − 1 hold the fill, the rest
//   is a causal table of L − p positions, read as one and compared with its reference shifted by
//   p rows and columns, the padding's cells with the fill;
// - the keys before the query masked and those after it kept: a causal mask transposed, read
//   transposed (the mistake `transposed` where a family claims the transpose);
// - any other infinity: a mistake, the words saying where the mask's cells lie.
namespace posenc::MaskRegion {

// The left padding a square table's sample shows: rows 0 .. rows − 1 masked whole, and in the
// later rows the columns before `rows` and after the query masked, every other cell finite.
struct Padding
{
    std::int64_t rows = 0;
    float fill = 0.0f;
};

std::optional<Padding> padding(const TableSample &sample);

// Whether every sampled cell before the query (column < row) holds a mask's fill and no other
// does: a causal mask transposed.
bool transposedCausal(const TableSample &sample);

// The table `table`'s reading with its padding set aside: `read` of the table from row and column
// `padding.rows` on, its reference (if any) widened to the whole table, the padding said in a note.
std::variant<TableMatch, QString>
padded(const TableRows &table, const Padding &padding,
       const std::function<std::variant<TableMatch, QString>(const TableRows &)> &read);

// The reading of a causal mask transposed: `identify` of the table's transpose (at most
// kMaxTransposed rows), named `transposed` where it has a reference, else a mistake saying where the
// mask lies. Nothing where the table is too large to transpose in memory.
std::optional<TableMatch>
transposed(const TableRows &table, const std::function<std::variant<TableMatch, QString>(const TableRows &)> &identify);
constexpr std::int64_t kMaxTransposed = 2048;

// A table whose infinities are no mask's region this check reads: a mistake (no table of positions
// or biases holds an infinity there), the first such cell named.
TableMatch strayInfinity(const TableSample &sample, StoredType stored);

} // namespace posenc::MaskRegion
