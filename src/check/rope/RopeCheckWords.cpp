#include "RopeCheckWords.h"

#include "check/CheckDiagnosis.h"
#include "check/DeclaredWords.h"
#include "check/FitNumbers.h"
#include "check/TableMatch.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeCheckWords {

namespace {

QString number(double value)
{
    return NumberText::exact(value);
}

QString short5(double value)
{
    return NumberText::compact(value, 5);
}

QString layoutLine(const RopeParams &found, const RopeParams &correct)
{
    return u"the columns repeat as the %1 layout (%2) but the %3 layout %5 (%4): cat((freqs, freqs)) gives "
           "the half layout, repeat_interleave the interleaved one (llama.cpp#3018)"_s.arg(
               layout(found.layout),
               found.layout == RopeLayout::Half ? u"column c equals c + r/2"_s : u"column 2i equals 2i+1"_s,
               layout(correct.layout),
               correct.layout == RopeLayout::Half ? u"pair i in columns i and i + r/2"_s
                                                  : u"pair i in columns 2i and 2i+1"_s,
               DeclaredWords::wasDeclared());
}

QString attentionLine(const RopeFit::Fit &fit)
{
    const RopeParams &r = fit.hypothesis.params.rope;
    if (r.type == RopeType::Yarn)
        return u"the amplitude is 1, but yarn with factor %1 multiplies cos and sin by its attention factor 0.1 ln(%1) "
               "+ 1 = %2 (exllamav3#259); the correct table is %2 %3(p theta_i)"_s.arg(
                   number(r.factor.value_or(1.0)), short5(fit.typeAttentionFactor),
                   fit.hypothesis.cosine ? u"cos"_s : u"sin"_s);
    const QString amplitude = u"the amplitude is 1, but LongRoPE with factors above 1 multiplies cos and sin by "_s;
    const QString formula = u"sqrt(1 + ln(factor) / ln(original_max_position_embeddings))"_s;
    // The parameters' own factor where they give one (a declaration's, a published form's).
    if (fit.typeAttentionFactor > 1.0 + 1e-9)
        return amplitude
            + u"its attention factor %1 = %2 (modeling_rope_utils.py, _compute_longrope_parameters); the correct "
              "table is %2 %3(p theta_i)"_s.arg(formula, short5(fit.typeAttentionFactor),
                                               fit.hypothesis.cosine ? u"cos"_s : u"sin"_s);
    return amplitude + formula
        + u" > 1; the table does not hold that factor's value, so the error is measured against the table as found"_s;
}

// "pairs 3..7", "pair 3", "no pair": a run of pairs.
QString pairRun(std::int64_t first, std::int64_t end)
{
    if (end <= first)
        return u"no pair"_s;
    return end - first == 1 ? u"pair %1"_s.arg(first) : u"pairs %1..%2"_s.arg(first).arg(end - 1);
}

// YaRN's ramp where 1 - ramp belongs: the bands by pair, as _compute_yarn_parameters would have them.
QString yarnScalingLine(const RopeFit::Hypothesis &h)
{
    const RopeParams &r = h.params.rope;
    const RopeFrequencies::Description d = RopeFrequencies::describe(h.params);
    const std::int64_t kept = d.pairsKept.value_or(0), blended = d.pairsBlended.value_or(0);
    const std::int64_t pairs = RopeFrequencies::pairs(r);
    return u"yarn's blend runs the wrong way (factor %1, original_max_position_embeddings %2, beta_fast %3, "
           "beta_slow %4%5): the interpolated and extrapolated bands are exchanged, %6 (the short wavelengths) "
           "divided by the factor and %7 (the long ones) kept, the ramp of %8 reversed; _compute_yarn_parameters takes "
           "inv_freq_extrapolation_factor = 1 - ramp, which keeps the short wavelengths and divides the long ones"_s
               .arg(number(r.factor.value_or(1.0)))
               .arg(r.originalMaxLen.value_or(0))
               .arg(number(r.betaFast), number(r.betaSlow), r.yarnTruncate ? QString() : u", truncate false"_s,
                    pairRun(0, kept), pairRun(kept + blended, pairs), pairRun(kept, kept + blended));
}

QString scalingLine(const RopeFit::Hypothesis &h)
{
    const RopeParams &r = h.params.rope;
    if (r.type == RopeType::Yarn)
        return yarnScalingLine(h);
    const QString bands = u"llama3's factor %1, low_freq_factor %2, high_freq_factor %3, original %4"_s
                              .arg(number(r.factor.value_or(1.0)), number(r.lowFreqFactor), number(r.highFreqFactor))
                              .arg(r.originalMaxLen.value_or(0));
    if (h.scaling == RopeFit::ScalingMistake::BandsExchanged)
        return u"the kept and divided bands are exchanged (%1): the short wavelengths (< original / high) are divided "
               "by the factor and the long ones (> original / low) kept; _compute_llama3_parameters keeps the short "
               "ones and divides the long ones"_s.arg(bands);
    return u"the blend runs the wrong way (%1): the blended pairs take (1 - s) where s = (original / wavelength - "
           "low) / (high - low) belongs, so the pairs next to the divided band are kept and those next to the kept "
           "band divided; _compute_llama3_parameters gives (1 - s) inv / factor + s inv"_s.arg(bands);
}

} // namespace

