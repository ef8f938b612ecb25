#include "RopeTableCheck.h"

#include "check/PairReference.h"
#include "check/rope/RopeCheckWords.h"
#include "check/rope/RopeDeclaredFactor.h"
#include "check/rope/RopeDeclaredLayout.h"
#include "check/rope/RopeDeclaredWidth.h"
#include "check/rope/RopeFit.h"
#include "check/rope/RopeFrequencyMistakes.h"
#include "check/rope/RopeFunctionReplaced.h"
#include "check/rope/RopeHalfCache.h"
#include "check/rope/RopeHalfAngles.h"
#include "check/rope/RopeHalfAnglesRead.h"
#include "check/rope/RopeInvFreq.h"
#include "check/rope/RopeRegionFactor.h"
#include "check/rope/RopeLongRopeForms.h"
#include "check/rope/RopeLongRopeSwitch.h"
#include "check/rope/RopeLongShortCache.h"
#include "check/rope/RopeOneCopy.h"
#include "check/rope/RopePublishedForms.h"
#include "check/rope/RopeRowPositions.h"
#include "check/rope/RopeZeroPairs.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::RopeTableCheck {

namespace {

const QString kCos = u"rope-cos"_s;
const QString kSin = u"rope-sin"_s;
const QString kZeroPairsMisplaced = u"zero-pairs-misplaced"_s;
const QString kLongRopeFactor = u"longrope-factor"_s;
constexpr double kConfigThetas[] = {10000.0, 150000.0, 500000.0, 1000000.0, 5000000.0}; // the configs' rope_theta

// The fit's input of `e` (or of `sample`, e's rows rearranged), from the ids' first position.
RopeFit::FitInput inputOf(const TableEvidence &e, const TableSample *sample = nullptr, std::int64_t readsOneIn = 0)
{
    return {sample ? *sample : e.sample, e.framing, e.format, e.table.storedType(), e.table.textRounding(), readsOneIn,
            e.declared.firstPosition};
}

const auto declaredLayout = RopeDeclaredLayout::of;
std::vector<RopeFit::Published> formsAt(std::int64_t cols);
QString nearestPublished(const Params &p);

// How far an amplitude may be from a published one's: 1e-6 (float32's factor) for a parameter's, twice
// what the cells pin a measured one to (`slack`); never the cells' rounding (1.1873 is not Phi-3's 1.1902).
double amplitudeTolerance(double slack)
{
    return std::max(1e-6, 2.0 * slack);
}

// The lengths `form` is tried at against a table of `length` rows: that length, and LongRoPE's other
// regime (HF takes the long factors past the original length, whatever rows a table holds).
QList<std::int64_t> lengthsOf(const Params &form, std::int64_t length)
{
    QList<std::int64_t> lengths {length};
    const std::optional<std::int64_t> original = form.rope.originalMaxLen;
    if (form.rope.type == RopeType::LongRope && original)
        lengths.append(length > *original ? *original : *original + 1);
    return lengths;
}

// The published forms whose table is that of `p` at `amplitude`: the same frequencies, and the
// amplitude within `tolerance`, in either layout (HF's Llama rotates halves, Meta's code
// interleaved pairs); another original length with the same bands, or another rope_type with the
// same frequencies (LongRoPE's short factors of 1 are the default type's), gives the same table.
// The parameters kept are the first form's, or the first written with `p`'s head_dim and factor.
struct PublishedMatch
{
    QStringList names;
    Params params; // the first form's, in `p`'s layout: the reference every cell is compared with
};

PublishedMatch publishedMatch(const Params &p, double amplitude, double tolerance)
{
    PublishedMatch match;
    bool preferred = false;
    const FrequencySchedule mine = RopeFrequencies::schedule(p);
    for (const RopeFit::Published &form : formsAt(RopeFrequencies::rotaryDim(p.rope))) {
        for (const std::int64_t length : lengthsOf(form.params, p.maxLen)) {
            Params q = form.params;
            q.maxLen = length;
            const FrequencySchedule theirs = RopeFrequencies::schedule(q);
            bool same = theirs.pairs() == mine.pairs()
                && std::fabs(theirs.amplitude - amplitude) <= tolerance * theirs.amplitude;
            for (std::int64_t i = 0; same && i < mine.pairs(); ++i)
                same = std::fabs(theirs.w[std::size_t(i)] - mine.w[std::size_t(i)]) <= 1e-12 * mine.w[std::size_t(i)];
            if (!same || match.names.contains(form.name))
                continue;
            // The reference's words are those of a form written as `p` is (its head_dim and
            // partial_rotary_factor): GPT-J's rotary_dim 64 as 256 x 0.25 is no 64-column head's.
            const bool asWritten = q.rope.headDim == p.rope.headDim
                && q.rope.partialRotaryFactor == p.rope.partialRotaryFactor;
            if (match.names.isEmpty() || (asWritten && !preferred)) {
                match.params = q;
                match.params.rope.layout = p.rope.layout;
                preferred = asWritten;
            }
            match.names.append(form.name);
        }
    }
    return match;
}

// A LongRoPE table that is a published form's but for the factors of a few pairs (at most an
// eighth of them): a factor changed or mistyped, where a free factor per pair would make any such
// table a variant. The form with the fewest such pairs, and its list that the table's rows take.
struct ChangedFactors
{
    QString name;
    Params params; // the form's, in `p`'s layout
    std::vector<RopeCheckWords::PairFactor> pairs;
};

std::optional<ChangedFactors> changedFactors(const Params &p, double amplitude, double tolerance)
{
    if (p.rope.type != RopeType::LongRope)
        return std::nullopt;
    const FrequencySchedule mine = RopeFrequencies::schedule(p);
    const std::int64_t rotary = RopeFrequencies::rotaryDim(p.rope);
    std::optional<ChangedFactors> best;
    for (const RopeFit::Published &form : RopeLongRopeForms::forms()) {
        if (form.params.rope.theta != p.rope.theta || RopeFrequencies::rotaryDim(form.params.rope) != rotary)
            continue;
        for (const std::int64_t length : lengthsOf(form.params, p.maxLen)) {
            Params q = form.params;
            q.maxLen = length;
            q.rope.layout = p.rope.layout;
            const FrequencySchedule theirs = RopeFrequencies::schedule(q);
            if (theirs.pairs() != mine.pairs()
                || !(std::fabs(theirs.amplitude - amplitude) <= tolerance * theirs.amplitude))
                continue;
            const bool longList = q.maxLen > q.rope.originalMaxLen.value_or(0);
            const std::vector<double> &published = longList ? q.rope.longFactor : q.rope.shortFactor;
            ChangedFactors changed {form.name, q, {}};
            for (std::int64_t i = 0; i < mine.pairs(); ++i) {
                const auto k = std::size_t(i);
                if (std::fabs(theirs.w[k] - mine.w[k]) > 1e-12 * theirs.w[k] && k < published.size())
                    changed.pairs.push_back({i, theirs.w[k] / mine.w[k] * published[k], published[k], longList});
            }
            if (changed.pairs.empty()
                || std::int64_t(changed.pairs.size()) > std::max<std::int64_t>(1, mine.pairs() / 8))
                continue;
            if (!best || changed.pairs.size() < best->pairs.size())
                best = std::move(changed);
        }
    }
    return best;
}

TableMatch matchOf(const TableEvidence &e, const RopeFit::Fit &fit)
{
    const RopeFit::Hypothesis &h = fit.hypothesis;
    // A sin table's first row is sin(0) = 0, which the framing took for padding: it is position 0.
    RowFraming framing = e.framing;
    RopeFit::Hypothesis correct = fit.correct;
    std::int64_t firstPosition = h.firstPosition;
    if (!h.cosine && framing.firstRow > 0 && h.firstPosition >= framing.firstRow) {
        firstPosition -= framing.firstRow;
        correct.firstPosition -= framing.firstRow;
        framing.firstRow = 0;
    }
    const RopeParams &rope = h.params.rope;
    TableMatch m;
    m.table = h.cosine ? kCos : kSin;
    m.findings = {{u"layout"_s, RopeCheckWords::layout(rope.layout)},
                  {u"base"_s, rope.theta},
                  {u"rope_type"_s, RopeTypes::word(rope.type)},
                  {u"attention_factor"_s, h.amplitude}};
    m.positionOffset = firstPosition - framing.firstRow;
    m.firstPositionRow = framing.firstRow;
    m.precision = tablePrecision(e.format, fit.float32Angles);
    m.mistakes = fit.mistakes;
    if (const auto declared = declaredLayout(e))
        correct.params.rope.layout = *declared;
    // An amplitude that is not the type's: an attention_factor given, which yarn and longrope read.
    const RopeType type = correct.params.rope.type;
    if ((type == RopeType::Yarn || type == RopeType::LongRope)
        && std::fabs(correct.amplitude - RopeFrequencies::table(correct.params).attentionFactor)
            > 1e-9 * correct.amplitude)
        correct.params.rope.attentionFactor = correct.amplitude;
    PairReferenceSpec spec = RopeFit::reference(correct, framing);
    m.reference = std::make_shared<const PairReference>(spec);
    // A published form's table: its own parameters are the reference, every cell compared with
    // them, and what the report finds.
    const PublishedMatch published = fit.mistakes.empty()
        ? publishedMatch(correct.params, h.amplitude, amplitudeTolerance(h.amplitudeSlack))
        : PublishedMatch();
    const QStringList &names = published.names;
    if (!names.isEmpty()) {
        correct.params = published.params;
        correct.amplitude = RopeFrequencies::schedule(published.params).amplitude;
        spec = RopeFit::reference(correct, framing);
        m.reference = std::make_shared<const PairReference>(spec);
        m.findings = {{u"layout"_s, RopeCheckWords::layout(correct.params.rope.layout)},
                      {u"base"_s, correct.params.rope.theta},
                      {u"rope_type"_s, RopeTypes::word(correct.params.rope.type)},
                      {u"attention_factor"_s, correct.amplitude}};
    }
    m.tolerance = cellTolerance(e.format, fit.float32Angles, e.table.storedType(), e.table.textRounding(), spec);
    if (correct.params.isValid())
        m.params = correct.params;
    m.referenceText = RopeCheckWords::reference(correct);
    m.diagnosis = RopeCheckWords::diagnosis(fit, correct);
    m.notes = fit.notes + RopeCheckWords::notes(fit);
    if (!m.mistakes.empty()) {
        m.verdict = CheckVerdict::Mistake;
    } else if (!names.isEmpty()) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = u"the RoPE %1 table of %2"_s.arg(h.cosine ? u"cos"_s : u"sin"_s, names.join(u", "_s));
        // The verdict rule (issue 56): a correct names its reference, every published form equal to it.
        m.diagnosis += u"; the published form%1 of %2"_s.arg(names.size() > 1 ? u"s"_s : QString(),
                                                             names.join(u", "_s));
        // LongRoPE's factors of the other side of the original length than the table's rows.
        RopeLongRopeSwitch::judgeRegime(m, correct.params, e.declared.firstPosition, e.rows());
    } else if (const auto changed = changedFactors(correct.params, h.amplitude, amplitudeTolerance(h.amplitudeSlack))) {
        // The published form is the reference: the changed pairs' columns deviate from it.
        correct.params = changed->params;
        correct.amplitude = RopeFrequencies::schedule(changed->params).amplitude;
        spec = RopeFit::reference(correct, framing);
        m.reference = std::make_shared<const PairReference>(spec);
        m.tolerance = cellTolerance(e.format, fit.float32Angles, e.table.storedType(), e.table.textRounding(), spec);
        m.params = correct.params;
        m.referenceText = RopeCheckWords::reference(correct);
        m.mistakes.append(kLongRopeFactor);
        m.verdict = CheckVerdict::Mistake;
        m.diagnosis = RopeCheckWords::changedFactors(changed->pairs, changed->name, correct.params.rope.layout,
                                                     spec.schedule.pairs());
    } else {
        m.verdict = CheckVerdict::Variant;
        m.diagnosis = RopeCheckWords::variant(correct, nearestPublished(correct.params));
        // LongRoPE's factors read pair by pair from the sample (RopeSearch::tryLongRope), no
        // published form's: a free fit, whose own residual is no deviation.
        if (correct.params.rope.type == RopeType::LongRope)
            m.freeFit = u"LongRoPE with a factor per pair (rope_theta %1)"_s.arg(
                NumberText::exact(correct.params.rope.theta));
    }
    return m;
}

