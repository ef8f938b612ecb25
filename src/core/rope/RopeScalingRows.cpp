#include "RopeScalingRows.h"

#include "RopeRowParts.h"
#include "RopeTypes.h"

#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeScalingRows {

namespace {

using namespace RopeRowParts;

// yarn's beta_fast and beta_slow, rotations over the original context: HF's find_correction_dim
// takes ln(L0 / (2 pi beta)), which is infinite (a NaN table; with truncate, OverflowError) for a
// beta near 1e-308 or 1e308. Within these bounds every edge is finite.
constexpr double kMinBeta = 1e-6;
constexpr double kMaxBeta = 1e6;
// The most an attention factor, an mscale or an mscale_all_dim may be: cos and sin times the
// factor stay far inside float32 (1e300 made them infinite), and so does the score's square.
constexpr double kMaxScaling = 1e6;

// "a number in [1e-6, 1000000]": a beta's range.
QString betaText()
{
    static_assert(kMinBeta == 1e-6 && kMaxBeta == 1e6);
    return u"a number in [1e-6, 1000000]"_s;
}

// "(0, 1000000]" or "[0, 1000000]": an attention factor's or an mscale's range.
QString scalingRange(bool zero)
{
    return (zero ? u"[0, "_s : u"(0, "_s) + QString::number(kMaxScaling, 'f', 0) + u"]"_s;
}

ParamSpec factorRow()
{
    const QString range = u"a number in "_s + factorRange();
    ParamSpec s = ParamRows::optionalNumber(u"rope-factor"_s, ParamGroup::Family,
                                            [](Params &p) -> std::optional<double> & { return p.rope.factor; });
    s.help = u"factor: %1 need it, and longrope without attention-factor (HF's\n"
             "      max_position_embeddings/original_max_position_embeddings where a config has none); proportional's\n"
             "      divisor (unset: 1)"_s.arg(typeList(RopeTypes::needers(u"rope-factor"_s)));
    s.label = u"rope_factor"_s;
    s.allowed = [range](const Params &) { return u"unset or "_s + range; };
    s.check = [range](const Params &p) -> std::optional<ParamError> {
        const auto &f = p.rope.factor;
        if (f && !(*f >= kMinFactor && *f <= kMaxFactor))
            return ParamError {u"rope-factor"_s, range, QString(), number(*f)};
        const bool longRopeNeeds = underRope(p) && p.rope.type == RopeType::LongRope && !p.rope.attentionFactor;
        if (!f && (neededNow(p, u"rope-factor"_s) || longRopeNeeds))
            return needed(u"rope-factor"_s, p, u"how many times longer the context becomes"_s, range);
        return std::nullopt;
    };
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = readBy(p, u"rope-factor"_s))
            return idle;
        if (p.rope.type == RopeType::LongRope && p.rope.attentionFactor)
            return IdleReason {Code::ExplicitAttentionFactor,
                               tr("attention-factor %1 is given: longrope reads the factor only to work out its "
                                  "attention factor.")
                                   .arg(number(*p.rope.attentionFactor))};
        return std::nullopt;
    };
    s.formula = [](const Params &) {
        return tr("The factor f the context is stretched by:<br>linear: θ<sub>i</sub>/f<br>dynamic: base θ·(f·L/L₀ − "
                  "(f − 1))<sup>r/(r−2)</sup><br>yarn: the slow pairs' θ<sub>i</sub>/f, attention factor 0.1·ln f + "
                  "1<br>llama3: the long wavelengths' θ<sub>i</sub>/f<br>longrope: only the attention factor "
                  "√(1 + ln f / ln L₀), fixed by the model (HF: max_position_embeddings/L₀ where the config gives "
                  "no factor), not by the sequence length<br>proportional: every frequency divided by f; unset, 1");
    };
    return s;
}

