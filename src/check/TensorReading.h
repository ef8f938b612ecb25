#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

// A family's reading of the tensors engineers dump besides an L x d table (docs/ARCHITECTURE.md,
// Checking a table, "Shapes"): the questions the shared shape check (TensorShapes, cli/CheckTensor)
// asks of the family declared, or of every family where none is. A family answers those of its
// shapes and leaves the others unset; the shared check knows no family's shape.
namespace posenc {

// A vector of the family's ([n], [H, 1, 1]): RoPE's inv_freq, ALiBi's slopes.
struct VectorReading
{
    QString what; // "RoPE's inv_freq", for the words of a vector no family reads
    QString range; // what its values are: "positive, at most 1 at pair 0"
    // Whether its values are fixed by their count alone (ALiBi's get_slopes(H)): of two readings
    // with the same verdict, correct or mistake, the one without free parameters is the narrower
    // claim and is taken; of two unknown ones, the other's (its nearest fit says more).
    bool parameterFree = false;
    std::function<bool(const std::vector<double> &v)> plausible;
    // Undeclared: the family's reading of a plausible vector.
    std::function<TableMatch(const std::vector<double> &v, StoredType stored)> identify;
    // Against the declared parameters; `heads` the heads declared (--heads), if any.
    std::function<TableMatch(const std::vector<double> &v, StoredType stored, const Params &declared,
                             std::optional<std::int64_t> heads)>
        expect;
    // Against declared parameters whose vector depends on the sequence's length (LongRoPE's two
    // factor lists, dynamic NTK's grown base) where the declaration states no length: the vector at
    // the length that gives it, correct and naming the lengths it serves, or nothing (`expect` then
    // answers). Unset: `expect` alone.
    std::function<std::optional<TableMatch>(const std::vector<double> &v, StoredType stored, const Params &declared)>
        atUnstatedLength;
};

// A family that biases each head's scores by a map of its own ([.., H, L, L]), head by head.
struct HeadBiasReading
{
    // The heads its parameters give, and its parameters set to head `head` (1-based) of `heads`.
    std::function<std::int64_t(const Params &)> heads;
    std::function<void(Params &, std::int64_t heads, std::int64_t head)> atHead;
    // Its per-head key biases ([H, 1, L], [B·H, 1, L], [1, H, 1, L]: a row per head over the keys),
    // or nothing where the rows are not its; `heads` the heads declared. Unset: it has none.
    std::function<std::optional<TableMatch>(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                            std::optional<std::int64_t> heads)>
        keyBiases;
    // The key biases' match held to the declared parameters (`declared`, the mask among them): ALiBi's
    // key bias m·j is its bias only under a causal mask. Unset: the reading stands as it is.
    std::function<void(TableMatch &match, const Params &declared)> declaredKeyBiases;
    // The heads of a stack [.., H, L, L] whose every slice it matched, checked together (ALiBi's
    // slopes against get_slopes of the heads declared, else of H) into `combined`, the worst slice's
    // match; whether it did. Unset: the slices' verdicts alone combine.
    std::function<bool(const std::vector<std::int64_t> &shape, const TableRows &rows,
                       const std::vector<TableMatch> &slices, TableMatch &combined,
                       std::optional<std::int64_t> declaredHeads)>
        combineHeads;
    // The heads a stack [.., H, L, L] holds where H is not the `declared` count: (heads, first head,
    // 0-based) of a run of the declared heads (a tensor-parallel rank's share), else of H heads' own
    // where its maps are theirs; nothing where they tell neither (slice i is then head i + 1 of the
    // declared). Unset: the declared heads from the first.
    std::function<std::optional<std::pair<std::int64_t, std::int64_t>>(const std::vector<std::int64_t> &shape,
                                                                       const TableRows &rows, std::int64_t declared)>
        headsHeld;
};

// Two of the family's tables side by side in one tensor ([L, d] = cat(a, b) along the last
// dimension: vLLM's cos|sin cache), each half the table of half its width.
struct PairedTablesReading
{
    QStringList tables; // each half's table, as the family's hypothesis words it: rope-cos, rope-sin
    // Whether the rows hold such a pair (told by their layout, not by a file).
    std::function<bool(const TableRows &rows)> holds;
    // Half `index` widened to the table it stands for, in the declared layout (`pairsAdjacent`).
    std::function<std::shared_ptr<const TableRows>(std::shared_ptr<const TableRows> rows, int index,
                                                   bool pairsAdjacent)>
        half;
    // The halves' matches as the tensor's.
    std::function<TableMatch(TableMatch first, TableMatch second, std::int64_t halfCols, bool pairsAdjacent)> combine;
    // Whether the rows hold two of the family's whole tables side by side ([L, 2w] = cat(a, b), each
    // half the table of w columns itself, not widened: HF's cos and sin caches, each of
    // cat(freqs, freqs), dumped together); unset: none is read so.
    std::function<bool(const TableRows &rows)> holdsWhole;
};

struct TensorReading
{
    std::optional<VectorReading> vector;
    std::optional<HeadBiasReading> headBias;
    std::optional<PairedTablesReading> paired;
    // Its table's width at `params` and whether the layout pairs neighbouring columns, for a family
    // whose tables repeat each of half as many columns (a cache of half the width stands for it:
    // candle's and vLLM's cos of the frequencies); nothing at parameters whose tables do not.
    std::function<std::optional<std::pair<std::int64_t, bool>>(const Params &)> tableWidth;
    // Whether its declared reading takes a table whose rows start at a later position (a chunked
    // prefill's, a cached step's: --position-ids from F > 0), the reference starting there; a family
    // that does not is refused such ids rather than read from 0.
    bool readsLaterPositions = false;
    // The ids of the mistakes its readings name, for `posenc check --help`.
    QStringList mistakes;
};

} // namespace posenc
