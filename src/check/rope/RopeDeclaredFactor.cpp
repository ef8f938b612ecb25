#include "check/rope/RopeDeclaredFactor.h"

#include "check/rope/RopeFunctionReplaced.h"

#include "check/PairReference.h"

#include "core/NumberText.h"
#include "core/rope/RopeTypes.h"

#include <algorithm>
#include <cmath>
#include <vector>

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

std::optional<TableMatch> uniform(const RopeFit::FitInput &input, const RopeFit::Fit &fit,
                                  const std::function<TableMatch(const RopeFit::Fit &)> &matchOf)
{
    RopeFit::Hypothesis unit = fit.hypothesis;
    unit.amplitude = 1.0;
    const PairReferenceSpec spec = RopeFit::reference(unit, input.framing);
    const TableSample &sample = input.sample;
    std::vector<double> ratios;
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::int64_t row = sample.rows[std::size_t(k)];
        if (!spec.compared(row))
            continue;
        const double p = double(spec.position(row));
        for (std::int64_t c = 0; c < std::min(sample.cols(), spec.cols()); ++c) {
            if (spec.columns[std::size_t(c)].pair < 0)
                continue;
            const double angle = p * spec.frequency(c);
            const double unitValue = spec.columns[std::size_t(c)].isCos ? std::cos(angle) : std::sin(angle);
            if (std::fabs(unitValue) >= 0.5)
                ratios.push_back(double(sample.values(k, c)) / unitValue);
        }
    }
    if (ratios.size() < 16)
        return std::nullopt;
    const auto middle = ratios.begin() + std::ptrdiff_t(ratios.size() / 2);
    std::nth_element(ratios.begin(), middle, ratios.end());
    const double read = *middle;
    if (!(read > 0.0) || !std::isfinite(read))
        return std::nullopt;
    // Known to the spread of the ratios about it (their middle half), at least float32's rounding.
    std::vector<double> spread;
    spread.reserve(ratios.size());
    for (const double r : ratios)
        spread.push_back(std::fabs(r / read - 1.0));
    const auto half = spread.begin() + std::ptrdiff_t(spread.size() / 2);
    std::nth_element(spread.begin(), half, spread.end());
    RopeFit::Fit found;
    found.hypothesis = fit.hypothesis;
    found.hypothesis.amplitude = read;
    found.hypothesis.amplitudeSlack = std::max(0x1p-24, *half);
    return named(input, fit, found, matchOf);
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