ParamSpec originalRow()
{
    // longrope works its attention factor out as sqrt(1 + ln f / ln L0): L0 1 divides by 0 (HF's
    // _compute_longrope_parameters raises ZeroDivisionError; the table was infinite).
    const auto bounds = [](const Params &p) {
        const bool divides = underRope(p) && p.rope.type == RopeType::LongRope && !p.rope.attentionFactor;
        return std::pair<std::int64_t, std::int64_t>(divides ? 2 : 1, Params::kMaxLen);
    };
    const auto rangeOf = [bounds](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return ParamRows::integerRange(lo, hi, lo > 1 ? u" (longrope divides by ln L0)"_s : QString());
    };
    ParamSpec s;
    s.key = u"original-max-len"_s;
    s.group = ParamGroup::Family;
    s.kind = ParamKind::OptionalInteger;
    s.valueName = u"N|unset"_s;
    s.unsetText = u"unset"_s;
    s.help = u"original_max_position_embeddings, the context the model was trained on (for dynamic: its\n"
             "      max_position_embeddings); %1 need it; from 2 for longrope without attention-factor, which\n"
             "      divides by ln N"_s.arg(typeList(RopeTypes::needers(u"original-max-len"_s)));
    s.label = u"original_max_len"_s;
    s.controlMin = 0; // the spin box's "unset"
    s.controlMax = Params::kMaxLen;
    s.value = [](const Params &p) {
        return p.rope.originalMaxLen ? ParamValue(*p.rope.originalMaxLen) : ParamValue(std::monostate {});
    };
    s.assign = [](Params &p, const ParamValue &v) {
        if (std::holds_alternative<std::monostate>(v))
            p.rope.originalMaxLen.reset();
        else if (const auto *i = std::get_if<std::int64_t>(&v))
            p.rope.originalMaxLen = *i;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (w.isEmpty() || w == u"unset"_s)
            return ParamValue(std::monostate {});
        bool ok = false;
        const qlonglong v = w.toLongLong(&ok);
        return ok ? std::optional<ParamValue>(ParamValue(std::int64_t(v))) : std::nullopt;
    };
    s.bounds = bounds;
    s.allowed = [rangeOf](const Params &p) { return u"unset or "_s + rangeOf(p); };
    s.check = [bounds, rangeOf](const Params &p) -> std::optional<ParamError> {
        const auto &l = p.rope.originalMaxLen;
        const auto [lo, hi] = bounds(p);
        if (l && (*l < lo || *l > hi))
            return ParamError {u"original-max-len"_s, rangeOf(p), QString(), QString::number(*l)};
        if (!l && neededNow(p, u"original-max-len"_s))
            return needed(u"original-max-len"_s, p, u"the context length the model was trained on"_s, rangeOf(p));
        return std::nullopt;
    };
    s.idle = [](const Params &p) { return readBy(p, u"original-max-len"_s); };
    s.formula = [](const Params &p) {
        QString text = tr("L₀, the context the model was trained on (original_max_position_embeddings; for dynamic, "
                          "max_position_embeddings). yarn places its ramp by it, llama3 its bands at L₀/high and "
                          "L₀/low, dynamic raises its base once max_len passes it, and longrope takes its long "
                          "factors when max_len exceeds it.");
        if (p.rope.originalMaxLen)
            text += tr(" Now max_len/L₀ = %1.")
                        .arg(NumberText::compact(
                            double(p.maxLen) / double(std::max<std::int64_t>(1, *p.rope.originalMaxLen)), 5));
        return text;
    };
    return s;
}

