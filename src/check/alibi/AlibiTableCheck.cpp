#include "AlibiTableCheck.h"

#include "check/FitNumbers.h"
#include "check/HeadBiasFit.h"
#include "check/OffsetFit.h"
#include "check/alibi/AlibiSlopeVector.h"
#include "core/NumberText.h"
#include "core/alibi/AlibiSlopes.h"

#include <cmath>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::AlibiTableCheck {

namespace {

const QString kTable = u"alibi-bias"_s;
const QString kSlopeMistake = u"slope-not-get-slopes"_s;

// What the table shows: the slope, what follows the query (the mask's fill, or the symmetric
// bias), the head get_slopes gives it, and the direction of the offset.
struct Found
{
    double slope = 0.0; // get_slopes' value where a head has it, else as measured
    HeadBiasFit::After after {false, -std::numeric_limits<float>::infinity()};
    std::int64_t heads = 0; // the fewest heads whose get_slopes has the slope (a power of two); 0: none
    std::int64_t head = 0;
    // The slope's float32 computation's relative error (AlibiSlopeVector::float32Error), which the
    // cells are allowed: at the declared heads, or read alone at the fewest heads named.
    double slopeError = 0.0;
    // The keys at or before the query hold +m (i − j): the offset taken as query − key, where
    // ALiBi's is key − query (the mistake relative-position-reversed).
    bool reversed = false;
    // The keys after the query hold m (j − i), the causal bias's line carried on, unmasked: the
    // scores before the mask (BloomAttention adds its key bias by alibi.baddbmm, then masked_fill;
    // transformers' modeling_bloom.py), which the causal mask alone makes ALiBi's.
    bool unmasked = false;

