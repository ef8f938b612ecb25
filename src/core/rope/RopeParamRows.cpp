#include "RopeParamRows.h"

#include "RopeFrequencies.h"

#include "core/NumberText.h"

#include <QCoreApplication>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeParamRows {

// --rope-type's words, in the order of RopeType.
const QStringList &typeWords()
{
    static const QStringList words
        = {u"default"_s, u"linear"_s, u"dynamic"_s, u"yarn"_s, u"longrope"_s, u"llama3"_s, u"proportional"_s};
    return words;
}

QString typeWord(RopeType type)
{
    return typeWords().value(static_cast<int>(type));
}

namespace {

using Code = IdleReason::Code;

constexpr double kMaxTheta = 1e15;
constexpr double kMaxFactor = 1e6;
// The least factor and longrope divisor: a smaller one makes the fastest pair turn more than
// 1000 radians a position, past what an angle p·θ keeps in double at p near 2^24.
constexpr double kMinFactor = 1e-3;

// yarn's beta_fast and beta_slow, rotations over the original context: HF's find_correction_dim
// takes ln(L0 / (2 pi beta)), which is infinite (a NaN table; with truncate, OverflowError) for a
// beta near 1e-308 or 1e308. Within these bounds every edge is finite.
constexpr double kMinBeta = 1e-6;
constexpr double kMaxBeta = 1e6;
// The most an attention factor, an mscale or an mscale_all_dim may be: cos and sin times the
// factor stay far inside float32 (1e300 made them infinite), and so does the score's square.
constexpr double kMaxScaling = 1e6;

// "numbers in [0.001, 1000000]": the range of a factor and of a longrope divisor, in words.
QString factorRange()
{
    return u"[%1, %2]"_s.arg(QString::number(kMinFactor), QString::number(kMaxFactor, 'f', 0));
}

QString tr(const char *text)
{
    return QCoreApplication::translate("RopeParamRows", text);
}

QString number(double value)
{
    return NumberText::exact(value);
}

bool underRope(const Params &p)
{
    return p.encoding == Encoding::Rope;
}

// head_dim's bounds: under rope, one head within d_model (rope-input rotates its first columns).
std::pair<std::int64_t, std::int64_t> headDimBounds(const Params &p)
{
    const bool dOk = p.dModel >= 1 && p.dModel <= Params::kMaxDModel;
    const std::int64_t hi = underRope(p) && dOk ? std::min(RopeParams::kMaxHeadDim, p.dModel) : RopeParams::kMaxHeadDim;
    return {2, hi};
}

// Whether head_dim passes its row's check: the rows that depend on it say nothing of a refused one.
bool headDimValid(const Params &p)
{
    const auto [lo, hi] = headDimBounds(p);
    return p.rope.headDim >= lo && p.rope.headDim <= hi && p.rope.headDim % 2 == 0;
}

bool factorValid(const Params &p)
{
    return p.rope.partialRotaryFactor > 0.0 && p.rope.partialRotaryFactor <= 1.0;
}

// The smallest rotary dim the type allows: dynamic's exponent r / (r - 2) needs r >= 4.
std::int64_t minRotaryDim(RopeType type)
{
    return type == RopeType::Dynamic ? 4 : 2;
}

// Whether head_dim and partial_rotary_factor give the type a rotary dim it can turn.
bool rotaryValid(const Params &p)
{
    if (!headDimValid(p) || !factorValid(p))
        return false;
    if (p.rope.type == RopeType::Proportional)
        return RopeFrequencies::livePairs(p.rope) >= 1;
    const std::int64_t r = RopeFrequencies::rotaryDim(p.rope);
    return r >= minRotaryDim(p.rope.type) && r % 2 == 0;
}

std::optional<IdleReason> ropeIdle(const Params &p)
{
    return ParamRows::otherEncoding(p, Encoding::Rope);
}

// "yarn", "yarn and longrope", "linear, dynamic, yarn and llama3".
QString typeList(const QList<RopeType> &types)
{
    QStringList words;
    for (const RopeType t : types)
        words.append(typeWord(t));
    const QString last = words.takeLast();
    return words.isEmpty() ? last : tr("%1 and %2").arg(words.join(u", "_s), last);
}

// Idle under another encoding, and under a rope-type that does not read the parameter.
std::optional<IdleReason> readBy(const Params &p, const QList<RopeType> &types)
{
    if (const auto idle = ropeIdle(p))
        return idle;
    if (types.contains(p.rope.type))
        return std::nullopt;
    return IdleReason {Code::OtherRopeType,
                       (types.size() == 1 ? tr("rope-type %1 does not read it; only %2 does.")
                                          : tr("rope-type %1 does not read it; %2 do."))
                           .arg(typeWord(p.rope.type), typeList(types))};
}

// "is needed by rope-type yarn: <what>", for a parameter the type cannot do without.
ParamError needed(const QString &key, const Params &p, const QString &what, const QString &allowed)
{
    return ParamError {key, allowed, u"is needed by rope-type %1: %2"_s.arg(typeWord(p.rope.type), what), std::nullopt};
}

// A number field of the group; any double parses, so that the check refuses NaN with the range.
ParamSpec numberRow(QString key, QString valueName, std::function<double &(Params &)> field)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = ParamGroup::Family;
    s.kind = ParamKind::Number;
    s.valueName = std::move(valueName);
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *d = std::get_if<double>(&v))
            field(p) = *d;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        bool ok = false;
        const double v = t.trimmed().toDouble(&ok);
        return ok ? std::optional<ParamValue>(ParamValue(v)) : std::nullopt;
    };
    s.idle = ropeIdle;
    return s;
}