ParamSpec llama3Row(const QString &key, bool low)
{
    ParamSpec s = numberRow(
        key, u"F"_s, [low](Params &p) -> double & { return low ? p.rope.lowFreqFactor : p.rope.highFreqFactor; });
    s.help = low ? u"llama3's low_freq_factor: wavelengths past original_max_len/F are divided by the factor"_s
                 : u"llama3's high_freq_factor: wavelengths below original_max_len/F are kept"_s;
    s.label = low ? u"low_freq_factor"_s : u"high_freq_factor"_s;
    const auto allowed = [low](const Params &p) {
        const double high = p.rope.highFreqFactor;
        if (low && underRope(p) && p.rope.type == RopeType::Llama3 && std::isfinite(high) && high > 0.0)
            return u"a number in (0, %1] (at most high-freq-factor)"_s.arg(number(high));
        return positiveText();
    };
    s.allowed = allowed;
    s.check = [key, low, allowed](const Params &p) -> std::optional<ParamError> {
        const double v = low ? p.rope.lowFreqFactor : p.rope.highFreqFactor;
        if (auto error = positive(key, v, positiveText()))
            return error;
        // low = high is Llama 4 Scout's: no blended band.
        if (low && underRope(p) && p.rope.type == RopeType::Llama3 && std::isfinite(p.rope.highFreqFactor)
            && v > p.rope.highFreqFactor)
            return ParamError {key, allowed(p), QString(), number(v)};
        return std::nullopt;
    };
    s.idle = [key](const Params &p) { return readBy(p, key); };
    s.formula = [](const Params &p) {
        QString text
            = tr("llama3 sorts the pairs by wavelength λ<sub>i</sub> = 2π/θ<sub>i</sub>: below L₀/high they are kept, "
                 "above L₀/low divided by the factor, and between blended with smooth = (L₀/λ − low)/(high − "
                 "low). Llama 3.1: low 1, high 4; Llama 4 Scout: low = high = 1, no blended band.");
        if (const auto d = description(p); d && d->pairsKept)
            text += tr(" Now %1 kept, %2 blended, %3 divided.")
                        .arg(*d->pairsKept)
                        .arg(*d->pairsBlended)
                        .arg(*d->pairsDivided);
        return text;
    };
    return s;
}

ParamSpec betaRow(const QString &key, bool fast)
{
    ParamSpec s
        = numberRow(key, u"N"_s, [fast](Params &p) -> double & { return fast ? p.rope.betaFast : p.rope.betaSlow; });
    s.help = fast ? u"yarn's beta_fast, in [1e-6, 1000000]: pairs turning more than N times over original_max_len\n"
                    "      are kept"_s
                  : u"yarn's beta_slow, in [1e-6, 1000000]: pairs turning fewer than N times over original_max_len\n"
                    "      are divided"_s;
    s.label = fast ? u"beta_fast"_s : u"beta_slow"_s;
    s.allowed = [](const Params &) { return betaText(); };
    s.check = [key, fast](const Params &p) -> std::optional<ParamError> {
        const double v = fast ? p.rope.betaFast : p.rope.betaSlow;
        if (v >= kMinBeta && v <= kMaxBeta) // also refuses NaN
            return std::nullopt;
        return ParamError {key, betaText(), QString(), number(v)};
    };
    s.idle = [key](const Params &p) { return readBy(p, key); };
    s.formula = [](const Params &p) {
        QString text = tr("yarn's ramp runs between the pairs that turn β<sub>fast</sub> and β<sub>slow</sub> times "
                          "over L₀: pair d(β) = r·ln(L₀/(2πβ)) / (2 ln θ). Pairs below d(β<sub>fast</sub>) are kept, "
                          "above d(β<sub>slow</sub>) divided by the factor.");
        if (const auto d = description(p); d && d->bandLow)
            text += tr(" Now the edges are %1 and %2, used as %3 and %4.")
                        .arg(NumberText::compact(*d->bandLow, 5), NumberText::compact(*d->bandHigh, 5),
                             NumberText::compact(*d->bandLowUsed, 5), NumberText::compact(*d->bandHighUsed, 5));
        return text;
    };
    return s;
}

ParamSpec truncateRow()
{
    ParamSpec s = ParamRows::choiceOf(
        u"yarn-truncate"_s, ParamGroup::Family, [](const Params &p) { return p.rope.yarnTruncate ? 0 : 1; },
        [](Params &p, int i) { p.rope.yarnTruncate = i == 0; }, {u"true"_s, u"false"_s});
    s.help = u"yarn's truncate: round the ramp's edges down and up (false keeps them as computed: gpt-oss)"_s;
    s.label = u"yarn_truncate"_s;
    s.choiceLabels = {u"true: floor and ceil the edges"_s, u"false: the edges as computed"_s};
    s.idle = [](const Params &p) { return readBy(p, u"yarn-truncate"_s); };
    s.formula = [](const Params &) {
        return tr("true: the ramp's edges are ⌊d(β<sub>fast</sub>)⌋ and ⌈d(β<sub>slow</sub>)⌉, as HF does by "
                  "default.<br>false: they stay as computed (gpt-oss: 8.093 and 17.398). Both are then clamped "
                  "to [0, r − 1], and 0.001 apart when they meet.");
    };
    return s;
}

