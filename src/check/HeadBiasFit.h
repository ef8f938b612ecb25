#pragma once

#include "check/OffsetProfile.h"
#include "check/OffsetReference.h"
#include "check/TableHypothesis.h"
#include "check/TableMatch.h"
#include "core/HeadBias.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>

// What the hypotheses of a head's bias table share (ALiBi's, Sandwich's; core's HeadBias kit;
// docs/ARCHITECTURE.md, Checking a table): what the table holds after the query (a mask's fill,
// the family's own value there, or the bias of the distance mirrored), the offsets' values from the
// family's bias at a distance, and the head the family names. A family gives its bias, what it
// measures of the distances before the query, and its words.
namespace posenc::HeadBiasFit {

// What a table of a head's bias holds after the query (offsets t = j − i > 0).
struct After
{
    bool twoSided = false; // the bias of the same distance before the query (symmetric, bidirectional)
    // Causal: a mask's fill (MaskFill::is: −inf, or the dtype's lowest), or NaN for the family's own
    // value there.
    float fill = std::numeric_limits<float>::quiet_NaN();

    // Whether the keys after the query hold an infinity.
    bool masked() const { return !twoSided && fill == -std::numeric_limits<float>::infinity(); }
};

// After the query as offset 1 holds it: a mask's fill (MaskFill::is in a table of `format`), the
// family's own causal value (`own`, where it has one), or the bias of distance 1 mirrored
// (`atOne`); `same` says two values agree. `causal` where the table holds no key after the query,
// or another value there: the keys after the query then differ from the reading, a region the
// check reads (ChangedRegion).
std::optional<After> readAfter(const OffsetProfile &profile, ValueFormat format, double atOne,
                               std::optional<double> own, const std::function<bool(double, double)> &same,
                               const After &causal);

// A declared causal reference's keys after the query as the table masks them: where the sample's
// offset 1 holds a mask's fill by the rule the fits read (MaskFill::is), that fill, so that a
// declared table masked with float32's lowest (HF's masks) compares as one masked with −inf does;
// else `declared` as it is (the family's value there, whose cells then deviate).
After declaredAfter(const TableEvidence &e, After declared);

// The offsets' values: `bias` of each distance at and before the query; after it, the fill, the
// family's own value (`own`) or the bias of the distance.
OffsetReference::Values values(std::function<double(std::int64_t distance)> bias, const After &after, double own = 0.0);

// A fill in words: "−inf", or its value.
QString fillWords(float fill);
// Which lowest value a finite fill is: "float32's lowest", "bfloat16's lowest", "float16's lowest",
// or "a mask's fill".
QString lowestWords(float fill);

// The findings `heads` and `head` of the head named, null where no head has the bias (0).
QList<MatchField> headFindings(std::int64_t heads, std::int64_t head);

// A head's bias table's hypothesis, what every such family shares: its one table, the family's bias
// table (`family.table`); its words from the family's words file under "check" ("findingKeys",
// "help" and "referenceCode", empty where no published form cites it); its `fit`; and its expect,
// which refuses a table not the family's or parameters not valid ones of its encoding
// (OffsetFit::refusal) and otherwise gives `matchAt` the parameters, the match carrying them; no
// published forms. The family adds the mistakes it names and any published forms.
TableHypothesis hypothesis(const HeadBias::Family &family,
                           std::function<std::optional<TableCandidate>(const TableEvidence &)> fit,
                           std::function<TableMatch(const TableEvidence &, const Params &)> matchAt);

} // namespace posenc::HeadBiasFit