// A finite number > 0, refused with `allowed` otherwise.
std::optional<ParamError> positive(const QString &key, double value, const QString &allowed)
{
    if (std::isfinite(value) && value > 0.0)
        return std::nullopt;
    return ParamError {key, allowed, QString(), number(value)};
}

QString positiveText()
{
    return u"a finite number > 0"_s;
}

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

// The derived numbers for a formula's "now", when the parameters are RoPE's and valid.
std::optional<RopeFrequencies::Description> description(const Params &p)
{
    if (!underRope(p) || !p.isValid())
        return std::nullopt;
    return RopeFrequencies::describe(p);
}

ParamSpec headDimRow()
{
    const auto bounds = headDimBounds;
    const auto allowed = [bounds](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return u"an even integer in [%1, %2]%3"_s.arg(lo).arg(hi).arg(hi < RopeParams::kMaxHeadDim ? u" (d_model)"_s
                                                                                                   : QString());
    };
    ParamSpec s;
    s.key = u"head-dim"_s;
    s.group = ParamGroup::Family;
    s.kind = ParamKind::Integer;
    s.valueName = u"N"_s;
    s.help = u"head_dim: the columns of one attention head; rope-input rotates the first head_dim columns of s*E"_s;
    s.label = u"head_dim"_s;
    s.controlMin = 0;
    s.controlMax = RopeParams::kMaxHeadDim;
    s.value = [](const Params &p) { return ParamValue(p.rope.headDim); };
    s.assign = [](Params &p, const ParamValue &v) {
        if (const auto *i = std::get_if<std::int64_t>(&v))
            p.rope.headDim = *i;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        bool ok = false;
        const qlonglong v = t.trimmed().toLongLong(&ok);
        return ok ? std::optional<ParamValue>(ParamValue(std::int64_t(v))) : std::nullopt;
    };
    s.bounds = bounds;
    s.allowed = allowed;
    s.check = [bounds, allowed](const Params &p) -> std::optional<ParamError> {
        const auto [lo, hi] = bounds(p);
        const std::int64_t v = p.rope.headDim;
        if (v >= lo && v <= hi && v % 2 == 0)
            return std::nullopt;
        return ParamError {u"head-dim"_s, allowed(p), QString(), QString::number(v)};
    };
    s.idle = ropeIdle;
    s.formula = [](const Params &p) {
        QString text = tr("head_dim, the columns of one attention head's query and key. RoPE turns the first r = "
                          "int(head_dim·partial_rotary_factor) of them in r/2 pairs and passes the rest through "
                          "unchanged; rope-input shows it on the first head_dim columns of s·E.");
        if (headDimValid(p) && factorValid(p))
            text += tr(" Now r = %1.").arg(RopeFrequencies::rotaryDim(p.rope));
        return text;
    };
    return s;
}