QString variant(const RopeFit::Hypothesis &h, const QString &nearest)
{
    return u"a variant: %1, which none of posenc's published forms uses (RoFormer's and its presets' RoPE; a model "
           "without a preset may use it: compare with its config.json by --expect-config); the nearest published form "
           "is %2. Declare this reference to make it correct"_s.arg(reference(h), nearest);
}

QString layout(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s;
}

QString reference(const RopeFit::Hypothesis &h)
{
    const RopeParams &r = h.params.rope;
    QStringList parameters {u"rope_theta %1"_s.arg(number(r.theta))};
    if (r.type == RopeType::Proportional || r.partialRotaryFactor != 1.0)
        parameters.append(u"partial_rotary_factor %1"_s.arg(number(r.partialRotaryFactor)));
    if (r.factor && r.type != RopeType::Default && r.type != RopeType::LongRope)
        parameters.append(u"factor %1"_s.arg(number(*r.factor)));
    if (r.originalMaxLen && (r.type == RopeType::Yarn || r.type == RopeType::Llama3 || r.type == RopeType::Dynamic))
        parameters.append(u"original_max_position_embeddings %1"_s.arg(*r.originalMaxLen));
    if (r.type == RopeType::Yarn && (r.betaFast != 32.0 || r.betaSlow != 1.0))
        parameters.append(u"beta_fast %1, beta_slow %2"_s.arg(number(r.betaFast), number(r.betaSlow)));
    if (r.type == RopeType::Yarn && !r.yarnTruncate)
        parameters.append(u"truncate false"_s);
    if (r.type == RopeType::Yarn && r.mscale && r.mscaleAllDim)
        parameters.append(u"mscale %1, mscale_all_dim %2"_s.arg(number(*r.mscale), number(*r.mscaleAllDim)));
    if (r.type == RopeType::Llama3)
        parameters.append(
            u"low_freq_factor %1, high_freq_factor %2"_s.arg(number(r.lowFreqFactor), number(r.highFreqFactor)));
    if (r.type == RopeType::LongRope)
        parameters.append(u"a factor per pair"_s);
    return u"%1, %2 layout, rope_type %3 (%4), attention factor %5"_s.arg(
        h.cosine ? u"rope-cos"_s : u"rope-sin"_s, layout(r.layout), RopeTypes::word(r.type), parameters.join(u", "_s),
        short5(h.amplitude));
}

QString diagnosis(const RopeFit::Fit &fit, const RopeFit::Hypothesis &correct)
{
    const RopeFit::Hypothesis &h = fit.hypothesis;
    QStringList lines;
    for (const QString &mistake : fit.mistakes) {
        if (mistake == u"rope-layout"_s)
            lines.append(layoutLine(h.params.rope, correct.params.rope));
        else if (mistake == u"attention-factor-missing"_s)
            lines.append(attentionLine(fit));
        else if (mistake == CheckMistakes::kPositionOffset)
            // Rows before the declared window (its cache offset forgotten) say both starts.
            lines.append(h.firstPosition < correct.firstPosition
                             ? CheckDiagnosis::offsetLine(h.firstPosition, correct.firstPosition)
                             : CheckDiagnosis::offsetLine(h.firstPosition - correct.firstPosition,
                                                          u"HF's position_ids"_s));
        else if (mistake == CheckMistakes::kHalfPrecisionAngles)
            lines.append(CheckDiagnosis::halfPrecisionLine(h.rounding));
        else if (mistake == u"rope-scaling-reversed"_s)
            lines.append(scalingLine(h));
        else if (mistake == CheckMistakes::kScaled)
            lines.append(u"every value is %1 times RoPE's: rope_type %2 multiplies cos and sin by %3 (its "
                         "attention_factor); the table was scaled by c = %1"_s.arg(
                             NumberText::factor(h.amplitude / fit.typeAttentionFactor),
                             RopeTypes::word(h.params.rope.type), short5(fit.typeAttentionFactor)));
    }
    if (!lines.isEmpty())
        return lines.join(u"; "_s);
    return u"RoPE's %1 table as HF returns it: %2"_s.arg(h.cosine ? u"cos"_s : u"sin"_s, reference(h));
}

