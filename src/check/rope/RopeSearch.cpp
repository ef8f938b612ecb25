// RopeFit's search: each rope_type's parameters, from what the sample measured, tried against it
// (docs/ARCHITECTURE.md, Checking a table).
#include "RopeSearch.h"

#include "check/FitNumbers.h"
#include "check/TableMatch.h"
#include "core/ParamTable.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeFit {

namespace {

// How near its type's attention factor an amplitude is no other config's factor: c T for a c this
// near 1 is a scaled table.
constexpr double kNearOne = 1e-3;

// Simpler types first: the one named when several give the same table.
int typeRank(RopeType type)
{
    switch (type) {
    case RopeType::Default:
        return 0;
    case RopeType::Linear:
        return 1;
    case RopeType::Proportional:
        return 2;
    case RopeType::Llama3:
        return 3;
    case RopeType::Yarn:
        return 4;
    case RopeType::LongRope:
        return 5;
    case RopeType::Dynamic:
        return 6;
    }
    return 7;
}

// A theta of many digits is no config's: a dynamic table's grown base, or a fit's guess.
bool roundTheta(const Fit &f)
{
    return FitNumbers::digitsOf(f.hypothesis.params.rope.theta) <= 6;
}

// Likewise a factor: linear's 1.0000016 at a rounded grown base is a fit's guess at a dynamic table
// (whose factor 2 and rope_theta 10000 a config writes), which a half-precision cache's sample
// cannot tell from it.
bool roundFactor(const Fit &f)
{
    const std::optional<double> factor = f.hypothesis.params.rope.factor;
    return !factor || FitNumbers::digitsOf(*factor) <= 6;
}

} // namespace

// `value` as a config writes it: its fewest digits, or float32's nearest value of them (a factor
// saved from float32), within `within` (relative).
double RopeSearch::snapped(double value, double within)
{
    for (const double r : FitNumbers::roundings(value, 9)) {
        for (const double candidate : {r, double(float(r))}) {
            if (std::fabs(candidate / value - 1.0) <= within)
                return candidate;
        }
    }
    return value;
}

RopeSearch::RopeSearch(const FitInput &input, const Measured &measured, RopeLayout layout)
    : m_input(input)
    , m_measured(measured)
    , m_layout(layout)
    , m_bestOfType(8)
    , m_scores(input)
    , m_bound(input)
{
    for (const std::int64_t row : input.sample.rows)
        m_comparedCells += input.framing.compared(row) ? input.sample.cols() : 0;
    if (input.readsOneIn > 0)
        m_readsUpTo = m_comparedCells / input.readsOneIn;
}

bool RopeSearch::roundBest() const
{
    return m_best && roundTheta(*m_best) && roundFactor(*m_best);
}

Params RopeSearch::baseParams() const
{
    Params base;
    base.encoding = Encoding::Rope;
    // The last position the table holds, plus one: max_len of a table from position 0.
    const std::int64_t rows = m_input.sample.tableRows - m_input.framing.firstRow + m_measured.firstPosition;
    base.maxLen = std::clamp<std::int64_t>(rows, 1, Params::kMaxLen);
    RopeFrequencies::setHeadDim(base, m_input.sample.cols());
    base.rope.layout = m_layout;
    return base;
}

double RopeSearch::amplitudeWithin() const
{
    return std::max(1e-5, 4.0 * halfUnit(m_input.format));
}

// The amplitude a parameter would give: 1, or the type's attention factor, when the table holds it
// within amplitudeWithin(); else the amplitude as measured in the fewest digits within what the
// cells pin it to (roundAmplitude()). Each is exact, a candidate the cells must bear out at their
// own tolerance (consider()).
double RopeSearch::snappedAmplitude(const Params &, double typeFactor) const
{
    const double a = m_measured.amplitude;
    for (const double candidate : {1.0, typeFactor}) {
        if (std::fabs(a / candidate - 1.0) < amplitudeWithin())
            return candidate;
    }
    return roundAmplitude();
}