ParamSpec mscaleRow(const QString &key, bool allDim)
{
    ParamSpec s = ParamRows::optionalNumber(key, ParamGroup::Family, [allDim](Params &p) -> std::optional<double> & {
        return allDim ? p.rope.mscaleAllDim : p.rope.mscale;
    });
    s.help = allDim ? u"yarn's mscale_all_dim (DeepSeek), in [0, 1000000]: the attention factor's divisor, and its\n"
                      "      square scales the softmax"_s
                    : u"yarn's mscale (DeepSeek), in [0, 1000000]: with mscale-all-dim, the attention factor is\n"
                      "      get_mscale(f, mscale) / get_mscale(f, mscale_all_dim)"_s;
    s.label = allDim ? u"mscale_all_dim"_s : u"mscale"_s;
    s.allowed = [](const Params &) { return u"unset or a number in "_s + scalingRange(true); };
    s.check = [key, allDim](const Params &p) -> std::optional<ParamError> {
        const auto &m = allDim ? p.rope.mscaleAllDim : p.rope.mscale;
        if (m && !(*m >= 0.0 && *m <= kMaxScaling)) // also refuses NaN
            return ParamError {key, u"a number in "_s + scalingRange(true), QString(), number(*m)};
        return std::nullopt;
    };
    s.idle = [key, allDim](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = readBy(p, key))
            return idle;
        if (allDim)
            return std::nullopt; // it scales the softmax whatever the attention factor
        if (p.rope.attentionFactor)
            return IdleReason {
                Code::ExplicitAttentionFactor,
                tr("attention-factor %1 is given: yarn uses it as it is.").arg(number(*p.rope.attentionFactor))};
        if (!p.rope.mscaleAllDim || *p.rope.mscaleAllDim == 0.0)
            return IdleReason {Code::NoMscaleAllDim,
                               tr("yarn reads mscale only beside a non-zero mscale-all-dim; the attention factor is "
                                  "0.1·ln f + 1.")};
        return std::nullopt;
    };
    s.formula = [](const Params &p) {
        QString text = tr("get_mscale(f, m) = 0.1·m·ln f + 1 (1 for f ≤ 1). With mscale and mscale_all_dim both "
                          "given and non-zero, yarn's attention factor is get_mscale(f, mscale) / get_mscale(f, "
                          "mscale_all_dim); DeepSeek-V3's 1/1 gives 1, and its attention multiplies the softmax "
                          "scale by get_mscale(f, mscale_all_dim)² instead.");
        if (const auto d = description(p); d && p.rope.type == RopeType::Yarn)
            text += tr(" Now the attention factor is %1, the softmax scale factor %2, the logit scale %3.")
                        .arg(NumberText::compact(d->attentionFactor, 5), NumberText::compact(d->softmaxScaleFactor, 5),
                             NumberText::compact(d->logitScale, 5));
        return text;
    };
    return s;
}

ParamSpec attentionRow()
{
    ParamSpec s
        = ParamRows::optionalNumber(u"attention-factor"_s, ParamGroup::Family,
                                    [](Params &p) -> std::optional<double> & { return p.rope.attentionFactor; });
    s.help = u"attention_factor, in (0, 1000000]: multiplies cos and sin as given (yarn, longrope); unset, the\n"
             "      type works it out"_s;
    s.label = u"attention_factor"_s;
    s.allowed = [](const Params &) { return u"unset or a number in "_s + scalingRange(false); };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        const auto &f = p.rope.attentionFactor;
        if (f && !(*f > 0.0 && *f <= kMaxScaling)) // also refuses NaN
            return ParamError {u"attention-factor"_s, u"a number in "_s + scalingRange(false), QString(), number(*f)};
        return std::nullopt;
    };
    s.idle = [](const Params &p) { return readBy(p, u"attention-factor"_s); };
    s.formula = [](const Params &p) {
        QString text = tr("What multiplies cos and sin, so q·k by its square. Unset, yarn takes 0.1·ln f + 1 (or the "
                          "mscale ratio) and longrope √(1 + ln f / ln L₀); the other types 1.");
        if (const auto d = description(p))
            text += tr(" Now %1.").arg(NumberText::compact(d->attentionFactor, 5));
        return text;
    };
    return s;
}