// RoFormer's RoPE at a table's width: the default type at theta 10000, in either layout (GPT-J's
// and RoFormer's interleaved pairs, GPT-NeoX's and Llama's rotate_half).
std::vector<RopeFit::Published> formsAt(std::int64_t cols)
{
    std::vector<RopeFit::Published> forms = RopePublishedForms::forms();
    for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
        Params p;
        p.encoding = Encoding::Rope;
        RopeFrequencies::setHeadDim(p, cols);
        p.rope.theta = 10000.0;
        p.rope.layout = layout;
        forms.push_back({u"RoFormer (Su et al. 2021, theta 10000, the default rope_type)"_s, p});
    }
    return forms;
}

// The published form nearest `p`: of its rope_type and width, the nearest theta; else RoFormer's.
QString nearestPublished(const Params &p)
{
    const RopeFit::Published *nearest = nullptr;
    double distance = 0.0;
    const std::vector<RopeFit::Published> forms = formsAt(RopeFrequencies::rotaryDim(p.rope));
    for (const RopeFit::Published &form : forms) {
        if (form.params.rope.type != p.rope.type
            || RopeFrequencies::rotaryDim(form.params.rope) != RopeFrequencies::rotaryDim(p.rope))
            continue;
        const double d = std::fabs(std::log(form.params.rope.theta / p.rope.theta));
        if (!nearest || d < distance) {
            nearest = &form;
            distance = d;
        }
    }
    if (!nearest)
        nearest = &forms.back();
    return u"%1 (rope_type %2, theta %3)"_s.arg(nearest->name, RopeTypes::word(nearest->params.rope.type),
                                                NumberText::exact(nearest->params.rope.theta));
}