// The amplitude as measured in the fewest digits within its uncertainty (Measured::amplitudeSlack,
// or a text's rounding): float32 cells pin it to ~1e-9, half-precision ones to their rounding only,
// where a round number near it (1.59 for 1.5888) is no more than a guess the cells must bear out.
double RopeSearch::roundAmplitude() const
{
    return snapped(m_measured.amplitude, std::max(amplitudeSlack(), m_input.textRounding));
}

// The amplitude as measured, unrounded: a fitted parameter known to amplitudeSlack(), which the
// cells' tolerance takes in (Hypothesis::amplitudeSlack).
double RopeSearch::measuredAmplitude() const
{
    return m_measured.amplitude;
}

// Four of pair 0's standard errors, at most a cell's own rounding (half a unit of the format, and the
// text's), which a single cell equal to the amplitude pins it to. A float32 table's is ~1e-9; a
// bfloat16 cache's, read from a few hundred rows, some 1e-3 (its half unit is 2^-8).
double RopeSearch::amplitudeSlack() const
{
    const double a = m_measured.amplitude;
    return std::min(halfUnit(m_input.format) + m_input.textRounding / a, 4.0 * m_measured.amplitudeSigma / a);
}

namespace {

// Whether two parameter sets' frequencies agree pair by pair within a part in 10^4.
bool nearFrequencies(const Params &a, const Params &b)
{
    const FrequencySchedule x = RopeFrequencies::schedule(a), y = RopeFrequencies::schedule(b);
    if (x.pairs() != y.pairs())
        return false;
    for (std::int64_t i = 0; i < x.pairs(); ++i) {
        const double u = x.w[std::size_t(i)], v = y.w[std::size_t(i)];
        if (!(std::fabs(u - v) <= 1e-4 * std::max(u, v)))
            return false;
    }
    return true;
}

// Params::isValid() without its list of problems: the first row whose check fails ends it. A
// search validates every candidate, and the list's texts cost more than the checks.
bool valid(const Params &params)
{
    const QList<ParamSpec> &rows = ParamTable::rows();
    return std::none_of(rows.begin(), rows.end(), [&](const ParamSpec &row) { return bool(row.check(params)); });
}

} // namespace

// Fewer cells beyond the tolerance; exact angles before float32 ones; a published form; a round
// theta (a dynamic table before a default one of its grown theta); a round factor; the simpler type; a theta of
// fewer digits; a factor of fewer digits; a smaller error.
bool RopeSearch::better(const Fit &x, const Fit &y) const
{
    if (x.bad() != y.bad())
        return x.bad() < y.bad();
    // A published form and another reading whose frequencies are within a part in 10^4 of its own,
    // both explaining every cell, one with float32 angles: the cells do not pin the frequencies that
    // closely (a bfloat16 table's rope_theta 500000.6, or llama3 of factor 1.00003, is Llama 3's
    // 500000), and the form is what they support.
    if (x.bad() == 0 && x.published.isEmpty() != y.published.isEmpty()
        && nearFrequencies(x.hypothesis.params, y.hypothesis.params))
        return !x.published.isEmpty();
    // Exact angles before float32 ones, where the cells can tell them apart: a half-precision cache's
    // rounding hides float32 angles' error, and a torch float32 dynamic cache there reads as well at
    // linear of factor 1.0000016 and a rounded grown base as at its own parameters.
    if (x.float32Angles != y.float32Angles && m_input.format == ValueFormat::Float32)
        return !x.float32Angles;
    if (x.published.isEmpty() != y.published.isEmpty())
        return !x.published.isEmpty();
    if (roundTheta(x) != roundTheta(y))
        return roundTheta(x);
    if (roundFactor(x) != roundFactor(y))
        return roundFactor(x);
    const int tx = typeRank(x.hypothesis.params.rope.type), ty = typeRank(y.hypothesis.params.rope.type);
    if (tx != ty)
        return tx < ty;
    const int dx = FitNumbers::digitsOf(x.hypothesis.params.rope.theta);
    const int dy = FitNumbers::digitsOf(y.hypothesis.params.rope.theta);
    if (dx != dy)
        return dx < dy;
    // The factor 1 a config writes, not the 0.9999999932 that the table's rounding fits as well.
    const auto factorDigits = [](const Fit &f) {
        const std::optional<double> factor = f.hypothesis.params.rope.factor;
        return factor ? FitNumbers::digitsOf(*factor) : 0;
    };
    if (factorDigits(x) != factorDigits(y))
        return factorDigits(x) < factorDigits(y);
    return x.score.sumSquares < y.score.sumSquares;
}