ParamSpec factorListRow(const QString &key, bool longList)
{
    ParamSpec s = ParamRows::numberList(
        key, ParamGroup::Family,
        [longList](Params &p) -> std::vector<double> & { return longList ? p.rope.longFactor : p.rope.shortFactor; },
        RopeParams::kMaxHeadDim / 2);
    s.help = longList ? u"longrope's long_factor: rotary_dim/2 divisors, one per pair, while max_len exceeds\n"
                        "      original_max_len"_s
                      : u"longrope's short_factor: rotary_dim/2 divisors, one per pair, while max_len is at most\n"
                        "      original_max_len"_s;
    s.label = longList ? u"long_factor"_s : u"short_factor"_s;
    const auto allowed = [](const Params &p) {
        if (underRope(p) && p.rope.type == RopeType::LongRope && rotaryValid(p))
            return u"a list of %1 numbers in %2 (rotary_dim / 2)"_s.arg(RopeFrequencies::pairs(p.rope))
                .arg(factorRange());
        return u"none or a list of numbers in "_s + factorRange();
    };
    s.allowed = allowed;
    s.check = [key, longList, allowed](const Params &p) -> std::optional<ParamError> {
        const std::vector<double> &list = longList ? p.rope.longFactor : p.rope.shortFactor;
        for (const double v : list) {
            if (!(v >= kMinFactor && v <= kMaxFactor))
                return ParamError {key, u"a list of numbers in "_s + factorRange(), QString(), number(v)};
        }
        if (!neededNow(p, key) || !rotaryValid(p))
            return std::nullopt;
        const auto want = static_cast<std::size_t>(RopeFrequencies::pairs(p.rope));
        if (list.empty())
            return needed(key, p, u"one divisor per rotary pair"_s, allowed(p));
        if (list.size() != want)
            return ParamError {key, allowed(p), u"has %1 values"_s.arg(list.size()), std::nullopt};
        return std::nullopt;
    };
    s.idle = [key, longList](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = readBy(p, key))
            return idle;
        if (!p.rope.originalMaxLen)
            return std::nullopt;
        const bool usesLong = p.maxLen > *p.rope.originalMaxLen;
        if (usesLong == longList)
            return std::nullopt;
        return IdleReason {Code::OtherFactorList,
                           usesLong ? tr("max_len %1 exceeds original_max_len %2: longrope reads long-factor.")
                                          .arg(p.maxLen)
                                          .arg(*p.rope.originalMaxLen)
                                    : tr("max_len %1 is within original_max_len %2: longrope reads short-factor.")
                                          .arg(p.maxLen)
                                          .arg(*p.rope.originalMaxLen)};
    };
    s.formula = [](const Params &p) {
        QString text = tr("longrope divides pair i's frequency by its own factor: θ<sub>i</sub> = 1/(ext<sub>i</sub>·"
                          "θ<sup>2i/r</sup>), ext the long factors when max_len exceeds L₀, else the short ones "
                          "(Phi-3, Phi-4). One value per rotary pair, r/2 in all.");
        if (underRope(p) && rotaryValid(p))
            text += tr(" Now %1 values each.").arg(RopeFrequencies::pairs(p.rope));
        return text;
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    return {
        factorRow(),
        originalRow(),
        llama3Row(u"low-freq-factor"_s, true),
        llama3Row(u"high-freq-factor"_s, false),
        betaRow(u"beta-fast"_s, true),
        betaRow(u"beta-slow"_s, false),
        truncateRow(),
        mscaleRow(u"mscale"_s, false),
        mscaleRow(u"mscale-all-dim"_s, true),
        attentionRow(),
        factorListRow(u"short-factor"_s, false),
        factorListRow(u"long-factor"_s, true),
    };
}

} // namespace posenc::RopeScalingRows
