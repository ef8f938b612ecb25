#include "check/rope/RopeInvFreq.h"

#include "check/CellTolerance.h"
#include "check/DeclaredWords.h"
#include "check/rope/RopeDynamicFactor.h"
#include "check/rope/RopeFrequencyMistakes.h"
#include "check/rope/RopeHalfAngles.h"
#include "check/rope/RopeInvFreqPairs.h"
#include "check/rope/RopeScalingDifferences.h"
#include "check/rope/RopeTableCheck.h"
#include "check/rope/RopeYarnBands.h"
#include "check/rope/RopeYarnBetas.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeInvFreq {

namespace {

const QString kTheta = u"rope-theta"_s;
const QString kType = u"rope-type"_s;
const QString kFactor = u"rope-factor"_s;
const QString kRotaryDim = u"rotary-dim"_s;
const QString kFactorSet = u"longrope-factor-set"_s;

using RopeInvFreqPairs::compare;
using RopeInvFreqPairs::Comparison;
using RopeInvFreqPairs::tolerance;

// inv_freq of valid parameters, or nothing.
std::optional<std::vector<double>> invOf(const Params &p, std::size_t pairs)
{
    if (!p.isValid())
        return std::nullopt;
    std::vector<double> inv = RopeFrequencies::table(p).inv;
    if (inv.size() != pairs)
        return std::nullopt;
    return inv;
}

bool explains(const std::vector<double> &v, const Params &p, StoredType stored)
{
    const auto inv = invOf(p, v.size());
    return inv && compare(v, *inv, stored).beyond == 0;
}

Params ropeAt(std::int64_t pairs, double theta, RopeType type)
{
    Params p;
    p.encoding = Encoding::Rope;
    RopeFrequencies::setHeadDim(p, 2 * pairs);
    p.rope.theta = theta;
    p.rope.type = type;
    p.maxLen = 1;
    return p;
}

// `value` rounded to `digits` significant digits.
double rounded(double value, int digits)
{
    if (!(value > 0.0) || !std::isfinite(value))
        return value;
    // An exact power of ten either way, so that 5e5 is 500000, not 499999.99999999994.
    const int places = digits - 1 - int(std::floor(std::log10(value)));
    const double power = std::pow(10.0, std::abs(places));
    return places >= 0 ? std::round(value * power) / power : std::round(value / power) * power;
}

std::int64_t trailingZeros(const std::vector<double> &v)
{
    std::int64_t zeros = 0;
    for (auto it = v.rbegin(); it != v.rend() && *it == 0.0; ++it)
        ++zeros;
    return zeros;
}

// The frequencies of `v` as RopeYarnBetas reads them: each pair within its tolerance.
RopeYarnBetas::Read readOf(const std::vector<double> &v, StoredType stored)
{
    RopeYarnBetas::Read read {v, {}};
    for (const double x : v)
        read.within.push_back(tolerance(x, stored) / std::max(x, 1e-300));
    return read;
}

// The yarn parameters that explain `v`: at `declared` (its original length and truncation) where
// given, else at rope_theta read from the fast pairs and every original length a power of two, the
// roundest betas first (transformers' _compute_yarn_parameters; RopeYarnBetas).
std::optional<Params> yarnReading(const std::vector<double> &v, StoredType stored, double theta,
                                  const std::optional<Params> &declared)
{
    const RopeYarnBetas::Read read = readOf(v, stored);
    std::vector<Params> candidates;
    if (declared) {
        candidates = RopeYarnBetas::readings(read, *declared);
    } else {
        QList<double> thetas;
        for (const double t : roundings(theta))
            if (t > 1.0 && t <= 1e15)
                thetas.append(t);
        candidates = RopeYarnBetas::undeclaredReadings(read, std::vector<double>(thetas.begin(), thetas.end()));
    }
    for (const Params &p : candidates) {
        if (explains(v, p, stored))
            return p;
    }
    return std::nullopt;
}

// The parameters that explain `v`, the simplest first: the default type, linear, proportional's
// zero tail, llama3's bands, yarn's ramp, at rope_theta read from the fast pairs.
std::optional<Params> reading(const std::vector<double> &v, StoredType stored)
{
    const auto n = std::int64_t(v.size());
    const std::int64_t zeros = trailingZeros(v);
    const std::int64_t live = n - zeros;
    if (live < 1)
        return std::nullopt;
    // theta from the ratio of pair 0 and a fast pair (both unscaled by llama3 and yarn, both scaled
    // alike by linear): v_i / v_0 = theta^(-2i / rotary_dim).
    const std::int64_t i = std::max<std::int64_t>(1, live / 4);
    const double theta = live > 1 ? std::pow(v[0] / v[std::size_t(i)], double(n) / double(i)) : 10000.0;
    QList<Params> tried;
    for (const double t : roundings(theta)) {
        if (!(t > 1.0) || t > 1e15)
            continue;
        if (zeros > 0) {
            Params p = ropeAt(n, t, RopeType::Proportional);
            p.rope.partialRotaryFactor = double(live) / double(n);
            tried.append(p);
            continue;
        }
        tried.append(ropeAt(n, t, RopeType::Default));
        for (const double f : roundings(1.0 / v[0])) {
            Params p = ropeAt(n, t, RopeType::Linear);
            p.rope.factor = f;
            if (f > 1.0 + 1e-9)
                tried.append(p);
        }
    }
    for (const Params &p : tried) {
        if (explains(v, p, stored))
            return p;
    }
    // llama3: the slowest pair's factor against the default at theta.
    for (const double t : roundings(theta)) {
        const auto plain = invOf(ropeAt(n, t, RopeType::Default), v.size());
        if (!plain)
            continue;
        const double f = plain->back() / v.back();
        if (!(f > 1.0 + 1e-6))
            continue;
        for (const double factor : roundings(f)) {
            for (int k = 8; k <= 21; ++k) {
                Params llama = ropeAt(n, t, RopeType::Llama3);
                llama.rope.factor = factor;
                llama.rope.originalMaxLen = std::int64_t(1) << k;
                for (const double low : {1.0, 2.0}) {
                    for (const double high : {4.0, 1.0, 2.0, 8.0}) {
                        llama.rope.lowFreqFactor = low;
                        llama.rope.highFreqFactor = high;
                        if (high >= low && explains(v, llama, stored))
                            return llama;
                    }
                }
            }
        }
    }
    // yarn: the ramp read back (RopeYarnBetas), at every original length, HF's betas first.
    if (const auto yarn = yarnReading(v, stored, theta, std::nullopt))
        return yarn;
    return std::nullopt;
}

// "rope_type llama3 (rope_theta 500000, factor 8, low_freq_factor 1, ...)".
QString words(const Params &p)
{
    const RopeParams &r = p.rope;
    QStringList parts {u"rope_theta %1"_s.arg(NumberText::exact(r.theta))};
    if (r.factor)
        parts.append(u"factor %1"_s.arg(NumberText::exact(*r.factor)));
    if (r.type == RopeType::Llama3)
        parts.append(u"low_freq_factor %1, high_freq_factor %2"_s.arg(NumberText::exact(r.lowFreqFactor),
                                                                      NumberText::exact(r.highFreqFactor)));
    if (r.type == RopeType::Yarn)
        parts.append(u"beta_fast %1, beta_slow %2%3"_s.arg(NumberText::exact(r.betaFast), NumberText::exact(r.betaSlow),
                                                           r.yarnTruncate ? QString() : u", truncate false"_s));
    if (r.originalMaxLen && r.type != RopeType::Default && r.type != RopeType::Linear)
        parts.append(u"original_max_position_embeddings %1"_s.arg(*r.originalMaxLen));
    if (r.type == RopeType::Dynamic || r.type == RopeType::LongRope)
        parts.append(u"a sequence of %1 positions"_s.arg(p.maxLen));
    if (r.type == RopeType::Proportional)
        parts.append(u"partial_rotary_factor %1"_s.arg(NumberText::exact(r.partialRotaryFactor)));
    return u"rope_type %1 (%2), rotary_dim %3"_s.arg(RopeTypes::word(r.type), parts.join(u", "_s))
        .arg(RopeFrequencies::rotaryDim(r));
}

TableMatch base(const std::vector<double> &v, StoredType stored)
{
    TableMatch m;
    if (stored == StoredType::BFloat16 || stored == StoredType::Float16)
        m.notes.append(u"stored in %1 and compared within its rounding: angles p·inv_freq from these values err by "
                       "up to p·inv_freq·%2, which transformers avoids by keeping inv_freq in float32 "
                       "(transformers#29496)"_s.arg(stored == StoredType::BFloat16 ? u"bfloat16"_s : u"float16"_s,
                                                    stored == StoredType::BFloat16 ? u"2^-9"_s : u"2^-12"_s));
    m.family = Encoding::Rope;
    m.table = kTable;
    m.positionOffset = std::nullopt;
    m.unreferenced = u"an inverse-frequency vector is compared pair by pair, not streamed as a table"_s;
    m.notes.append(
        u"%1 pairs: rotary_dim %2 (inv_freq[i] radians per position, cos and sin of p inv_freq[i])"_s.arg(v.size()).arg(
            2 * v.size()));
    return m;
}

void setFound(TableMatch &m, const Params &p, const Comparison &c)
{
    m.params = p;
    m.referenceText = words(p);
    m.findings = {{u"base"_s, p.rope.theta}, {u"rope_type"_s, RopeTypes::word(p.rope.type)}};
    m.maxAbsError = c.maxAbs;
    m.worstRow = 0;
    m.worstColumn = c.maxAt;
    m.tolerance.relative = c.maxRelative;
}

// A longrope declaration's other list: the one the vector holds instead.
std::optional<Params> otherLongRopeList(const std::vector<double> &v, const Params &declared, StoredType stored)
{
    if (declared.rope.type != RopeType::LongRope || !declared.rope.originalMaxLen)
        return std::nullopt;
    Params other = declared;
    const std::int64_t original = *declared.rope.originalMaxLen;
    other.maxLen = declared.maxLen > original ? original : original + 1;
    return explains(v, other, stored) ? std::optional<Params>(other) : std::nullopt;
}

// The half format every value of `v` is exactly (a float32 vector cast to bfloat16 or float16 and
// back), as its stored type: what a float32 computation does not give.
std::optional<StoredType> halfFormat(const std::vector<double> &v, StoredType stored)
{
    if (stored != StoredType::Float32 && stored != StoredType::Float64)
        return std::nullopt;
    const std::vector<float> values(v.begin(), v.end());
    const ValueFormat format = representableFormat(values.data(), std::int64_t(values.size()));
    if (format == ValueFormat::Float32)
        return std::nullopt;
    return format == ValueFormat::BFloat16 ? StoredType::BFloat16 : StoredType::Float16;
}

QString halfWords(StoredType half)
{
    return u"the inverse frequencies are rounded to %1 (every value is one), within its rounding of the "
           "reference and beyond a float32 computation's: the angle p·inv_freq then errs by up to p·inv_freq·%2, "
           "a turn at long positions; transformers computes inv_freq and the angles in float32 "
           "(modeling_rope_utils.py; transformers#29496)"_s.arg(half == StoredType::BFloat16 ? u"bfloat16"_s
                                                                                             : u"float16"_s,
                                                                half == StoredType::BFloat16 ? u"2^-9"_s : u"2^-12"_s);
}

// The theta a declaration's vector turns at: dynamic's grown base, the others' rope_theta.
double effectiveTheta(const Params &p)
{
    return p.rope.type == RopeType::Dynamic ? RopeFrequencies::dynamicBase(p) : p.rope.theta;
}

// "the declared rope_type ..." / "the reference table's rope_type ..." (DeclaredWords).
QString theDeclared(const Params &declared)
{
    return DeclaredWords::the() + u" "_s + words(declared);
}

// The mistakes a reading `found` names against `declared`, with both values, into `m`.
void nameReading(TableMatch &m, const Params &found, const Params &declared)
{
    const RopeType declaredType = declared.rope.type, foundType = found.rope.type;
    const double thetaDeclared = effectiveTheta(declared);
    const bool sameTheta = std::fabs(found.rope.theta - thetaDeclared) <= 1e-9 * thetaDeclared;
    const bool plainDeclared = declaredType == RopeType::Default || declaredType == RopeType::Dynamic;
    QStringList said;
    // Dynamic's bases, declared and grown, printed alike (RopeDynamicFactor::thetaText); others as given.
    const auto thetaText = [&](double theta) {
        return declaredType == RopeType::Dynamic ? RopeDynamicFactor::thetaText(theta) : NumberText::exact(theta);
    };
    // Dynamic declared, the vector rope_theta's own: the grown base not applied, a scaling left out.
    const bool dynamicUnscaled = declaredType == RopeType::Dynamic && foundType == RopeType::Default
        && std::fabs(found.rope.theta - declared.rope.theta) <= 1e-9 * declared.rope.theta && !sameTheta;
    // A factor on one side only (a scaling left out, or one the declaration lacks): the type and the
    // factor both named, each with both values.
    const auto scale = [](const Params &p) {
        const RopeType t = p.rope.type;
        const bool divides = t == RopeType::Linear || t == RopeType::Llama3 || t == RopeType::Yarn;
        return divides || t == RopeType::Dynamic ? p.rope.factor.value_or(1.0) : 1.0;
    };
    const bool plainSide = (foundType == RopeType::Default && declaredType != RopeType::Dynamic)
        || declaredType == RopeType::Default || dynamicUnscaled;
    const bool factorOneSide = plainSide && scale(found) != scale(declared) && foundType != RopeType::LongRope
        && declaredType != RopeType::LongRope;
    if (dynamicUnscaled) {
        m.mistakes.append(kType);
        said.append(u"rope_type default where dynamic is declared: no scaling applied, the base rope_theta %1 where "
                    "dynamic's %2"_s.arg(thetaText(found.rope.theta), RopeDynamicFactor::grownWords(declared)));
    } else if (const auto grown = RopeDynamicFactor::name(found, declared)) {
        // A length: the base (rope_theta's grown value) differs too, which the corpus calls rope-theta.
        m.mistakes += grown->first == kFactor ? QStringList {kFactor} : QStringList {grown->first, kTheta};
        said.append(grown->second);
    } else if (foundType == RopeType::Default && plainDeclared) {
        m.mistakes.append(kTheta);
        said.append(u"rope_theta %1 %4 %2%3"_s.arg(
            thetaText(found.rope.theta), thetaText(thetaDeclared),
            declaredType == RopeType::Dynamic ? u" (dynamic's: it %1)"_s.arg(RopeDynamicFactor::grownWords(declared))
                                              : QString(),
            DeclaredWords::whereGiven()));
    } else if (foundType != declaredType) {
        m.mistakes.append(kType);
        said.append(u"rope_type %1 where %2 %4%3"_s.arg(
            RopeTypes::word(foundType), RopeTypes::word(declaredType),
            foundType == RopeType::Default ? u": no scaling applied"_s : QString(), DeclaredWords::isDeclared()));
        if (!sameTheta && foundType != RopeType::Linear) {
            m.mistakes.append(kTheta);
            said.append(u"rope_theta %1 where %2 %3"_s.arg(thetaText(found.rope.theta), thetaText(thetaDeclared),
                                                           DeclaredWords::isDeclared()));
        }
    } else if (foundType == RopeType::Yarn) {
        if (!sameTheta) {
            m.mistakes.append(kTheta);
            said.append(u"rope_theta %1 where %2 %3"_s.arg(thetaText(found.rope.theta), thetaText(thetaDeclared),
                                                           DeclaredWords::isDeclared()));
        }
        said.append(RopeYarnBetas::differences(found, declared, m.mistakes));
    } else {
        if (!sameTheta) {
            m.mistakes.append(kTheta);
            said.append(u"rope_theta %1 where %2 %3"_s.arg(thetaText(found.rope.theta), thetaText(thetaDeclared),
                                                           DeclaredWords::isDeclared()));
        }
        if (found.rope.factor != declared.rope.factor) {
            m.mistakes.append(kFactor);
            said.append(u"factor %1 where %2 %3"_s.arg(NumberText::exact(found.rope.factor.value_or(1.0)),
                                                       NumberText::exact(declared.rope.factor.value_or(1.0)),
                                                       DeclaredWords::isDeclared()));
        }
        said.append(RopeScalingDifferences::said(found, declared, m.mistakes));
    }
    if (factorOneSide && !m.mistakes.contains(kFactor)) {
        m.mistakes.append(kFactor);
        said.append(u"factor %1 where %2 %3"_s.arg(NumberText::exact(scale(found)), NumberText::exact(scale(declared)),
                                                   DeclaredWords::isDeclared()));
    }
    if (said.isEmpty()) {
        m.diagnosis = u"the vector is %1, not %2: %3"_s.arg(words(found), theDeclared(declared), m.deviations);
        return;
    }
    m.diagnosis = u"%1: the vector is %2; %3"_s.arg(said.join(u"; "_s), words(found), theDeclared(declared));
}

} // namespace