Hypothesis RopeSearch::hypothesisOf(const Params &params, const RopeFrequencies::Table &table,
                                    ScalingMistake scaling) const
{
    Hypothesis hyp;
    hyp.params = params;
    hyp.scaling = scaling;
    hyp.cosine = m_measured.cosine;
    hyp.firstPosition = m_measured.firstPosition;
    hyp.amplitude = snappedAmplitude(params, table.attentionFactor);
    return hyp;
}

void RopeSearch::boundBy(const Params &params)
{
    if (ScoringCancel::requested() || !valid(params))
        return;
    const RopeFrequencies::Table table = RopeFrequencies::table(params);
    // Counted whole: the memo gives consider() this score again when the search reaches it.
    const Fit f = m_scores.evaluate(hypothesisOf(params, table, ScalingMistake::None), table);
    m_boundBad = std::min(m_boundBad, f.bad());
}

// The hypothesis's fit counted to `stopAfter` (the best's count, the caller's or boundBy()'s bound,
// the least). Where the bound is boundBy()'s and the amplitude as measured explains cells the snapped
// one was stopped at, `cutShort` is set: the choice between them reads the snapped one's count to
// the best's, and the caller scores again at that bound.
Fit RopeSearch::scored(const Hypothesis &hyp, const RopeFrequencies::Table &table, std::int64_t stopAfter,
                       std::int64_t bestBad, bool *cutShort)
{
    const auto stopped
        = [&](const Fit &x) { return x.score.bad > stopAfter && x.score.badWithFloat32Angles > stopAfter; };
    Fit f = m_scores.evaluate(hyp, table, stopAfter);
    // An amplitude snapped to 1, the type's factor or a round number that leaves cells beyond the
    // exact angles' tolerance: c T with c near 1 (1 + 5e-6), which the amplitude as measured
    // explains; a scaled table then, named so (finish()), not a table no formula explains. Or a
    // half-precision cache of an attention factor of many digits (1.5888, not 1.59): the measured
    // amplitude is known only to the cells' rounding, and its uncertainty joins their tolerance.
    // Float32 angles' looser tolerance would hide the amplitude's error at the far rows, so the
    // exact score decides.
    // (A round amplitude of a float32 table, ~1e-9 from the measured one, is that table's: not tried again.)
    // Nor is an amplitude every faithful computation forms exactly (1, the type's factor) that lies
    // within the measured one's slack: the cells cannot tell the two apart, and the measured one
    // explains a cell the exact one leaves by its slack alone, which joins every cell's tolerance, not
    // by its value: a cell 1.14 units of bfloat16 off passed so (issue 62, a sin cache of factor 8).
    const bool indistinct = (hyp.amplitude == 1.0 || hyp.amplitude == table.attentionFactor)
        && std::fabs(measuredAmplitude() / hyp.amplitude - 1.0) <= amplitudeSlack();
    if (f.score.bad > 0 && triesMeasured(hyp) && !indistinct) {
        const Fit g = m_scores.evaluate(measuredVariant(hyp), table, stopAfter);
        if (cutShort && stopped(f) && !stopped(g)) {
            *cutShort = true;
            return f;
        }
        // A g the caller reads chosen over an f stopped at that bound: f counted to the best's count,
        // as without the bound.
        if (stopAfter < bestBad && stopped(f) && !stopped(g)) {
            stopAfter = bestBad;
            f = m_scores.evaluate(hyp, table, stopAfter);
        }
        // The choice below reads f's count: where f stopped and g did not, with 2 g > stopAfter
        // (a stopped count passes stopAfter, so 2 g <= stopAfter takes g at any), f counted over
        // whole runs, the count the choice has always read.
        if (stopped(f) && !stopped(g) && 2 * g.bad() > stopAfter)
            f = m_scores.evaluate(hyp, table, stopAfter, ScoreStop::RunEnds);
        // Taken where it explains most of the cells the snapped one leaves (all of them for c T),
        // not one or two of noisy cells that either amplitude leaves alike.
        if (2 * g.bad() < f.bad() || (g.bad() == f.bad() && f.float32Angles && !g.float32Angles))
            f = g;
    }
    return f;
}

