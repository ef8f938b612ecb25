#pragma once

#include "check/OffsetProfile.h"
#include "check/OffsetReference.h"
#include "check/TableHypothesis.h"

#include <QString>

#include <memory>
#include <optional>

// What the hypotheses of tables of offsets j − i share (ALiBi's, Sandwich's, T5's, DeBERTa's;
// docs/ARCHITECTURE.md, Checking a table): the sample read by offset, a reference of the offsets'
// values judged on the sample, and the frame of the match. A family gives what it reads of the
// profile and its words.
namespace posenc::OffsetFit {

// The sample read by offset, where its rows differ and it is a table of offsets (each diagonal one
// value, but for a few cells).
std::optional<OffsetProfile> profile(const TableEvidence &e);

// The tolerance of a table of values up to `largest` computed without angles: its values' format's
// rounding (TableEvidence::format), and `ulps` units of float32.
CellTolerance tolerance(const TableEvidence &e, double largest, double ulps = 1.0);

// A family's candidate: the table as it reads it (`read`) judged on the sample; it claims the table
// where the reference explains it, with `match()` then (called only for a claim).
TableCandidate candidate(const TableEvidence &e, const OffsetReference &read, const CellTolerance &tolerance,
                         const std::function<TableMatch()> &match);

// The frame of a match of a table of offsets: its word, the reference, position 0 at row 0, the
// precision of its values' format (or float32 angles).
TableMatch match(const TableEvidence &e, const QString &table, std::shared_ptr<const OffsetReference> reference,
                 const CellTolerance &tolerance, bool float32Angles = false);

// Why the family (`name`, "T5") has no table `table` at `params` to expect: its table's word is
// `word`, and the parameters must be valid ones of its encoding.
std::optional<QString> refusal(const QString &table, const Params &params, const QString &word, Encoding family,
                               const QString &name);

} // namespace posenc::OffsetFit