QList<double> roundings(double value)
{
    QList<double> values;
    for (int digits = 1; digits <= 12; ++digits) {
        const double r = rounded(value, digits);
        if (!values.contains(r))
            values.append(r);
    }
    values.append(value);
    return values;
}

bool plausible(const std::vector<double> &v)
{
    if (v.empty())
        return false;
    const std::int64_t live = std::int64_t(v.size()) - trailingZeros(v);
    if (live < 1 || !(v[0] <= 1.0 + 1e-6))
        return false;
    return std::all_of(v.begin(), v.begin() + live, [](double x) { return std::isfinite(x) && x > 0.0; });
}

TableMatch identify(const std::vector<double> &v, StoredType stored)
{
    TableMatch m = base(v, stored);
    // A published model's vector: at its own length, and LongRoPE's in either regime.
    QStringList names;
    std::optional<std::pair<Params, Comparison>> first;
    for (const RopeFit::Published &form : RopeTableCheck::publishedRopeForms(2 * std::int64_t(v.size()))) {
        // The short regime at its longest sequence (the original length), which the words then say.
        QList<std::int64_t> lengths {1};
        if (form.params.rope.originalMaxLen)
            lengths = {*form.params.rope.originalMaxLen, *form.params.rope.originalMaxLen + 1};
        for (const std::int64_t length : lengths) {
            Params q = form.params;
            q.maxLen = length;
            const auto inv = invOf(q, v.size());
            if (!inv || names.contains(form.name))
                continue;
            const Comparison c = compare(v, *inv, stored);
            if (c.beyond > 0)
                continue;
            names.append(form.name);
            if (!first)
                first.emplace(q, c);
        }
    }
    if (!first) {
        if (const auto half = halfFormat(v, stored)) {
            for (const RopeFit::Published &form : RopeTableCheck::publishedRopeForms(2 * std::int64_t(v.size()))) {
                Params q = form.params;
                q.maxLen = 1;
                const auto inv = invOf(q, v.size());
                if (!inv || compare(v, *inv, *half).beyond > 0)
                    continue;
                setFound(m, q, compare(v, *inv, *half));
                m.verdict = CheckVerdict::Mistake;
                m.mistakes = {CheckMistakes::kHalfPrecisionAngles};
                m.diagnosis = halfWords(*half) + u"; the vector is %1's"_s.arg(form.name);
                return m;
            }
        }
    }
    if (first) {
        setFound(m, first->first, first->second);
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = u"the inv_freq of %1"_s.arg(names.join(u", "_s));
        // The verdict rule (issue 56): a correct names its reference, every published form equal to it.
        m.diagnosis = u"RoPE's inverse frequencies as HF computes them: %1; the published form%2 of %3"_s.arg(
            words(first->first), names.size() > 1 ? u"s"_s : QString(), names.join(u", "_s));
        return m;
    }
    if (const auto p = reading(v, stored)) {
        setFound(m, *p, compare(v, *invOf(*p, v.size()), stored));
        m.verdict = CheckVerdict::Variant;
        m.diagnosis = u"a variant: RoPE's inverse frequencies at %1, which none of posenc's published forms uses; "
                      "the nearest published form is %2"_s.arg(words(*p), RopeTableCheck::nearestPublishedRope(*p));
        if (p->rope.type == RopeType::Default)
            m.notes.append(u"dynamic NTK scaling gives the default type's vector at its grown base: a declared "
                           "reference (rope_type dynamic and the sequence's length) tells them apart"_s);
        return m;
    }
    m.verdict = CheckVerdict::Unknown;
    m.diagnosis = u"no rope_type explains these %1 inverse frequencies (default, linear, proportional, llama3 and "
                  "yarn tried at the rope_theta their fast pairs give); a declared reference compares them pair by "
                  "pair"_s.arg(v.size());
    return m;
}

