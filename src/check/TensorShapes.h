#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "check/TensorReading.h"
#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

// The shapes engineers dump besides an L x d table, each read as what it is (docs/ARCHITECTURE.md,
// Checking a table, "Shapes"): a vector, per-head key biases ([H, 1, L]), and a stack of tables
// ([B, L, d] caches, [H, L, L] and [B, H, L, L] biases, [B, H, L, D] and [3, B, L, D] caches), each
// slice checked as a table and the slices' verdicts combined. What a family reads in a shape is its
// facet's (TensorReading: RoPE's inv_freq, ALiBi's slopes and key biases); this file asks the
// family declared, or every family, and names none. The rows are the array's last dimension's
// (TableFile::openTensor).
namespace posenc::TensorShapes {

enum class Kind { Table, Vector, KeyBiases, Stack, Refused };

// What an array of `shape` is read as: key biases when the last but one dimension is 1 before
// more than one key (a table where its rows are not affine in the key); a vector when one
// dimension is not 1 (of a 1-D array, always); a table when two are (of a 2-D array, always); else
// a stack of its last two dimensions' tables; a scalar or a stack of too many slices refused.
Kind kindOf(const std::vector<std::int64_t> &shape);
// The shapes accepted, in one line, for a refusal and the help.
QString acceptedShapes();
// "(1, 12, 32, 32)".
QString shapeText(const std::vector<std::int64_t> &shape);

// A vector's values (every row of `rows`), or why not.
std::variant<std::vector<double>, QString> readVector(const TableRows &rows);

// What a vector declares: a family (RoPE's inv_freq, ALiBi's slopes) with its parameters, and
// ALiBi's heads where they were given.
struct VectorDeclaration
{
    std::optional<Encoding> family;
    Params params;
    std::optional<std::int64_t> heads;
    // Whether the declaration states the sequence's length (--max-len, --prompt): a vector states
    // none, so without it a vector of a length-dependent rope_type is read at the length it holds
    // (VectorReading::atUnstatedLength).
    bool lengthGiven = false;
};
// A vector read as RoPE's inv_freq or ALiBi's slopes, or against the declared one.
TableMatch checkVector(const std::vector<double> &v, StoredType stored, const VectorDeclaration &declared);
// A vector `match` compared value by value with --expect-table's `reference` and deviating with no
// mistake named: the reference read alone; where it is a family's (correct or a variant) at
// parameters it reads, the vector checked as if they were declared, and the mistake found there
// named, its sentences said of the reference table's reading (DeclaredWords), as a table's is
// (TableCheck::nameByReferenceReading).
void nameByReferenceVector(TableMatch &match, const std::vector<double> &v, StoredType stored,
                           const std::vector<double> &reference, StoredType referenceStored,
                           std::optional<std::int64_t> heads);

// Per-head key biases ([H, 1, L], [B·H, 1, L], [1, H, 1, L]) read by the declared family's
// HeadBiasReading, or undeclared by the first family's that reads them; nothing where none does.
std::optional<TableMatch> keyBiases(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                    std::optional<std::int64_t> heads, std::optional<Encoding> declared);
// Whether `family` reads key biases (else its declared tensor of that shape is a table or stack).
bool readsKeyBiases(Encoding family);
// The heads the parameter flags declare (--heads), as the first family that biases each head reads
// them from its parameters.
std::optional<std::int64_t> flagHeads(const Params &params);

// Slice `index` of a stack: the rows [index·L, (index + 1)·L) of `rows`.
std::shared_ptr<const TableRows> slice(std::shared_ptr<const TableRows> rows, std::int64_t index, std::int64_t length,
                                       const QString &label);
// The shape a stack's slices are cut from: `shape` itself, or where its last but one dimension is 1
// (one-row slices: Paddle's and MLX's cos [B, L, 1, D], broadcast over the heads of [B, L, H, D]),
// its dimensions other than 1, as a table's are dropped ([3, 64, 1, 128] is 3 slices of 64 x 128).
// A family's own readers of that shape (key biases [B, H, 1, L], readStack) see the array's shape.
std::vector<std::int64_t> stackShape(const std::vector<std::int64_t> &shape);
// The slices of a stack of `shape` and each one's label ("batch 0, head 3").
std::int64_t slices(const std::vector<std::int64_t> &shape);
QString sliceLabel(const std::vector<std::int64_t> &shape, std::int64_t index);

// The heads the slices of a stack [.., H, L, L] are checked as by a family that biases each head
// (`bias`): the `declared` heads from the first, H's where none are declared, or as the family reads
// the slopes where H is not the declared count (HeadBiasReading::headsHeld: a run of the declared
// heads, a tensor-parallel rank's share; the stack's own H). `ownHeads` false (a reference table's
// slices): the declared heads from the first.
struct SliceHeads
{
    std::int64_t heads = 1;
    std::int64_t first = -1; // the run's first head (0-based), -1 where the heads repeat every `heads`
    std::int64_t own = 1; // the stack's H
    // The head (1-based) of slice `slice`: [B, H, L, L]'s repeat every H.
    std::int64_t of(std::int64_t slice) const { return first >= 0 ? first + slice % own + 1 : slice % heads + 1; }
};
SliceHeads sliceHeads(const HeadBiasReading *bias, const std::vector<std::int64_t> &stacked, const TableRows &rows,
                      std::optional<std::int64_t> declared, bool ownHeads);

// The slices' matches as one: the worst verdict, the first slice that is not correct named, and
// where every slice of a stack of square maps ([.., H, L, L]) is one family's that biases each head,
// the heads checked together by its HeadBiasReading (ALiBi's slopes against get_slopes(H)) unless
// `ownHeads` is false (the slices were compared with a reference table's: its heads are the
// reference's, whatever get_slopes gives); `declaredHeads` the heads declared (--heads, a preset's,
// a config's), which a stack of another H is held to.
TableMatch combine(const std::vector<std::int64_t> &shape, const TableRows &rows, std::vector<TableMatch> matches,
                   bool ownHeads = true, std::optional<std::int64_t> declaredHeads = std::nullopt);

// A cache of half the width a declared family's table has, where its tables repeat each column
// (TensorReading::tableWidth; RoPE's [L, rotary_dim / 2]: candle's and vLLM's cos of the
// frequencies before cat((freqs, freqs))): whether it is, and the table it stands for, each column
// repeated as the declared layout repeats it (cat for half, each pair's two columns for
// interleaved), so that the declared reference compares it.
bool halfWidth(Encoding family, const Params &declared, std::int64_t cols);
// Whether the table's columns repeat in pairs over its first rows (at most 256), c and c + d/2 or 2i
// and 2i + 1, and hold more than one value (down the rows, or along a row: one row repeated, as
// same-row's table is, repeats them too): a table of half a declared width that does is a whole table
// of its own width (a RoPE table of another rotary_dim: rotary-dim), not the cache of half its width,
// whose columns are all distinct.
bool columnsRepeatInPairs(const TableRows &rows);
std::shared_ptr<const TableRows> widened(std::shared_ptr<const TableRows> rows, Encoding family,
                                         const Params &declared);

// The verdicts from best to worst (correct 0 ... mistake 4), as slices and halves combine.
int verdictRank(CheckVerdict v);

// The declared table's width and whether its layout pairs neighbouring columns, as the family's
// TensorReading::tableWidth gives them; nothing for a family without one.
std::optional<std::pair<std::int64_t, bool>> declaredWidth(Encoding family, const Params &p);

// The dimensions that are not 1.
std::vector<std::int64_t> notOne(const std::vector<std::int64_t> &shape);

// A [C, H, W] or [B, C, H, W] stack, undeclared, whose reading as attention biases [.., H, q, L] is a
// mistake, weighed against its reading as a channel-first map of position features (a 2-D map's
// channels each vary along one axis of the grid: a row's cells alike or a column's, some channels
// each way; a bias stack's rows follow key - query). Where the map's signature holds, `match` is
// made unknown with both readings said (no family's published form read it: each family's own
// reader, FamilyCheck::readStack, came first); else it is left as it is.
void weighChannelsFirst(TableMatch &match, const std::vector<std::int64_t> &shape, const TableRows &rows);

// The mistakes the families' readings of these shapes name, in the list's order.
QStringList mistakeIds();

} // namespace posenc::TensorShapes