bool RopeSearch::consider(const Params &params, const QString &published, ScalingMistake scaling)
{
    // Cancelled: every search loop ends at its next candidate, as at a fit (identify drops it).
    if (ScoringCancel::requested())
        return true;
    if (!valid(params))
        return false;
    // The type's frequencies once: the amplitude's attention factor and every score's reference.
    const RopeFrequencies::Table table = RopeFrequencies::table(params);
    const Hypothesis hyp = hypothesisOf(params, table, scaling);
    // A fit worse than the best, or past what the caller reads (FitInput::readsOneIn), stops
    // counting within a few tiles of rows (ScoreStop::AnyTile): it is dropped whatever its count, and
    // one that is not stopped is counted whole. So does one worse than boundBy()'s hypothesis, which
    // the search reaches later: the best when it ends is at most that count, which the hypotheses
    // that pass it never are, and those within it are counted as they would be without it.
    const std::int64_t bestBad = m_best ? m_best->bad() : std::numeric_limits<std::int64_t>::max();
    // Past half the compared cells too, where bandedHopeless() cannot read the best's count: no caller
    // reads a fit that leaves more beyond the tolerance (mostlyEquals), whatever its count.
    const std::int64_t bound = std::min(bestBad, m_readsUpTo);
    const std::int64_t tight = std::min(m_boundBad, fastestAtOne() ? m_comparedCells / 2 : m_boundBad);
    // Scored at `bound`, a hypothesis whose shared columns alone pass it is dropped: not scored.
    if (bound <= tight && surelyPast(hyp, table, bound))
        return false;
    bool cutShort = false;
    Fit f
        = bound <= tight ? scored(hyp, table, bound, bestBad, nullptr) : scored(hyp, table, tight, bestBad, &cutShort);
    if (cutShort)
        f = scored(hyp, table, bound, bestBad, nullptr);
    if (params.rope.type == RopeType::Default && scaling == ScalingMistake::None)
        learnDefault(hyp, table);
    // Past what the caller reads: never the best, whose count the next hypotheses would stop at.
    if (f.bad() > m_readsUpTo)
        return false;
    if (!published.isEmpty())
        f.published = {published};
    auto &ofType = m_bestOfType[std::size_t(typeRank(params.rope.type))];
    if (!ofType || better(f, *ofType))
        ofType = f;
    // A mistaken scaling is taken only where it explains more cells than every correct one.
    if (scaling != ScalingMistake::None) {
        if (!m_best || f.bad() < m_best->bad())
            m_best = f;
        return f.bad() == 0 && !f.float32Angles;
    }
    if (!m_best || better(f, *m_best))
        m_best = f;
    else if (!published.isEmpty() && m_best->bad() == 0 && f.bad() == 0
             && f.hypothesis.params == m_best->hypothesis.params)
        m_best->published.append(published);
    return f.bad() == 0 && !f.float32Angles;
}