    AlibiMask mask() const { return after.twoSided ? AlibiMask::Symmetric : AlibiMask::Causal; }
};

// The slope from the keys at or before the query, value(t) = m t: the median of value(t) / t
// over the nearest offsets the sample holds; negative where the bias grows with the distance.
std::optional<double> measuredSlope(const OffsetProfile &profile)
{
    std::vector<double> slopes;
    for (std::int64_t t = -1; t >= profile.first && slopes.size() < 64; --t) {
        if (profile.has(t))
            slopes.push_back(double(profile.at(t)) / double(t));
    }
    const double m = FitNumbers::median(slopes);
    if (slopes.empty() || m == 0.0 || !std::isfinite(m))
        return std::nullopt;
    return m;
}

// The fewest heads H (a power of two) whose get_slopes gives a head the slope m: head K = -log2(m)
// H / 8 of the geometric series. Every larger H has a head of the same slope, to rounding: float32's,
// or in a table of float16 or bfloat16 values that format's, which the slope measured from its
// rounded cells carries.
void nameHead(Found &found, double m, ValueFormat format)
{
    for (std::int64_t n = 1; n <= AlibiParams::kMaxHeads; n *= 2) {
        const double k = -std::log2(m) * double(n) / 8.0;
        const auto head = std::int64_t(std::llround(k));
        if (head < 1 || head > n)
            continue;
        const double slope = AlibiSlopes::of(n, head);
        // 2e-6 (33 units of 2^-24) holds every float32 computation's slope up to 128 heads and 256's
        // first 171 (AlibiSlopeVector::float32Error); no wider: at 4096 heads every slope lies within
        // 4e-5 of one of theirs, and one table would read any linear bias as ALiBi's. A stack, a
        // vector or a declaration of H holds each head to its own bound.
        const double agreement = format == ValueFormat::Float32 ? 2e-6 : 2.0 * halfUnit(format);
        if (std::fabs(slope / m - 1.0) < agreement) {
            found.heads = n;
            found.head = head;
            found.slope = slope;
            found.slopeError = AlibiSlopeVector::float32Error(n, head);
            return;
        }
    }
    found.slope = m;
    for (const double r : FitNumbers::roundings(m, 9)) {
        if (std::fabs(r / m - 1.0) < 2e-7) {
            found.slope = r;
            return;
        }
    }
}

// Whether the value at offset 1 is +m, the bias m (j − i) carried past the query, at the rounding
// of the table's values.
bool carriesOn(double atOne, double slope, ValueFormat format, double slopeError)
{
    const double relative = format == ValueFormat::Float32 ? 1e-6 + slopeError : 2.0 * halfUnit(format);
    return std::fabs(atOne - slope) <= relative * slope;
}

std::optional<Found> find(const OffsetProfile &profile, ValueFormat format)
{
    if (!profile.has(0) || profile.at(0) != 0.0f || !profile.has(-1))
        return std::nullopt;
    const auto m = measuredSlope(profile);
    if (!m)
        return std::nullopt;
    Found found;
    found.reversed = *m < 0.0;
    nameHead(found, std::fabs(*m), format);
    if (!found.reversed && profile.has(1) && carriesOn(double(profile.at(1)), found.slope, format, found.slopeError)) {
        found.unmasked = true;
        found.after.fill = std::numeric_limits<float>::quiet_NaN();
        return found;
    }
    // After the query: one fill (the mask), or the symmetric bias (of distance 1: -m, reversed +m).
    const double atOne = found.reversed ? found.slope : -found.slope;
    const auto after = HeadBiasFit::readAfter(
        profile, format, atOne, std::nullopt,
        // At the table's rounding: a bfloat16 −m is m to a half unit of 2^-9 (2^-0.5 is −0.70703125
        // there), whatever the slope's head (REPORT-r28a finding 5: symmetric bfloat16 stacks).
        [&](double a, double b) { return carriesOn(-a, -b, format, found.slopeError); }, found.after);
    if (!after)
        return std::nullopt;
    found.after = *after;
    // A bias that grows with the distance is ALiBi's taken the wrong way round only where a head's
    // slope and a causal mask say ALiBi (a symmetric bias has no direction; T5's and DeBERTa's
    // buckets grow as d near the query too).
    if (found.reversed && (found.heads == 0 || found.after.twoSided))
        return std::nullopt;
    return found;
}

// The offsets' values of ALiBi's bias, m (j − i), or with `reversed` of m (i − j).
OffsetReference::Values valuesOf(const Found &found, bool reversed = false)
{
    if (found.unmasked)
        return [slope = found.slope](std::int64_t first, std::int64_t count, float *out) {
            for (std::int64_t k = 0; k < count; ++k)
                out[k] = float(slope * double(first + k));
        };
    return HeadBiasFit::values(
        [slope = reversed ? found.slope : -found.slope](std::int64_t d) { return slope * double(d); }, found.after);
}

// What a table of m (i − j) is: ALiBi's bias with the offset taken as query − key.
QString reversedWords(const Found &found)
{
    return u"the keys at or before the query hold +m (i − j) = %1 (i − j), head %2 of %3's slope with the offset "
           "taken as query − key: ALiBi's bias is m (j − i), the key's position minus the query's (get_slopes, "
           "BLOOM's build_alibi_tensor), so the bias here favours the keys farthest in the past"_s
               .arg(NumberText::compact(found.slope, 6))
               .arg(found.head)
               .arg(found.heads);
}

QString referenceText(const Found &found)
{
    const QString mask = found.unmasked ? u"causal, before its mask (keys after the query m (j − i))"_s
        : found.mask() == AlibiMask::Causal
        ? u"causal (keys after the query %1)"_s.arg(HeadBiasFit::fillWords(found.after.fill))
        : u"symmetric −m|i − j|"_s;
    if (found.heads == 0)
        return u"alibi-bias, slope %1, %2"_s.arg(NumberText::exact(found.slope), mask);
    return u"alibi-bias, head %1 of %2 (get_slopes: m = %3), %4"_s.arg(found.head)
        .arg(found.heads)
        .arg(NumberText::compact(found.slope, 6), mask);
}

QStringList notes(const Found &found, std::int64_t rows)
{
    QStringList notes;
    if (found.heads > 0 && found.heads < AlibiParams::kMaxHeads) {
        // The slope as the fewest heads give it, a power of two P: H's head h among its first P (the
        // power of two at or below H) is P's head h; past them get_slopes(2P)[0::2] gives 2P's head
        // 2 (h − P) − 1. P's head h is then that of every H from P to 2P − 1 (their first P slopes).
        std::int64_t p = 1;
        while (2 * p <= found.heads)
            p *= 2;
        const std::int64_t head = found.head <= p ? found.head : 2 * (found.head - p) - 1;
        const std::int64_t heads = found.head <= p ? p : 2 * p;
        notes.append(u"one head's table does not tell the heads: get_slopes gives m = %1 to head %2 of any H from %3 "
                     "to %4, to head %5 of %6 to %7, and so on (to float32's rounding); the fewest heads named"_s
                         .arg(NumberText::compact(found.slope, 6))
                         .arg(head)
                         .arg(heads)
                         .arg(2 * heads - 1)
                         .arg(2 * head)
                         .arg(2 * heads)
                         .arg(4 * heads - 1));
    }
    if (rows == 1)
        notes.append(u"one row holds the bias of offsets 0 and after: the slope shows only in later rows"_s);
    if (found.mask() == AlibiMask::Causal && !found.unmasked && !std::isinf(found.after.fill))
        notes.append(u"the keys after the query hold %1, %2, as HF's masks fill them (torch.finfo(dtype).min); "
                     "posenc writes −inf"_s.arg(HeadBiasFit::fillWords(found.after.fill),
                                                HeadBiasFit::lowestWords(found.after.fill)));
    return notes;
}

// The cells' rounding; in bfloat16 or float16 also the slope's own, which a bias computed in the
// model's dtype rounds before the product (the slope's bfloat16 times j − i, itself rounded): a
// second half unit of that format.
CellTolerance toleranceOf(const TableEvidence &e, const Found &found)
{
    CellTolerance t = OffsetFit::tolerance(e, found.slope * double(std::max(e.rows(), e.cols())), 2.0);
    // The slope's float32 computation, which every cell m (j − i) carries times |j − i|.
    t.relative += found.slopeError;
    if (e.format != ValueFormat::Float32)
        t.relative += 1.01 * halfUnit(e.format);
    // A slope 2^-k computed exactly (AlibiSlopeVector::exactSlope) times whole distances is exact, in
    // the model's dtype too (a distance whose product the format holds is held itself): a cell whose
    // bias the table's format holds must hold it (CellTolerance::heldFormat).
    int exponent = 0;
    if (found.heads > 0 && AlibiSlopeVector::exactSlope(found.heads, found.head)
        && std::frexp(found.slope, &exponent) == 0.5)
        t.heldFormat = e.format;
    return t;
}

TableMatch matchOf(const TableEvidence &e, const Found &found, std::shared_ptr<const OffsetReference> reference)
{
    TableMatch m = OffsetFit::match(e, kTable, std::move(reference), toleranceOf(e, found));
    m.findings = HeadBiasFit::headFindings(found.heads, found.head);
    m.findings
        += {{u"slope"_s, found.slope}, {u"mask"_s, found.mask() == AlibiMask::Causal ? u"causal"_s : u"symmetric"_s}};
    m.referenceText = referenceText(found);
    m.notes = notes(found, e.rows());
    if (found.heads == 0) {
        m.mistakes = {kSlopeMistake};
        m.verdict = CheckVerdict::Mistake;
        m.diagnosis = u"a linear bias m (j − i) with m = %1, which get_slopes gives no head: its slopes are 2^(−8k/n) "
                      "for n heads a power of two (Press et al. 2022); MPT's gen_slopes with alibi_bias_max other "
                      "than 8 gives others"_s.arg(NumberText::exact(found.slope));
        return m;
    }
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst
        = u"ALiBi's get_slopes for %1 heads (Press et al. 2022; HF's build_alibi_tensor)"_s.arg(found.heads);
    if (found.unmasked) {
        m.diagnosis = u"ALiBi's bias of head %1 of %2 as get_slopes makes it, before the causal mask: m (j − i) = "
                      "%3 (j − i) at every key, the keys after the query not yet masked, as BLOOM's scores hold it "
                      "(BloomAttention adds its key bias m·j by alibi.baddbmm, then masked_fill); ALiBi's bias only "
                      "under that causal mask: in a bidirectional model the keys after the query want −m (j − i) "
                      "(symmetric, x-transformers#88)"_s.arg(found.head)
                          .arg(found.heads)
                          .arg(NumberText::compact(found.slope, 6));
        m.correctAgainst += u", before BLOOM's causal mask"_s;
    } else

        m.diagnosis = u"ALiBi's bias of head %1 of %2 as get_slopes makes it: m (j − i) = −%3 (i − j) for keys at or "
                      "before the query, %4"_s.arg(found.head)
                          .arg(found.heads)
                          .arg(NumberText::compact(found.slope, 6),
                               found.mask() == AlibiMask::Causal ? u"the keys after it masked"_s
                                                                 : u"and −m (j − i) after it (symmetric)"_s);
    Params p;
    p.encoding = Encoding::Alibi;
    p.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    p.alibi.heads = found.heads;
    p.alibi.head = found.head;
    p.alibi.mask = found.mask();
    if (p.isValid())
        m.params = p;
    return m;
}

// The match made the mistake relative-position-reversed: compared with ALiBi's bias, its cells the
// bias of m (i − j) (`read`, TableMatch::asRead).
void markReversed(TableMatch &m, const TableEvidence &e, const Found &found,
                  std::shared_ptr<const OffsetReference> read)
{
    m.markRelativeReversed(reversedWords(found));
    m.asRead = std::move(read);
    m.asReadTolerance = toleranceOf(e, found);
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    const std::optional<OffsetProfile> profile = OffsetFit::profile(e);
    const std::optional<Found> found = profile ? find(*profile, e.format) : std::nullopt;
    if (!found)
        return std::nullopt;
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                   valuesOf(*found), found->after.masked());
    // Reversed, the table is read as m (i − j) and compared with ALiBi's m (j − i).
    const auto read = found->reversed ? std::make_shared<const OffsetReference>(
                          e.cols(), e.sample.queryStart, valuesOf(*found, true), found->after.masked())
                                      : reference;
    return OffsetFit::candidate(e, *read, toleranceOf(e, *found), [&] {
        TableMatch m = matchOf(e, *found, reference);
        if (found->reversed)
            markReversed(m, e, *found, read);
        return m;
    });
}