// A proportional table whose identity pairs sit elsewhere than HF puts them: fitted with its
// columns moved to HF's places, named against HF's table (RopeZeroPairs).
std::optional<TableCandidate> misplacedZeroPairs(const TableEvidence &e)
{
    const auto placement = RopeZeroPairs::misplaced(e.sample, e.framing, RopeZeroPairs::identityTolerance(e.format, e.table.textRounding()));
    if (!placement)
        return std::nullopt;
    const TableSample moved = RopeZeroPairs::inHfOrder(e.sample, *placement);
    const RopeFit::FitInput input = inputOf(e, &moved);
    std::optional<RopeFit::Fit> found = RopeFit::fit(input, placement->layout, declaredLayout(e), formsAt(e.cols()));
    if (!found || found->hypothesis.params.rope.type != RopeType::Proportional
        || !explains(found->score.compared, found->bad()))
        return std::nullopt;
    // Turning columns whose exponent divides by their own count, not head_dim, at a config's theta:
    // a partial rotary table (GPT-NeoX's) with its passed columns written out, not proportional's.
    const auto configTheta = [](double theta) {
        return std::any_of(std::begin(kConfigThetas), std::end(kConfigThetas),
                           [&](double t) { return std::fabs(theta / t - 1.0) < 1e-6; });
    };
    const double theta = found->hypothesis.params.rope.theta;
    if (!configTheta(theta) && configTheta(std::pow(theta, 2.0 * double(placement->livePairs) / double(e.cols()))))
        return std::nullopt;
    TableCandidate c;
    c.compared = found->score.compared;
    c.bad = found->bad();
    c.claims = true;
    c.match = matchOf(e, *found);
    c.match.mistakes.prepend(kZeroPairsMisplaced);
    c.match.verdict = CheckVerdict::Mistake;
    c.match.correctAgainst.clear();
    const QString inner
        = found->mistakes.isEmpty() ? u"the correct table is %1"_s.arg(c.match.referenceText) : c.match.diagnosis;
    c.match.diagnosis = RopeZeroPairs::diagnosis(*placement, e.cols()) + u"; "_s + inner;
    return c;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.infinite || e.sameRow)
        return std::nullopt;
    const double repeatTolerance = 4.0 * 0x1p-23 + 2.0 * e.table.textRounding();
    // A relative bias (a function of j - i) is no rotation: its columns may repeat as an
    // interleaved RoPE's do (T5's buckets), but no search of rope_theta can explain it.
    if (RopeFit::movesAlongDiagonals(e.sample, repeatTolerance))
        return std::nullopt;
    const auto layout = RopeFit::repeatedLayout(e.sample, e.framing, repeatTolerance);
    if (!layout) {
        if (auto misplaced = misplacedZeroPairs(e))
            return misplaced;
        const auto fitWidened = [&e](const TableSample &widened) {
            return RopeFit::fit(inputOf(e, &widened), RopeLayout::Half, std::nullopt, formsAt(2 * e.cols()));
        };
        if (auto half = RopeHalfCache::read(e, fitWidened, [&e](const RopeFit::Fit &f) { return matchOf(e, f); }))
            return half;
        // One copy read over the other searches RoPE's forms four times: made only where no
        // family claims the table.
        TableCandidate later;
        later.partialLater = [&e]() {
            return RopeOneCopy::read(
                e, [&e](const TableSample &copied, RopeLayout copiedLayout) -> std::optional<TableMatch> {
                    // Read only where it explains the copy: a hypothesis past that stops there.
                    const auto found
                        = RopeFit::fit(inputOf(e, &copied, 10), copiedLayout, declaredLayout(e), formsAt(e.cols()));
                    if (!found || !explains(found->score.compared, found->bad()))
                        return std::optional<TableMatch>();
                    return std::optional(matchOf(e, *found));
                });
        };
        return later;
    }
    const RopeFit::FitInput input = inputOf(e);
    std::optional<RopeFit::Fit> found = RopeFit::fit(input, *layout, declaredLayout(e), formsAt(e.cols()));
    const bool fewRows = !found && e.sample.size() <= 4;
    if (fewRows)
        found = RopeFit::fitFewRows(input, *layout, declaredLayout(e));
    // Rows at other positions: each row read back against the fit, or RoPE fitted to the leading rows.
    const auto leadingFit = [&](const TableSample &s) {
        return RopeFit::fit({s, e.framing, e.format, input.stored, input.textRounding}, *layout, declaredLayout(e),
                            formsAt(e.cols()));
    };
    if (auto moved = RopeRowPositions::fromLeadingRows(e, found, leadingFit,
                                                       [&](const RopeFit::Fit &f) { return matchOf(e, f); }))
        return moved;
    // Unclaimed: zero pairs elsewhere than HF's, or angles formed in half precision (RopeHalfAnglesRead).
    const auto unclaimed = [&e, &layout]() {
        auto other = misplacedZeroPairs(e);
        return other ? other : RopeHalfAnglesRead::read(e, *layout, [&e](const RopeFit::Fit &f) { return matchOf(e, f); });
    };
    if (!found)
        return unclaimed();
    TableCandidate c;
    c.compared = found->score.compared;
    c.bad = found->bad();
    c.claims = explains(c.compared, c.bad);
    if (!c.claims) {
        if (auto other = unclaimed())
            return other;
        if (mostlyEquals(c.compared, c.bad))
            c.partial = matchOf(e, *found);
        return c;
    }
    c.match = matchOf(e, *found);
    if (!found->mistakes.isEmpty()) { // the table the mistake makes (TableMatch::asRead)
        const PairReferenceSpec read = RopeFit::reference(found->hypothesis, e.framing);
        c.match.asRead = std::make_shared<const PairReference>(read);
        c.match.asReadTolerance = cellTolerance(e.format, found->float32Angles, input.stored, input.textRounding, read);
    }
    const std::int64_t pairs = e.cols() / 2;
    if (fewRows || pairs == 1)
        c.match.notes.append(RopeCheckWords::thetaNotShown(pairs, e.rows()));
    return c;
}