void RopeSearch::tryPublished(const std::vector<Published> &published)
{
    const Params base = baseParams();
    for (const Published &form : published) {
        if (form.params.rope.type == RopeType::LongRope)
            m_longRopeForms.push_back(form.params);
        const std::optional<std::int64_t> original = form.params.rope.originalMaxLen;
        const bool banded = form.params.rope.type == RopeType::Llama3 || form.params.rope.type == RopeType::Yarn;
        if (banded && original
            && std::find(m_publishedOriginals.begin(), m_publishedOriginals.end(), *original)
                == m_publishedOriginals.end())
            m_publishedOriginals.push_back(*original);
        Params p = form.params;
        p.maxLen = base.maxLen;
        if (p.rope.layout != m_layout || RopeFrequencies::rotaryDim(p.rope) != base.rope.headDim)
            continue;
        consider(p, form.name);
        // LongRoPE's other factors too: HF takes the long ones for a sequence past the original
        // length and the short ones within it, whatever rows a table of them holds.
        if (const auto original = p.rope.originalMaxLen; p.rope.type == RopeType::LongRope && original) {
            p.maxLen = base.maxLen > *original ? *original : *original + 1;
            consider(p, form.name);
        }
    }
}

// The scaled pairs' ratios to theta's: 1 where kept, the factor where divided.
std::vector<double> RopeSearch::ratios(double base) const
{
    const std::int64_t d = m_input.sample.cols();
    std::vector<double> out(m_measured.theta.size(), 1.0);
    for (std::int64_t i = 0; i < m_measured.live; ++i) {
        const double unscaled = std::pow(base, -2.0 * double(i) / double(d));
        if (m_measured.theta[std::size_t(i)].theta > 0.0)
            out[std::size_t(i)] = unscaled / m_measured.theta[std::size_t(i)].theta;
    }
    return out;
}

// The slow pairs' largest ratio, over the pairs the sample pins to a part in a thousand: the
// factor of yarn, llama3 and longrope.
double RopeSearch::largestRatio(double base) const
{
    const std::vector<double> r = ratios(base);
    double largest = 1.0;
    for (std::int64_t i = 0; i < m_measured.live; ++i) {
        const Frequency &f = m_measured.theta[std::size_t(i)];
        if (f.theta > 0.0 && f.sigma < 1e-3 * f.theta)
            largest = std::max(largest, r[std::size_t(i)]);
    }
    return largest;
}

void RopeSearch::tryBase(double base, bool defaultTried)
{
    Params p = baseParams();
    p.rope.theta = base;
    p.rope.type = RopeType::Default;
    // Scored again, the default would change nothing: a second score of the same hypothesis is
    // never better than the best, which has already seen the first.
    if (!defaultTried && consider(p))
        return;
    tryLinear(p);
    if (!matched() && !bandedHopeless())
        tryBanded(p);
}

// Llama 3 and YaRN keep the fastest pair at the default's frequency, 1 (an original length so
// short that it is divided, read as linear, is the exception tryLinear tries): where the sample's
// fastest pair turns at another and the best so far leaves nine cells in ten beyond the tolerance,
// no banded reading at any theta is near. Their thousand-odd hypotheses, each counted nearly whole
// against a best that explains nothing, were two thirds of the check of a table RoPE does not
// explain (random angles, a 2-D RoPE table, a wrong rotation in --apply).
bool RopeSearch::bandedHopeless() const
{
    // boundBy()'s count too: a best it stopped short of it was as far off when counted whole.
    const std::int64_t bad = m_best ? std::min(m_best->bad(), m_boundBad) : 0;
    return m_best && 10 * bad > 9 * m_best->score.compared && !fastestAtOne();
}

bool RopeSearch::fastestAtOne() const
{
    return std::fabs(m_measured.theta[0].theta - 1.0) <= 1e-3;
}

// Linear: every pair divided by the factor.
void RopeSearch::tryLinear(const Params &p)
{
    const double fastest = m_measured.theta[0].theta;
    if (!(std::fabs(fastest - 1.0) > 1e-6))
        return;
    Params q = p;
    q.rope.type = RopeType::Linear;
    for (const double f : FitNumbers::roundings(1.0 / fastest, 8)) {
        q.rope.factor = f;
        if (consider(q))
            return;
    }
}

bool RopeSearch::tryDefault(double base)
{
    Params p = baseParams();
    p.rope.theta = base;
    p.rope.type = RopeType::Default;
    return consider(p);
}