TableMatch expect(const std::vector<double> &v, StoredType stored, const Params &declared)
{
    TableMatch m = base(v, stored);
    const auto n = std::int64_t(v.size());
    const std::int64_t pairs = RopeFrequencies::pairs(declared.rope);
    m.params = declared;
    m.referenceText = words(declared);
    if (pairs != n) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {kRotaryDim};
        m.diagnosis = u"the vector holds %1 pairs (rotary_dim %2), %5 %3 (rotary_dim %4, "
                      "int(head_dim * partial_rotary_factor))"_s.arg(n)
                          .arg(2 * n)
                          .arg(pairs)
                          .arg(RopeFrequencies::rotaryDim(declared.rope))
                          .arg(DeclaredWords::reference());
        return m;
    }
    const std::vector<double> reference = RopeFrequencies::table(declared).inv;
    const Comparison c = compare(v, reference, stored);
    setFound(m, declared, c);
    if (c.beyond == 0) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = u"the reference declared: "_s + words(declared);
        m.diagnosis = u"RoPE's inverse frequencies as HF computes them: %1"_s.arg(words(declared));
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    m.deviations = RopeInvFreqPairs::words(c);
    if (const auto half = halfFormat(v, stored); half && compare(v, reference, *half).beyond == 0) {
        m.mistakes = {CheckMistakes::kHalfPrecisionAngles};
        m.diagnosis = halfWords(*half) + u"; "_s + theDeclared(declared);
        return m;
    }
    if (const auto half = halfFormat(v, stored); const auto stages = half
            ? RopeHalfAngles::vectorStages(v, FrequencySchedule {reference, 1.0}, *half == StoredType::BFloat16)
            : std::nullopt) {
        m.mistakes = {CheckMistakes::kHalfPrecisionAngles};
        m.diagnosis = u"inv_freq formed in half precision: %1; %2"_s.arg(
            RopeHalfAngles::pipelineWords(*stages, RopeHalfAngles::powersOf(FrequencySchedule {reference, 1.0})),
            theDeclared(declared));
        return m;
    }
    if (const auto other = otherLongRopeList(v, declared, stored)) {
        const bool longDeclared = declared.maxLen > *declared.rope.originalMaxLen;
        m.mistakes = {kFactorSet};
        m.diagnosis = u"the vector divides by %1 where transformers takes %2 for a sequence of %3 positions "
                      "(original_max_position_embeddings %4; modeling_rope_utils.py, longrope_frequency_update: "
                      "long_factor only past it)"_s
                          .arg(longDeclared ? u"short_factor"_s : u"long_factor"_s,
                               longDeclared ? u"long_factor"_s : u"short_factor"_s)
                          .arg(declared.maxLen)
                          .arg(*declared.rope.originalMaxLen);
        return m;
    }
    // The declared scaling computed from pos_freqs = theta^(2i/d), or every frequency inverted
    // (RopeFrequencyMistakes): a fixed function of the declared vector, named before a reading.
    const std::vector<double> unscaled = RopeFrequencyMistakes::unscaledOf(declared.rope.theta, n);
    for (const RopeFrequencyMistakes::Candidate &c : RopeFrequencyMistakes::candidates(reference, 1.0, unscaled)) {
        if (c.id != RopeFrequencyMistakes::kFrequenciesInverted || compare(v, c.w, stored).beyond != 0)
            continue;
        std::size_t shown = 0;
        for (std::size_t i = 0; i < c.w.size(); ++i) {
            if (std::fabs(c.w[i] - reference[i]) > std::fabs(c.w[shown] - reference[shown]))
                shown = i;
        }
        m.mistakes = {RopeFrequencyMistakes::kFrequenciesInverted};
        m.diagnosis = u"the vector is "_s + DeclaredWords::the()
            + u" %1 with %2"_s.arg(
                words(declared),
                c.words.arg(shown).arg(NumberText::compact(c.w[shown], 6), NumberText::compact(reference[shown], 6)));
        return m;
    }
    // The declared scaling's factor inside the power (RopeFrequencyMistakes::powerCandidates).
    for (const RopeFrequencyMistakes::Candidate &c : RopeFrequencyMistakes::powerCandidates(declared, 1.0)) {
        if (c.w.size() != v.size() || compare(v, c.w, stored).beyond != 0)
            continue;
        const std::size_t shown = RopeFrequencyMistakes::mostMoved(c.w, reference);
        m.mistakes = QStringList {c.id} + c.also;
        m.diagnosis = u"the vector is "_s + DeclaredWords::the()
            + u" %1 with %2"_s.arg(words(declared), c.words.arg(shown).arg(NumberText::compact(c.w[shown], 6),
                                                                          NumberText::compact(reference[shown], 6)));
        return m;
    }
    // A yarn declaration's ramp at other betas or another factor (RopeYarnBetas), named with both.
    if (const auto yarn
        = declared.rope.type == RopeType::Yarn ? yarnReading(v, stored, declared.rope.theta, declared) : std::nullopt) {
        if (const QStringList said = RopeYarnBetas::differences(*yarn, declared, m.mistakes); !said.isEmpty()) {
            m.params = *yarn;
            m.diagnosis = u"%1: the vector is %2; %3"_s.arg(said.join(u"; "_s), words(*yarn), theDeclared(declared));
            return m;
        }
    }
    const auto found = reading(v, stored);
    // No rope_type at one base: a yarn declaration's bands read each on a base of its own.
    if (const auto bases = found ? std::nullopt : RopeYarnBands::read(v, declared, [&](const std::vector<double> &inv) {
            return compare(v, inv, stored).beyond == 0;
        })) {
        m.mistakes = {kTheta};
        m.diagnosis = RopeYarnBands::words(declared, *bases) + u"; "_s + theDeclared(declared);
        return m;
    }
    if (!found) {
        m.diagnosis
            = u"the vector is not %1, and no rope_type explains it: %2"_s.arg(theDeclared(declared), m.deviations);
        return m;
    }
    m.params = *found;
    nameReading(m, *found, declared);
    return m;
}

QStringList mistakeIds()
{
    using namespace RopeScalingDifferences;
    return {kTheta,
            kType,
            kFactor,
            kRotaryDim,
            kFactorSet,
            RopeYarnBetas::kBetaFast,
            RopeYarnBetas::kBetaSlow,
            RopeYarnBetas::kTruncate,
            kOriginalMaxLen,
            kLowFreqFactor,
            kHighFreqFactor,
            CheckMistakes::kHalfPrecisionAngles,
            RopeFrequencyMistakes::kFrequenciesInverted,
            RopeFrequencyMistakes::kFactorInPower,
            RopeDynamicFactor::kDynamicLength};
}

} // namespace posenc::RopeInvFreq