// A declared table whose rows read at other positions of the declared frequencies (`positions`,
// RopeRowPositions) that the undeclared fit explains whole at other parameters: row r of an
// unscaled table is row 8r of linear x8's (held-out set 7, B9: mlxcel#1340, Gemma 3's global layers
// without their linear factor). The parameter reading wins, named as an inv_freq vector is
// (RopeInvFreq::expect: rope-type, rope-factor, rope-theta, with both values), the positions said
// with it; nothing where the fit does not explain every sampled cell or names no parameter.
std::optional<TableMatch> parameterReading(const TableEvidence &e, const RopeFit::Fit &fit, const QString &positions)
{
    const RopeFit::Hypothesis &declared = fit.hypothesis;
    const auto found = RopeFit::fit(inputOf(e), declared.params.rope.layout, declaredLayout(e), formsAt(e.cols()));
    if (!found || found->bad() != 0 || !found->mistakes.isEmpty() || found->hypothesis.cosine != declared.cosine)
        return std::nullopt;
    const std::vector<double> inv = RopeFrequencies::table(found->hypothesis.params).inv;
    const TableMatch named = RopeInvFreq::expect(inv, StoredType::Float64, declared.params);
    if (named.verdict != CheckVerdict::Mistake || named.mistakes.isEmpty())
        return std::nullopt;
    RopeFit::Fit f = fit;
    f.mistakes.append(named.mistakes);
    TableMatch m = matchOf(e, f);
    m.diagnosis = u"the table's frequencies: %1; read with the declared frequencies instead, %2"_s.arg(
        named.diagnosis, positions);
    return m;
}