ParamSpec thetaRow()
{
    ParamSpec s = numberRow(u"rope-theta"_s, u"B"_s, [](Params &p) -> double & { return p.rope.theta; });
    s.help = u"rope_theta: pair i of the rotary dim r turns at theta^(-2i/r) radians per position"_s;
    s.label = u"rope_theta"_s;
    s.allowed = [](const Params &) { return u"a number in (1, 1e15]"_s; };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        if (p.rope.theta > 1.0 && p.rope.theta <= kMaxTheta) // also refuses NaN
            return std::nullopt;
        return ParamError {u"rope-theta"_s, u"a number in (1, 1e15]"_s, QString(), number(p.rope.theta)};
    };
    s.formula = [](const Params &p) {
        QString text = tr("θ in θ<sub>i</sub> = θ<sup>−2i/r</sup>: pair i of the rotary dim r turns by p·θ<sub>i</sub> "
                          "at position p (Su et al. 2021). 10000 in the paper and Llama 2, 500000 in Llama 3.");
        if (const auto d = description(p))
            text += tr(" Now the wavelengths 2π/θ<sub>i</sub> run from %1 to %2 positions, after the scaling.")
                        .arg(NumberText::compact(d->wavelengthMin, 5), NumberText::compact(d->wavelengthMax, 5));
        return text;
    };
    return s;
}

ParamSpec partialRow()
{
    const auto allowed = [](const Params &p) {
        QString text = u"a number in (0, 1]"_s;
        if (!underRope(p) || !headDimValid(p))
            return text;
        if (p.rope.type == RopeType::Proportional)
            return text + u" with int(F·head_dim // 2) >= 1 (head_dim %1)"_s.arg(p.rope.headDim);
        return text
            + u" with int(head_dim·F) even and >= %1 (head_dim %2)"_s.arg(minRotaryDim(p.rope.type))
                  .arg(p.rope.headDim);
    };
    ParamSpec s = numberRow(u"partial-rotary-factor"_s, u"F"_s,
                            [](Params &p) -> double & { return p.rope.partialRotaryFactor; });
    s.help = u"partial_rotary_factor: the rotary dim is int(head_dim*F), even and > 0; for proportional, the share\n"
             "      of head_dim's pairs that turn"_s;
    s.label = u"partial_rotary_factor"_s;
    s.allowed = allowed;
    s.check = [allowed](const Params &p) -> std::optional<ParamError> {
        const double f = p.rope.partialRotaryFactor;
        const QString key = u"partial-rotary-factor"_s;
        if (!factorValid(p))
            return ParamError {key, allowed(p), QString(), number(f)};
        if (!underRope(p) || !headDimValid(p))
            return std::nullopt;
        if (p.rope.type == RopeType::Proportional) {
            if (RopeFrequencies::livePairs(p.rope) >= 1)
                return std::nullopt;
            return ParamError {
                key, allowed(p),
                u"turns int(%1·%2 // 2) = 0 pairs under rope-type proportional"_s.arg(number(f)).arg(p.rope.headDim),
                number(f)};
        }
        const std::int64_t r = RopeFrequencies::rotaryDim(p.rope);
        if (r % 2 != 0 || r < 2)
            return ParamError {key, allowed(p),
                               u"gives the rotary dim int(%1·%2) = %3, %4"_s.arg(p.rope.headDim)
                                   .arg(number(f))
                                   .arg(r)
                                   .arg(r % 2 != 0 ? u"which is odd"_s : u"which turns nothing"_s),
                               number(f)};
        if (r < minRotaryDim(p.rope.type))
            return ParamError {key, allowed(p),
                               u"gives the rotary dim int(%1·%2) = %3; rope-type dynamic needs at least 4 (its "
                               "exponent r/(r - 2))"_s.arg(p.rope.headDim)
                                   .arg(number(f))
                                   .arg(r),
                               number(f)};
        return std::nullopt;
    };
    s.formula = [](const Params &p) {
        QString text = tr("F: the rotary dim is r = int(head_dim·F), the columns that turn, and θ<sub>i</sub> = "
                          "θ<sup>−2i/r</sup> (GPT-NeoX 0.25, Phi-4-mini 0.75).<br>proportional: all head_dim "
                          "columns form pairs, the first int(F·head_dim // 2) turn at θ<sup>−2j/head_dim</sup> and "
                          "the rest at frequency 0 (Gemma 4): the exponent's denominator is head_dim, not r.");
        if (underRope(p) && rotaryValid(p))
            text += tr(" Now %1 of %2 pairs turn.")
                        .arg(RopeFrequencies::livePairs(p.rope))
                        .arg(RopeFrequencies::pairs(p.rope));
        return text;
    };
    return s;
}

