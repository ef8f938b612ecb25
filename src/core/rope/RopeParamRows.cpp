#include "RopeParamRows.h"

#include "RopeFrequencies.h"
#include "RopeRowParts.h"
#include "RopeScalingRows.h"
#include "RopeTypes.h"

#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeParamRows {

namespace {

using namespace RopeRowParts;

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
        // No head fits in d_model: the width is what to change ("in [2, 1]" named head_dim before).
        if (hi < lo)
            return ParamError {
                u"d-model"_s,
                u"an integer in [%1, %2]: head_dim, an even number of columns, is at most d_model"_s.arg(lo).arg(
                    Params::kMaxDModel),
                QString(), QString::number(p.dModel)};
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

ParamSpec placeRow()
{
    ParamSpec s = ParamRows::choice(u"rotary-place"_s, ParamGroup::Family, &Params::rope, &RopeParams::place,
                                    {u"prefix"_s, u"suffix"_s});
    s.help = u"where the rotary columns sit in the head: prefix = the first rotary_dim (HF's apply_rotary_pos_emb);\n"
             "      suffix = the last (DeepSeek-V4's x[..., -rope_dim:]); the rest pass through"_s;
    s.label = u"rotary_place"_s;
    // Every column of the head turns: none passes through, so the columns sit the same either way.
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (auto other = ropeIdle(p))
            return other;
        if (headDimValid(p) && factorValid(p) && RopeFrequencies::rotaryDim(p.rope) == p.rope.headDim)
            return IdleReason {IdleReason::Code::FamilySetting,
                               tr("every column of the head turns (rotary_dim = head_dim): none passes through, so "
                                  "the place changes nothing.")};
        return std::nullopt;
    };
    s.formula = [](const Params &p) {
        QString text = tr("prefix: the rotary columns are the head's first r, x[..., :r], and the rest pass through "
                          "(HF's apply_rotary_pos_emb).<br>suffix: they are its last r, x[..., −r:], after the "
                          "columns that pass through (DeepSeek-V4's apply_rotary_pos_emb). Only rope-input reads it; "
                          "the cos and sin tables are r wide wherever their columns sit.");
        if (headDimValid(p) && factorValid(p) && RopeFrequencies::rotaryDim(p.rope) == p.rope.headDim)
            text += tr(" Now every column turns: the place changes nothing.");
        return text;
    };
    return s;
}

ParamSpec typeRow()
{
    ParamSpec s
        = ParamRows::choice(u"rope-type"_s, ParamGroup::Family, &Params::rope, &RopeParams::type, RopeTypes::words());
    s.help = u"rope_type, HF's scaling of the frequencies for a longer context"_s;
    s.label = u"rope_type"_s;
    s.idle = ropeIdle;
    s.formula = [](const Params &) {
        QStringList lines {tr("How the frequencies are scaled, as HF transformers computes them:")};
        for (const RopeTypes::TypeSpec &t : RopeTypes::all())
            lines.append(u"%1: %2"_s.arg(t.word, t.summary));
        return lines.join(u"<br>"_s);
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    return QList<ParamSpec> {headDimRow(), thetaRow(), partialRow(), layoutRow(), placeRow(), typeRow()}
    + RopeScalingRows::rows();
}

} // namespace posenc::RopeParamRows
