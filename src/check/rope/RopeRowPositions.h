#pragma once

#include "check/TableHypothesis.h"
#include "check/rope/ApplyCheck.h"
#include "check/rope/RopeFit.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

// The positions a RoPE cos or sin table's rows hold, read back from their angles (docs/
// ARCHITECTURE.md, Checking a table): a cache keyed without its offset repeats earlier positions
// (rotary-embedding-torch#11: rows 64..127 hold positions 0..63), a cache indexed past its end
// holds another position's row (vllm#27414: row 4096 holds position 0), and LongRoPE's two lists
// may share one sequence. Each row is read against the reference's frequencies, as `--apply` reads
// a rotation's positions (ApplyPairs::readId): the slowest pair's angle refined pair by pair to the
// fastest, every cell then compared with the reference at that position within float32 angles'
// tolerance. A row is read only where every cell holds, so a faithful table's rows are at their own
// index and nothing is named.
namespace posenc::RopeRowPositions {

// A run of consecutive rows at consecutive positions of one list.
struct Region
{
    std::int64_t row = 0;
    std::int64_t count = 0;
    std::int64_t position = 0;
    // The list the rows turn with: 0 the reference's, 1 the other (LongRoPE), -1 both alike (a
    // position whose angles no list changes beyond the rounding, position 0 at least), kUnread rows
    // that hold no position of any list (position -1).
    int list = 0;
};
inline constexpr int kUnread = -2;

// Every row r at position s r, s a whole number from 2: the positions multiplied before their
// angles were formed (InternLM3's position scale, mlx-lm#1545), not out of order. The angles are
// those of a linear rope factor 1/s times the reference's, which the table alone cannot tell apart.
inline const QString kPositionsScaled = QStringLiteral("positions-scaled");

// The most rows of a table, one in this many, that may be unread (a damaged cell or row) or stray
// (at a position the rest do not explain) for the rest to be read as one form: those rows are a
// region the stream shows as deviating cells, not a mistake of the rows' positions. The share
// every check's form bears (StrayRows, TableMatch.h).
inline constexpr std::int64_t kStrayShare = StrayRows::kShare;
std::int64_t mostStrayRows(std::int64_t rows);

// Every row of the table read against `lists` (one hypothesis, or LongRoPE's two: the correct one
// first), as regions; rows that hold no position of any list are regions of kUnread; nothing
// where more than mostStrayRows are (of the table's, or of the sample's), the table holds fewer
// than four pairs that turn or fewer than three rows, or it is too long to read whole.
std::optional<std::vector<Region>> regions(const TableEvidence &e, const std::vector<RopeFit::Hypothesis> &lists);

// What the rows show that the correct table (`correct`, rows at their own index) does not: rows at
// other positions (positions-out-of-order) and LongRoPE's other list for some rows
// (longrope-factors-switched), each said with its rows. Nothing where every row is read at its own
// index with the correct list, or where one offset or the other list alone explains every row (the
// whole table's position-offset and longrope-factor-set, which the fit names); unread rows, and
// rows off one offset other than 0 that explains all but mostStrayRows of them, are left to the
// stream, which shows them as a region.
// Where the rows are vLLM's long_short_cos_sin_cache (RopeLongShortCache), a published form,
// nothing is named: `longShortCache` is set and the diagnosis says so. Rows at their own index
// rounded to bfloat16 or float16 (p = bf16(arange(L))) name nothing either: that is
// half-precision-angles, which RopeHalfAngles names with the stages that rounded.
struct Named
{
    QStringList mistakes;
    QString diagnosis;
    bool longShortCache = false;
    // Every run of rows not at its own positions starts again at position 0: packed documents'
    // position ids (Megatron's reset_position_ids), a correct input the table alone cannot tell
    // from a mistake.
    bool restarts = false;
    // Every row r at position r + offset, offset > 0: a later chunk of one sequence (a cached
    // decoding step, a chunked prefill), the position-offset named with the rows' positions. A
    // LongRoPE table's list is the one transformers takes for max(position_ids) + 1 = rows +
    // offset; the other list is longrope-factor-set besides. The reading's list: `list`.
    std::optional<std::int64_t> offset;
    int list = 0;
};
std::optional<Named> name(const TableEvidence &e, const RopeFit::Hypothesis &correct);

// The undeclared check of a table RoPE's fit (`whole`) does not explain as a whole, or explains with
// cells beyond the tolerance: RoPE fitted (`fit`) to the sample's leading rows alone, where those
// rows are positions 0.. of one RoPE, or the whole fit where it explains most cells; then every row
// read as `name` does: the fit with the mistakes named and its correct table (a LongRoPE table's list taken
// by its length, as transformers does) matched by `match`, the words `name`'s (vLLM's
// long_short_cos_sin_cache matched as that form, RopeLongShortCache::asCache); nothing where the
// leading rows are no RoPE's or the rows show nothing `name` names.
// The candidate claims the table: every sampled row is RoPE's at the position read (`match` words it).
using LeadingFit = std::function<std::optional<RopeFit::Fit>(const TableSample &leading)>;
using MatchOf = std::function<TableMatch(const RopeFit::Fit &)>;
std::optional<TableCandidate> fromLeadingRows(const TableEvidence &e, const std::optional<RopeFit::Fit> &whole,
                                              const LeadingFit &fit, const MatchOf &match);

// A declared table whose rows are a later chunk of one sequence (Named::offset): the declared
// reference at positions offset.. with the list those rows turn with, every row streamed against it
// as read (TableMatch::asRead); `match` words the fit with the mistakes `rows` names.
TableMatch chunk(const TableEvidence &e, RopeFit::Fit fit, const Named &rows, const MatchOf &match);

} // namespace posenc::RopeRowPositions