// A declared table that deviates, named: rows at other positions, a later chunk, or of LongRoPE's other list
// (RopeRowPositions), its other list throughout or switched at a row (RopeLongRopeSwitch); else as streamed.
TableMatch rowsNamed(const TableEvidence &e, RopeFit::Fit fit, const RopeFit::Fit &declared)
{
    // A reference of one LongRoPE list (a reference table's reading): the other read from the table.
    const auto leading = RopeLongRopeSwitch::withLeadingList(e, fit.hypothesis, formsAt(e.cols()));
    fit.hypothesis = leading ? leading->completed : fit.hypothesis;
    if (auto rows = RopeRowPositions::name(e, fit.hypothesis)) {
        rows->diagnosis += leading ? RopeLongRopeSwitch::readWords(*leading, rows->mistakes) : QString();
        if (rows->longShortCache || rows->offset) // vLLM's cache of the declared LongRoPE; a later chunk
            return rows->offset ? RopeRowPositions::chunk(e, fit, *rows, [&e](const auto &f) { return matchOf(e, f); })
                                : RopeLongShortCache::asCache(matchOf(e, fit), e, rows->diagnosis);
        if (rows->mistakes.contains(ApplyCheck::kPositionsOutOfOrder)
            || rows->mistakes.contains(RopeRowPositions::kPositionsScaled))
            if (auto named = parameterReading(e, fit, rows->diagnosis))
                return std::move(*named);
        fit.mistakes.append(rows->mistakes);
        TableMatch m = matchOf(e, fit);
        m.diagnosis = rows->diagnosis;
        return m;
    }
    if (fit.hypothesis.params.rope.type != RopeType::LongRope)
        return matchOf(e, fit);
    const std::int64_t original = fit.hypothesis.params.rope.originalMaxLen.value_or(0);
    const std::int64_t sequence = fit.hypothesis.params.maxLen;
    QString diagnosis;
    if (const auto n = RopeLongRopeSwitch::switchRow(e, fit.hypothesis)) {
        fit.mistakes.append(RopeLongRopeSwitch::kSwitched);
        diagnosis = RopeLongRopeSwitch::switchedWords(*n, e.rows(), original);
    } else {
        const RopeFit::Hypothesis other = RopeLongRopeSwitch::otherList(fit.hypothesis);
        if (RopeFit::evaluate(inputOf(e), other).bad() >= declared.bad())
            return matchOf(e, fit);
        fit.hypothesis = other;
        fit.mistakes.append(RopeLongRopeSwitch::kFactorSet);
        diagnosis = RopeLongRopeSwitch::factorSetWords(sequence > original, sequence, original);
    }
    TableMatch m = matchOf(e, fit);
    m.diagnosis = diagnosis;
    return m;
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &declaredParams, const QString &table)
{
    // LongRoPE switches as transformers does (modeling_rope_utils.py, longrope_frequency_update:
    // long_factor where max(position_ids) + 1 > original_max_position_embeddings): rows 0..L-1 from
    // the first position declared (--position-ids: F..) are a sequence of F + L positions, whatever
    // the config's max_position_embeddings (issue 56, mlx-lm's SuScaledRoPE). A de-interleaving
    // model's table in either layout (RopeDeclaredLayout): the rows' own.
    Params params = declaredParams;
    const std::int64_t first = e.declared.firstPosition;
    if (params.rope.type == RopeType::LongRope)
        params.maxLen = std::clamp<std::int64_t>(first + e.rows(), 1, Params::kMaxLen);
    if (RopeDeclaredLayout::eitherLayout(params))
        params.rope.layout = RopeDeclaredLayout::read(e.sample).value_or(params.rope.layout);
    if (table != kCos && table != kSin)
        return u"RoPE's tables are 'rope-cos' and 'rope-sin', not '%1'"_s.arg(table);
    if (!params.isValid() || params.encoding != Encoding::Rope)
        return u"the parameters are not a valid RoPE's"_s;
    const std::int64_t rotary = RopeFrequencies::rotaryDim(params.rope);
    if (rotary != e.cols()) {
        // The table's own width read against the declared one: rotary-dim, with both values.
        const std::optional<Params> own = RopeDeclaredWidth::atOwnWidth(e, params);
        if (!own)
            return u"rotary_dim %1 gives a table of %1 columns; this one has %2"_s.arg(rotary).arg(e.cols());
        const CheckDeclaration at = RopeDeclaredWidth::declarationAt(e, *own);
        const TableEvidence atOwn {e.table, e.sample, e.framing, e.format, at, e.sameRow, e.infinite};
        auto read = expect(atOwn, *own, table);
        if (auto *m = std::get_if<TableMatch>(&read))
            return RopeDeclaredWidth::named(std::move(*m), params, *own,
                                            !e.declared.given || e.declared.given->contains(u"rope-layout"_s));
        return read;
    }
    RopeFit::Fit fit;
    fit.hypothesis.params = params;
    fit.hypothesis.cosine = table == kCos;
    fit.typeAttentionFactor = RopeFrequencies::table(params).attentionFactor;
    fit.hypothesis.amplitude = fit.typeAttentionFactor;
    fit.hypothesis.firstPosition = first;
    fit.correct = fit.hypothesis;
    const RowFraming framing;
    const TableEvidence whole {e.table, e.sample, framing, e.format, e.declared, e.sameRow, e.infinite};
    // HF computes cos and sin in float32: a sample beyond the exact angles' tolerance and within float32
    // angles' is compared with the latter, the stream weighing that as for a table found undeclared.
    const RopeFit::Fit declared = RopeFit::evaluate(inputOf(whole), fit.hypothesis);
    fit.float32Angles = declared.float32Angles;
    const auto matchOfWhole = [&whole](const RopeFit::Fit &f) { return matchOf(whole, f); };
    // Factor left out; other function; else the reading's (where most cells deviate; no cell beyond).
    if (declared.bad() > 0)
        RopeDeclaredFactor::missing(inputOf(whole), fit);
    if (declared.bad() > 0 && fit.mistakes.isEmpty() && RopeFunctionReplaced::read(inputOf(whole), fit))
        return RopeFunctionReplaced::said(matchOf(whole, fit), fit);
    if (declared.bad() > 0 && fit.mistakes.isEmpty() && 2 * declared.score.bad > declared.score.compared) {
        const auto found = RopeFit::fit(inputOf(e, nullptr, std::int64_t(1) << 40), params.rope.layout,
                                        declaredLayout(e), formsAt(e.cols()));
        const std::int64_t rowZero = found ? found->hypothesis.firstPosition - e.framing.firstRow : -1;
        if (auto named = found ? RopeDeclaredFactor::fromReading(inputOf(whole), fit, *found, rowZero, matchOfWhole)
                               : std::nullopt)
            return std::move(*named);
    }
    if (declared.bad() > 0 && fit.mistakes.isEmpty()) {
        // The declared table times a constant in every cell: its attention factor, whatever the reading.
        if (auto scaled = RopeDeclaredFactor::uniform(inputOf(whole), fit, matchOfWhole))
            return std::move(*scaled);
        return rowsNamed(whole, fit, declared);
    }
    return matchOf(whole, fit);
}

