#include "check/rope/RopeDeclaredFactor.h"

#include "check/rope/RopeFunctionReplaced.h"

#include "core/NumberText.h"
#include "core/rope/RopeTypes.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeDeclaredFactor {

namespace {

// Attention factors closer than this (relative) are the same: a table's amplitude read to float32.
constexpr double kFactorDiffers = 1e-4;

double within(double slack)
{
    return std::max(kFactorDiffers, 2.0 * slack);
}

} // namespace

bool differs(double read, double slack, double declared)
{
    return declared > 0.0 && std::fabs(read / declared - 1.0) > within(slack);
}

QString words(double read, double slack, double declared, RopeType type)
{
    const bool missing = std::fabs(read - 1.0) <= within(slack);
    // The digits the cells pin the factor to: 6, or fewer for a half-precision cache.
    const int digits = slack > 0.0 ? std::clamp(int(std::ceil(-std::log10(slack))) + 1, 2, 6) : 6;
    const QString known
        = slack > 1e-6 ? u" (read from the cells to ±%1)"_s.arg(NumberText::compact(slack * read, 1)) : QString();
    const QString why = missing
        ? u"cos and sin not multiplied by it: LlamaRotaryEmbedding.forward's `cos() * attention_scaling`"_s
        : type == RopeType::Yarn || type == RopeType::LongRope
        ? u"the table's amplitude; transformers multiplies cos and sin by attention_scaling, modeling_rope_utils.py's "
          "attention_factor"_s
        : u"the table's amplitude; transformers multiplies cos and sin by 1 for rope_type %1, reading "
          "attention_factor for yarn and longrope only (modeling_rope_utils.py)"_s.arg(RopeTypes::word(type));
    return u"the attention factor is %1%2 where %3 is declared (%4)"_s.arg(NumberText::compact(read, digits), known,
                                                                           NumberText::compact(declared, 6), why);
}

void missing(const RopeFit::FitInput &input, RopeFit::Fit &fit)
{
    if (!(std::fabs(fit.typeAttentionFactor - 1.0) > 1e-9))
        return;
    RopeFit::Hypothesis unscaled = fit.hypothesis;
    unscaled.amplitude = 1.0;
    const RopeFit::Fit without = RopeFit::evaluate(input, unscaled);
    if (without.bad() != 0)
        return;
    fit.hypothesis = unscaled;
    fit.float32Angles = without.float32Angles;
    fit.mistakes.append(u"attention-factor-missing"_s);
}

std::optional<TableMatch> named(const RopeFit::FitInput &input, RopeFit::Fit fit, const RopeFit::Fit &found,
                                const std::function<TableMatch(const RopeFit::Fit &)> &matchOf)
{
    const double declared = fit.hypothesis.amplitude;
    const double read = found.hypothesis.amplitude, slack = found.hypothesis.amplitudeSlack;
    if (!differs(read, slack, declared))
        return std::nullopt;
    RopeFit::Hypothesis scaled = fit.hypothesis;
    scaled.amplitude = read;
    scaled.amplitudeSlack = slack;
    const RopeFit::Fit at = RopeFit::evaluate(input, scaled);
    if (at.bad() != 0)
        return std::nullopt;
    const bool missing = std::fabs(read - 1.0) <= within(slack);
    fit.hypothesis = scaled;
    fit.float32Angles = at.float32Angles;
    fit.mistakes.append(missing ? u"attention-factor-missing"_s : u"attention-factor"_s);
    TableMatch m = matchOf(fit);
    m.diagnosis = u"%1: the table's angles are the declaration's; %2"_s.arg(
        fit.mistakes.back(), words(read, slack, declared, fit.correct.params.rope.type));
    return m;
}

std::optional<TableMatch> fromReading(const RopeFit::FitInput &input, RopeFit::Fit fit, const RopeFit::Fit &found,
                                      std::int64_t rowZero,
                                      const std::function<TableMatch(const RopeFit::Fit &)> &matchOf)
{
    if (found.bad() != 0 || rowZero < 0)
        return std::nullopt;
    if (found.hypothesis.cosine != fit.hypothesis.cosine) {
        if (!RopeFunctionReplaced::read(input, fit, rowZero))
            return std::nullopt;
        return RopeFunctionReplaced::said(matchOf(fit), fit);
    }
    if (rowZero != fit.hypothesis.firstPosition)
        return std::nullopt;
    return named(input, fit, found, matchOf);
}

} // namespace posenc::RopeDeclaredFactor