// A slow pair that turns by less than the table's rounding over its rows reads as one of
// proportional's pairs at frequency 0: the live pairs are any count from the measured one up, and
// the partial_rotary_factor a config writes has few digits (0.25, 0.5, not 0.40625), tried first;
// the measured count's after those of at most two digits.
void RopeSearch::tryProportional(double base)
{
    const double fastest = m_measured.theta[0].theta;
    const std::int64_t d = m_input.sample.cols();
    Params p = baseParams();
    p.rope.theta = base;
    p.rope.type = RopeType::Proportional;
    const auto share = [&](std::int64_t live) { return 2.0 * double(live) / double(d); };
    std::vector<std::int64_t> lives {m_measured.live};
    for (std::int64_t live = m_measured.live + 1; 2 * live < d; ++live) {
        if (FitNumbers::significantDigits(share(live)) <= 2)
            lives.push_back(live);
    }
    std::stable_sort(lives.begin(), lives.end(), [&](std::int64_t a, std::int64_t b) {
        return FitNumbers::significantDigits(share(a)) < FitNumbers::significantDigits(share(b));
    });
    for (const std::int64_t live : lives) {
        p.rope.partialRotaryFactor = RopeFrequencies::factorForLivePairs(p.rope, live);
        for (const double f : FitNumbers::roundings(1.0 / fastest, 8)) {
            p.rope.factor = f;
            if (consider(p))
                return;
        }
    }
}

// Dynamic NTK's base grows to theta (f L / L0 - (f - 1))^(r / (r - 2)) at max_len L past the
// original L0: a default table of that base. Each factor and original length whose growth takes a
// round theta to the fitted base, within what the fast pairs pin it to.
void RopeSearch::tryDynamic()
{
    const std::int64_t d = m_input.sample.cols();
    if (d <= 2)
        return;
    const Params base = baseParams();
    const double length = double(base.maxLen);
    for (const double f : {2.0, 4.0, 8.0, 16.0, 32.0}) {
        // Every power of two below the length: posenc writes originals down to 1 (a head of 6 from 32).
        for (std::int64_t original = 1; double(original) < length; original *= 2) {
            const double growth = std::pow(f * length / double(original) - (f - 1.0), double(d) / double(d - 2));
            for (const double theta : FitNumbers::roundings(m_measured.fittedBase / growth, 3)) {
                if (FitNumbers::digitsOf(theta) > 3 || std::fabs(theta * growth / m_measured.fittedBase - 1.0) > 2e-3)
                    continue;
                Params q = base;
                q.rope.type = RopeType::Dynamic;
                q.rope.theta = theta;
                q.rope.factor = f;
                q.rope.originalMaxLen = original;
                if (consider(q))
                    return;
            }
        }
    }
}

void RopeSearch::tryRoundedPositions()
{
    const std::int64_t lastPosition = m_measured.firstPosition + m_input.sample.rows.back() - m_input.framing.firstRow;
    for (const PositionRounding rounding : {PositionRounding::BFloat16, PositionRounding::Float16}) {
        const bool shows = rounding == PositionRounding::BFloat16 ? lastPosition > 256 : lastPosition > 2048;
        if (!shows || (rounding == PositionRounding::Float16 && lastPosition > 65504))
            continue;
        Hypothesis h = m_best->hypothesis;
        h.rounding = rounding;
        Fit f = m_scores.evaluate(h);
        f.published = m_best->published;
        if (f.bad() < m_best->bad())
            m_best = f;
    }
}