ParamSpec layoutRow()
{
    ParamSpec s = ParamRows::choice(u"rope-layout"_s, ParamGroup::Family, &Params::rope, &RopeParams::layout,
                                    {u"half"_s, u"interleaved"_s});
    s.help = u"the columns a pair turns: half = (i, i + r/2), rotate_half (HF Llama, GPT-NeoX, Qwen, Mistral);\n"
             "      interleaved = (2i, 2i + 1) (GPT-J, Meta's reference, GLM)"_s;
    s.label = u"rope_layout"_s;
    s.idle = ropeIdle;
    s.formula = [](const Params &) {
        return tr("half: pair i is columns (i, i + r/2), turned by rotate_half(x) = [−x<sub>2</sub>, x<sub>1</sub>] "
                  "(HF Llama, GPT-NeoX, Qwen, Mistral).<br>interleaved: pair i is columns (2i, 2i + 1) (GPT-J, "
                  "Meta's reference code, GLM). The same model in the two layouts differs by a permutation of the "
                  "columns of its query and key weights.");
    };
    return s;
}

ParamSpec typeRow()
{
    ParamSpec s = ParamRows::choice(u"rope-type"_s, ParamGroup::Family, &Params::rope, &RopeParams::type, typeWords());
    s.help = u"rope_type, HF's scaling of the frequencies for a longer context"_s;
    s.label = u"rope_type"_s;
    s.idle = ropeIdle;
    s.formula = [](const Params &) {
        return tr("How the frequencies are scaled, as HF transformers computes them:<br>default: θ<sub>i</sub> = "
                  "θ<sup>−2i/r</sup><br>linear: θ<sub>i</sub>/factor (position interpolation)<br>dynamic: NTK, the "
                  "base raised as max_len passes the original length<br>yarn: the slow pairs divided by the factor, "
                  "the fast kept, a ramp between, and an attention factor<br>longrope: each pair divided by its "
                  "short or long factor<br>llama3: pairs kept, blended or divided by their wavelength<br>"
                  "proportional: the first pairs of head_dim turn, the rest stay at 0");
    };
    return s;
}