QString changedFactors(const std::vector<PairFactor> &changed, const QString &name, RopeLayout layout,
                       std::int64_t pairs)
{
    QStringList lines;
    for (const PairFactor &c : changed) {
        const std::int64_t first = layout == RopeLayout::Half ? c.pair : 2 * c.pair;
        const std::int64_t second = layout == RopeLayout::Half ? c.pair + pairs : 2 * c.pair + 1;
        lines.append(u"pair %1 (columns %2 and %3) is divided by %4 where %5's %6[%1] is %7"_s.arg(
            QString::number(c.pair), QString::number(first), QString::number(second), NumberText::compact(c.found, 7),
            name, c.longList ? u"long_factor"_s : u"short_factor"_s, NumberText::compact(c.published, 7)));
    }
    return lines.join(u"; "_s) + u"; every other pair is that form's: a factor changed or mistyped"_s;
}

QStringList notes(const RopeFit::Fit &fit)
{
    QStringList notes;
    const RopeParams &r = fit.hypothesis.params.rope;
    if (!fit.published.isEmpty())
        notes.append(u"the table of %1"_s.arg(fit.published.join(u", "_s)));
    if (r.type == RopeType::Yarn || r.type == RopeType::Llama3) {
        const RopeFrequencies::Description d = RopeFrequencies::describe(fit.hypothesis.params);
        notes.append(u"%1 pairs kept, %2 blended, %3 divided by the factor; another original_max_position_embeddings "
                     "with the same bands gives the same table: the table holds the bands, not the length"_s
                         .arg(d.pairsKept.value_or(0))
                         .arg(d.pairsBlended.value_or(0))
                         .arg(d.pairsDivided.value_or(0)));
    }
    // A theta of many digits may be a dynamic table's grown base.
    if (r.type == RopeType::Default && FitNumbers::significantDigits(r.theta) > 3)
        notes.append(
            u"dynamic NTK scaling gives a default table of a larger theta, theta (f L/L0 - (f - 1))^(r/(r-2)): "
            "a table cannot tell the two apart"_s);
    if (r.type == RopeType::Dynamic) {
        // Pair 1 turns at the grown base's theta'^(-2/r).
        const RopeFrequencies::Table t = RopeFrequencies::table(fit.hypothesis.params);
        const double rotary = double(RopeFrequencies::rotaryDim(r));
        if (t.inv.size() > 1 && t.inv[1] > 0.0)
            notes.append(u"a default table of rope_theta %1 (the grown base) is the same table: a table cannot tell "
                         "the two apart"_s.arg(number(std::pow(t.inv[1], -rotary / 2.0))));
    }
    if (fit.mistakes.contains(u"attention-factor-missing"_s) && r.type == RopeType::Yarn)
        notes.append(u"a config whose mscale equals its mscale_all_dim (DeepSeek-V2's and V3's) also gives amplitude "
                     "1: against such a config this table is correct"_s);
    if ((r.type == RopeType::Yarn || r.type == RopeType::LongRope)
        && std::fabs(fit.hypothesis.amplitude - fit.typeAttentionFactor) > 1e-5 * fit.typeAttentionFactor
        && std::fabs(fit.hypothesis.amplitude - 1.0) > 1e-5)
        notes.append(
            u"the amplitude %1 is not the type's attention factor %2: an attention_factor given explicitly"_s.arg(
                short5(fit.hypothesis.amplitude), short5(fit.typeAttentionFactor)));
    return notes;
}

QString longRopeRegime(std::int64_t original, std::int64_t rows)
{
    // HF's LongRoPE takes long_factor for a sequence past original_max_position_embeddings and
    // short_factor within it (modeling_rope_utils.py, _compute_longrope_parameters).
    return rows > original
        ? u"the short factors, which HF takes for a sequence within original_max_position_embeddings "
          "%1, though the table holds %2 rows"_s.arg(original)
              .arg(rows)
        : u"the long factors, which HF takes for a sequence past original_max_position_embeddings %1: "
          "the first %2 positions of such a sequence"_s.arg(original)
              .arg(rows);
}

QString thetaNotShown(std::int64_t pairs, std::int64_t rows)
{
    if (rows <= 1)
        return u"one row, position 0, holds cos 0 or sin 0 whatever the frequencies: rope_theta 10000 and the "
               "default type assumed"_s;
    return pairs <= 1 ? u"one pair, which turns at theta^0 = 1 whatever rope_theta: rope_theta 10000 assumed"_s
                      : u"%1 rows pin rope_theta only as far as the first rows turn"_s.arg(rows);
}

} // namespace posenc::RopeCheckWords