Fit RopeSearch::finish(std::optional<RopeLayout> declared) const
{
    Fit result = *m_best;
    const RopeParams &rope = result.hypothesis.params.rope;
    result.correct = result.hypothesis;
    result.correct.rounding = PositionRounding::None;
    // Row 0 at position 0, or at the ids' first where they start past 0.
    result.correct.firstPosition = m_input.framing.firstRow + m_input.firstPosition;
    if (result.hypothesis.firstPosition != result.correct.firstPosition)
        result.mistakes.append(CheckMistakes::kPositionOffset);
    if (result.hypothesis.rounding != PositionRounding::None)
        result.mistakes.append(CheckMistakes::kHalfPrecisionAngles);
    if (declared && *declared != m_layout)
        result.mistakes.append(u"rope-layout"_s);
    if (result.hypothesis.scaling != ScalingMistake::None) {
        result.mistakes.append(u"rope-scaling-reversed"_s);
        result.correct.scaling = ScalingMistake::None;
    }
    const double amplitude = result.hypothesis.amplitude;
    // YaRN at amplitude 1 where no mscale was read: mscale equal to mscale_all_dim, as DeepSeek-V3's
    // and Mistral 3's configs give, makes the attention factor get_mscale(f, mscale) /
    // get_mscale(f, mscale_all_dim) = 1 (transformers modeling_rope_utils.py,
    // _compute_yarn_parameters): a published computation, not attention-factor-missing, which only a
    // declared reference of another factor can show (issue 56).
    if (rope.type == RopeType::Yarn && std::fabs(result.typeAttentionFactor - 1.0) > 1e-9
        && std::fabs(amplitude - 1.0) < amplitudeWithin() && !rope.mscale && !rope.mscaleAllDim
        && !rope.attentionFactor) {
        for (Hypothesis *h : {&result.hypothesis, &result.correct}) {
            h->params.rope.mscale = 1.0;
            h->params.rope.mscaleAllDim = 1.0;
        }
        result.typeAttentionFactor = 1.0;
        result.notes.append(u"attention factor 1: YaRN with mscale equal to mscale_all_dim (DeepSeek-V3's and "
                            "Mistral 3's configs), get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim); "
                            "without them HF's default is 0.1 ln(factor) + 1, which a declared reference shows"_s);
    }
    // A type that reads no attention_factor multiplies by 1: an amplitude below 1, or of 2 and more
    // (sqrt(head_dim)), scaled the table. Between 1 and 2 it may be yarn's or LongRoPE's factor of a
    // table whose frequencies are the default's (LongRoPE's short factors all 1): no mistake named,
    // and no published form has it. Within kNearOne of the type's factor it is no config's factor
    // either (yarn's least, 0.1 ln(factor) + 1, is 1.001 at factor 1.01): c T, scaled.
    const double factor = result.typeAttentionFactor;
    // A measured amplitude is c only beyond its uncertainty (a half-precision cache's rounding).
    const double off = std::fabs(amplitude / factor - 1.0);
    const bool nearFactor = amplitude != factor && off < kNearOne && off > result.hypothesis.amplitudeSlack;
    if ((std::fabs(factor - 1.0) < 1e-12 && rope.type != RopeType::Yarn && rope.type != RopeType::LongRope
         && std::fabs(amplitude - 1.0) > amplitudeWithin() && (amplitude < 1.0 || amplitude >= 2.0))
        || nearFactor) {
        result.mistakes.append(CheckMistakes::kScaled);
        result.correct.amplitude = factor;
    }
    if (rope.type == RopeType::Yarn && std::fabs(result.typeAttentionFactor - 1.0) > 1e-9
        && std::fabs(amplitude - 1.0) < amplitudeWithin()) {
        result.mistakes.append(u"attention-factor-missing"_s);
        result.correct.amplitude = result.typeAttentionFactor;
    } else if (rope.type == RopeType::LongRope && !rope.attentionFactor
               && std::fabs(amplitude - 1.0) < amplitudeWithin()) {
        // A factor per pair fitted freely gives its amplitude as attention_factor: none missing.
        bool scaled = false;
        for (const double r : rope.shortFactor)
            scaled = scaled || std::fabs(r - 1.0) > 1e-3;
        if (scaled)
            result.mistakes.append(u"attention-factor-missing"_s);
    }
    // Other types that give the same table.
    for (const auto &other : m_bestOfType) {
        if (!other || other->bad() != 0 || other->hypothesis.params.rope.type == rope.type)
            continue;
        result.notes.append(
            u"rope_type %1 gives the same table"_s.arg(RopeTypes::word(other->hypothesis.params.rope.type)));
    }
    return result;
}

} // namespace posenc::RopeFit