QList<PublishedForm> publishedForms(std::int64_t cols)
{
    QList<PublishedForm> forms;
    for (const RopeFit::Published &p : RopePublishedForms::forms()) {
        if (RopeFrequencies::rotaryDim(p.params.rope) != cols)
            continue;
        for (const QString &table : {kCos, kSin})
            forms.append({p.name, p.source, table, p.params});
    }
    return forms;
}

} // namespace

std::vector<RopeFit::Published> publishedRopeForms(std::int64_t rotaryDim)
{
    return formsAt(rotaryDim);
}

QStringList publishedNames(const Params &params, double amplitude, double tolerance)
{
    return publishedMatch(params, amplitude, tolerance).names;
}

QString nearestPublishedRope(const Params &params)
{
    return nearestPublished(params);
}

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kCos, kSin};
    h.findingKeys = {u"layout"_s, u"base"_s, u"rope_type"_s, u"attention_factor"_s};
    h.declares = {u"rope-layout"_s};
    h.help = u"HF's rotary cos or sin table (L x rotary_dim): half or interleaved; rope_type and its parameters as far "
             "as the table shows them, a model's published table named; the attention factor from the amplitude"_s;
    h.mistakes = {CheckMistakes::kPositionOffset, CheckMistakes::kHalfPrecisionAngles, u"rope-layout"_s,
                  u"attention-factor-missing"_s, u"rope-scaling-reversed"_s, kZeroPairsMisplaced, kLongRopeFactor,
                  RopeLongRopeSwitch::kFactorSet, RopeLongRopeSwitch::kSwitched, ApplyCheck::kPositionsOutOfOrder,
                  RopeRowPositions::kPositionsScaled, ApplyCheck::kRotaryDim, RopeFrequencyMistakes::kAppliedTwice,
                  RopeFrequencyMistakes::kFrequenciesInverted, RopeFrequencyMistakes::kFactorInPower, u"cos-replaced"_s,
                  u"sin-replaced"_s};
    h.fit = fit;
    h.expect = expect;
    h.referenceCode
        = u"huggingface/transformers src/transformers/modeling_rope_utils.py, _compute_default_rope_parameters and the _compute_*_parameters of each rope_type; models/llama/modeling_llama.py, LlamaRotaryEmbedding.forward (cat((freqs, freqs)).cos() * attention_scaling)"_s;
    h.publishedForms = publishedForms;
    // Still unnamed: the angles formed in half precision, else rows without the attention factor.
    h.nameDeclaredPrecision = [](const TableMatch &declared, const TableRows &table,
                                 const std::vector<std::int64_t> &deviatingRows) -> std::optional<TableMatch> {
        if (auto named = RopeHalfAngles::name(declared, table, deviatingRows))
            return named;
        if (auto named = RopeFrequencyMistakes::name(declared, table))
            return named;
        return RopeRegionFactor::name(declared, table);
    };
    return h;
}

} // namespace posenc::RopeTableCheck