ParamSpec factorRow()
{
    const QList<RopeType> needs = {RopeType::Linear, RopeType::Dynamic, RopeType::Yarn, RopeType::Llama3};
    const QString range = u"a number in "_s + factorRange();
    ParamSpec s = ParamRows::optionalNumber(u"rope-factor"_s, ParamGroup::Family,
                                            [](Params &p) -> std::optional<double> & { return p.rope.factor; });
    s.help = u"factor: linear, dynamic, yarn and llama3 need it, and longrope without attention-factor (HF's\n"
             "      max_position_embeddings/original_max_position_embeddings where a config has none); proportional's\n"
             "      divisor (unset: 1)"_s;
    s.label = u"rope_factor"_s;
    s.allowed = [range](const Params &) { return u"unset or "_s + range; };
    s.check = [needs, range](const Params &p) -> std::optional<ParamError> {
        const auto &f = p.rope.factor;
        if (f && !(*f >= kMinFactor && *f <= kMaxFactor))
            return ParamError {u"rope-factor"_s, range, QString(), number(*f)};
        const bool longRopeNeeds = p.rope.type == RopeType::LongRope && !p.rope.attentionFactor;
        if (!f && underRope(p) && (needs.contains(p.rope.type) || longRopeNeeds))
            return needed(u"rope-factor"_s, p, u"how many times longer the context becomes"_s, range);
        return std::nullopt;
    };
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = readBy(p,
                                     {RopeType::Linear, RopeType::Dynamic, RopeType::Yarn, RopeType::LongRope,
                                      RopeType::Llama3, RopeType::Proportional}))
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
    const QList<RopeType> needs = {RopeType::Dynamic, RopeType::Yarn, RopeType::LongRope, RopeType::Llama3};
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
             "      max_position_embeddings); dynamic, yarn, longrope and llama3 need it"_s;
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
    s.check = [needs, bounds, rangeOf](const Params &p) -> std::optional<ParamError> {
        const auto &l = p.rope.originalMaxLen;
        const auto [lo, hi] = bounds(p);
        if (l && (*l < lo || *l > hi))
            return ParamError {u"original-max-len"_s, rangeOf(p), QString(), QString::number(*l)};
        if (!l && underRope(p) && needs.contains(p.rope.type))
            return needed(u"original-max-len"_s, p, u"the context length the model was trained on"_s, rangeOf(p));
        return std::nullopt;
    };
    s.idle = [needs](const Params &p) { return readBy(p, needs); };
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
    s.idle = [](const Params &p) { return readBy(p, {RopeType::Llama3}); };
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
    s.help = fast ? u"yarn's beta_fast: pairs turning more than N times over original_max_len are kept"_s
                  : u"yarn's beta_slow: pairs turning fewer than N times over original_max_len are divided"_s;
    s.label = fast ? u"beta_fast"_s : u"beta_slow"_s;
    s.allowed = [](const Params &) { return betaText(); };
    s.check = [key, fast](const Params &p) -> std::optional<ParamError> {
        const double v = fast ? p.rope.betaFast : p.rope.betaSlow;
        if (v >= kMinBeta && v <= kMaxBeta) // also refuses NaN
            return std::nullopt;
        return ParamError {key, betaText(), QString(), number(v)};
    };
    s.idle = [](const Params &p) { return readBy(p, {RopeType::Yarn}); };
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
    s.idle = [](const Params &p) { return readBy(p, {RopeType::Yarn}); };
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
    s.help = allDim ? u"yarn's mscale_all_dim (DeepSeek): the attention factor's divisor, and its square scales\n"
                      "      the softmax"_s
                    : u"yarn's mscale (DeepSeek): with mscale-all-dim, the attention factor is\n"
                      "      get_mscale(f, mscale) / get_mscale(f, mscale_all_dim)"_s;
    s.label = allDim ? u"mscale_all_dim"_s : u"mscale"_s;
    s.allowed = [](const Params &) { return u"unset or a number in "_s + scalingRange(true); };
    s.check = [key, allDim](const Params &p) -> std::optional<ParamError> {
        const auto &m = allDim ? p.rope.mscaleAllDim : p.rope.mscale;
        if (m && !(*m >= 0.0 && *m <= kMaxScaling)) // also refuses NaN
            return ParamError {key, u"a number in "_s + scalingRange(true), QString(), number(*m)};
        return std::nullopt;
    };
    s.idle = [allDim](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = readBy(p, {RopeType::Yarn}))
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
    s.help = u"attention_factor: multiplies cos and sin as given (yarn, longrope); unset, the type works it out"_s;
    s.label = u"attention_factor"_s;
    s.allowed = [](const Params &) { return u"unset or a number in "_s + scalingRange(false); };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        const auto &f = p.rope.attentionFactor;
        if (f && !(*f > 0.0 && *f <= kMaxScaling)) // also refuses NaN
            return ParamError {u"attention-factor"_s, u"a number in "_s + scalingRange(false), QString(), number(*f)};
        return std::nullopt;
    };
    s.idle = [](const Params &p) { return readBy(p, {RopeType::Yarn, RopeType::LongRope}); };
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
        if (!underRope(p) || p.rope.type != RopeType::LongRope || !rotaryValid(p))
            return std::nullopt;
        const auto want = static_cast<std::size_t>(RopeFrequencies::pairs(p.rope));
        if (list.empty())
            return needed(key, p, u"one divisor per rotary pair"_s, allowed(p));
        if (list.size() != want)
            return ParamError {key, allowed(p), u"has %1 values"_s.arg(list.size()), std::nullopt};
        return std::nullopt;
    };
    s.idle = [longList](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = readBy(p, {RopeType::LongRope}))
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
        headDimRow(),
        thetaRow(),
        partialRow(),
        layoutRow(),
        typeRow(),
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

} // namespace posenc::RopeParamRows