// Whether every sampled row's key after the query holds its own key's value plus m: the causal bias
// carried past the query, unmasked (Found::unmasked), whatever constant each row holds (RowConstant:
// BLOOM's m·j).
bool carriedOn(const TableEvidence &e, double slope, double slopeError)
{
    std::int64_t seen = 0;
    for (std::int64_t k = 0; k < e.sample.size(); ++k) {
        const std::int64_t i = e.sample.rows[std::size_t(k)];
        if (i + 1 >= e.cols())
            continue;
        const double step = double(e.sample.values(k, i + 1)) - double(e.sample.values(k, i));
        const double scale = std::max(std::fabs(double(e.sample.values(k, i + 1))), slope);
        const double rounding = e.format == ValueFormat::Float32 ? 1e-6 + slopeError : 2.0 * halfUnit(e.format);
        if (!std::isfinite(step) || std::fabs(step - slope) > rounding * scale + 1e-6 * slope)
            return false;
        ++seen;
    }
    return seen > 0;
}

// The match against exactly the table of `params` (HeadBiasFit::hypothesis's expect).
TableMatch expect(const TableEvidence &e, const Params &params)
{
    Found found;
    found.heads = params.alibi.heads;
    found.head = params.alibi.head;
    found.slope = AlibiSlopes::of(found.heads, found.head);
    found.slopeError = AlibiSlopeVector::float32Error(found.heads, found.head);
    found.after.twoSided = params.alibi.mask == AlibiMask::Symmetric;
    found.after = HeadBiasFit::declaredAfter(e, found.after);
    if (!found.after.twoSided && carriedOn(e, found.slope, found.slopeError)) {
        found.unmasked = true;
        found.after.fill = std::numeric_limits<float>::quiet_NaN();
    }
    TableMatch m = matchOf(e, found,
                           std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                   valuesOf(found), found.after.masked()));
    // The declared head's bias taken the wrong way round is named against the declared head (the
    // reading undeclared names the fewest heads of that slope).
    const std::optional<OffsetProfile> profile = OffsetFit::profile(e);
    const std::optional<Found> read = profile ? find(*profile, e.format) : std::nullopt;
    if (read && read->reversed && !found.after.twoSided && std::fabs(read->slope / found.slope - 1.0) < 2e-6)
        markReversed(m, e, found,
                     std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                             valuesOf(found, true), found.after.masked()));
    return m;
}

QList<PublishedForm> publishedForms(std::int64_t)
{
    const auto form = [](const QString &name, const QString &source, std::int64_t heads) {
        Params p;
        p.encoding = Encoding::Alibi;
        p.alibi.heads = heads;
        return PublishedForm {name, source, kTable, p};
    };
    return {form(u"BLOOM-560m"_s, u"bigscience/bloom-560m, config.json"_s, 16),
            form(u"MPT-7B"_s, u"mosaicml/mpt-7b, config.json"_s, 32)};
}

} // namespace

TableHypothesis hypothesis()
{
    // Its words are AlibiWords.json's "check".
    TableHypothesis h = HeadBiasFit::hypothesis(AlibiSlopes::biasFamily(), fit, expect);
    h.mistakes = QStringList {kSlopeMistake, CheckMistakes::kRelativeReversed} + h.mistakes;
    h.publishedForms = publishedForms;
    return h;
}

} // namespace posenc::AlibiTableCheck
