#pragma once

#include "check/TableHypothesis.h"
#include "check/rope/RopeFit.h"

#include <cstdint>
#include <optional>

// LongRoPE's two factor lists against a declared reference (docs/ARCHITECTURE.md, Checking a
// table): transformers takes short_factor for a sequence whose largest position + 1 is at most
// original_max_position_embeddings and long_factor beyond (modeling_rope_utils.py,
// longrope_frequency_update), one list for every row of a forward.
namespace posenc::RopeLongRopeSwitch {

// The mistake ids: the other list for the whole table, or the lists switched at a row.
inline const QString kFactorSet = QStringLiteral("longrope-factor-set");
inline const QString kSwitched = QStringLiteral("longrope-factors-switched");

// The hypothesis `declared` (a LongRoPE table of the table's rows) with the other list: short
// factors for a table longer than the original length, long ones for a shorter table.
RopeFit::Hypothesis otherList(const RopeFit::Hypothesis &declared);

// The row N from which the table turns with the long factors, its rows before N with the short
// ones (a cache grown past the original length, its first rows kept), or nothing: read row by row
// against both lists within float32 angles' tolerance. Only a table longer than the original
// length, which transformers turns with the long factors throughout, can hold one.
std::optional<std::int64_t> switchRow(const TableEvidence &e, const RopeFit::Hypothesis &declared);

// A LongRoPE hypothesis of one list (its short and long factors the same: a reference table read
// undeclared shows the list of its own length alone), long_factor past the original length, whose
// table turns with the other list up to a row N and with this one from N to its end (vllm#27431:
// the list taken per position, not per sequence): this hypothesis with its short_factor read from
// the table's sampled rows before N (RopeFit::fit of them alone, `forms` tried first), where those
// rows are RoPE's at its rope_theta, layout and amplitude with factors of at least 1 that are not
// its own; with the row N. Nothing else: the caller names the switch as for a declared pair of lists.
struct LeadingList
{
    RopeFit::Hypothesis completed;
    std::int64_t switchRow = 0;
};
std::optional<LeadingList> withLeadingList(const TableEvidence &e, const RopeFit::Hypothesis &declared,
                                           const std::vector<RopeFit::Published> &forms);

// Where `mistakes` name the switch: the words that say its short_factor was read from the rows.
QString readWords(const LeadingList &read, const QStringList &mistakes);

// "longrope-factors-switched-at-row N: ...": rows 0..N-1 short, rows N.. long, in a table of `rows`.
QString switchedWords(std::int64_t n, std::int64_t rows, std::int64_t original);
// The other list throughout: short_factor where long_factor was declared (`longDeclared`), or long;
// `sequence` the length transformers switches by, max(position_ids) + 1.
QString factorSetWords(bool longDeclared, std::int64_t sequence, std::int64_t original);

// A table read undeclared as a published LongRoPE list (`m`, correct against `published`) whose rows
// stand at positions first..first + rows - 1: where that list is not the one transformers takes for
// max(position_ids) + 1 = first + rows, the ids (--position-ids from first > 0) say the sequence, so
// `m` is the mistake kFactorSet; rows from 0 say none, and the other regime is a note.
void judgeRegime(TableMatch &m, const Params &published, std::int64_t first, std::int64_t rows);

} // namespace posenc::RopeLongRopeSwitch
