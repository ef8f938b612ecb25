#include "SinusoidalDeclared.h"

#include "check/DeclaredWords.h"
#include "check/TableHypothesis.h"
#include "check/sinusoidal/SinusoidalCheckWords.h"
#include "core/NumberText.h"
#include "core/sinusoidal/Frequencies.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalDeclared {

namespace {

using SinusoidalFit::Hypothesis;
using SinusoidalFit::Variant;

// The frequency of pair 1, where the schedules of two hypotheses first differ (w_0 is 1 in both).
double secondFrequency(const Hypothesis &h, std::int64_t dModel)
{
    return SinusoidalFit::reference(h, dModel, RowFraming {}).schedule.w[1];
}

QString orderWords(bool cosFirst)
{
    return cosFirst ? u"the cosines first, [cos | sin] (flip_sin_to_cos=True)"_s
                    : u"the sines first, [sin | cos] (flip_sin_to_cos=False)"_s;
}

// The frequencies of `found` against the declared ones: the downscale_freq_shift that gives them at
// the declared base, where it is a whole number; else the base (max_period) at the declared shift.
void frequencyDifference(const Hypothesis &found, const Hypothesis &declared, const Params &params, std::int64_t dModel,
                         Differences &out)
{
    if (dModel < 4)
        return;
    const double wf = secondFrequency(found, dModel);
    const double wd = secondFrequency(declared, dModel);
    if (!(wf > 0.0 && wf < 1.0) || std::fabs(std::log(wf) - std::log(wd)) <= 1e-9 * std::fabs(std::log(wd)))
        return;
    const double half = double(dModel) / 2.0;
    const double base = params.sinusoidal.base;
    const double declaredShift = params.sinusoidal.freqShift;
    // w_1 = b^(-1/(d/2 - s)): s = d/2 + ln b / ln w_1.
    const double shift = half + std::log(base) / std::log(wf);
    if (std::fabs(shift - std::round(shift)) < 1e-6 && std::round(shift) != declaredShift) {
        out.ids.append(kShift);
        out.lines.append(u"the frequencies are w_i = %1^(-i/(d/2 - %2)), downscale_freq_shift %2 (the exponent "
                         "divided by half_dim - %2), where %3 %6: w_1 = %4 instead of %5"_s.arg(
                             NumberText::exact(base), NumberText::exact(std::round(shift)),
                             NumberText::exact(declaredShift), NumberText::compact(wf, 7), NumberText::compact(wd, 7),
                             DeclaredWords::wasDeclared()));
        return;
    }
    const double theirs = std::exp(-(half - declaredShift) * std::log(wf));
    out.ids.append(kBase);
    out.lines.append(u"the frequencies are those of base (max_period) %1 at downscale_freq_shift %2, where base %3 "
                     "%6: w_1 = %4 instead of %5"_s.arg(
                         NumberText::compact(theirs, 7), NumberText::exact(declaredShift), NumberText::exact(base),
                         NumberText::compact(wf, 7), NumberText::compact(wd, 7), DeclaredWords::wasDeclared()));
}

} // namespace

Hypothesis hypothesis(const Params &params, std::int64_t dModel)
{
    Hypothesis h;
    h.layout = params.sinusoidal.layout;
    h.swapped = params.sinusoidal.flipSinToCos && h.layout == Layout::Split;
    h.base = params.sinusoidal.base;
    h.frequencyScale = params.sinusoidal.timestepScale;
    if (params.sinusoidal.freqShift == 1.0 && dModel % 2 == 0 && dModel >= 4)
        h.variant = Variant::HalfDimMinusOne;
    else
        h.base = params.sinusoidal.frequencyBase(dModel);
    return h;
}

void orderColumns(PairReferenceSpec &spec, const Params &params)
{
    const std::int64_t d = static_cast<std::int64_t>(spec.columns.size());
    if (!params.sinusoidal.flipSinToCos || params.sinusoidal.layout != Layout::Split || d % 2 == 0)
        return;
    for (std::int64_t j = 0; j < d; ++j) {
        const ColumnRole role = Frequencies::role(j, d, params.sinusoidal);
        spec.columns[static_cast<std::size_t>(j)] = {role.pair, role.isCos};
    }
    spec.kernelLayout.reset();
}

std::optional<Differences> differences(const SinusoidalFit::FitInput &input, const Hypothesis &declared,
                                       const SinusoidalFit::Fit &scored, const Params &params)
{
    if (scored.bad() == 0)
        return std::nullopt;
    const auto found = SinusoidalFit::fit(input);
    if (!found || !explains(found->score.compared, found->bad()) || found->bad() >= scored.bad())
        return std::nullopt;
    const std::int64_t d = input.sample.cols();
    const std::int64_t firstRow = input.framing.firstRow;
    const Hypothesis &f = found->hypothesis;
    const Hypothesis c = SinusoidalFit::corrected(f, firstRow);
    Differences out;
    if (c.layout != declared.layout) {
        out.ids.append(kLayout);
        out.lines.append(u"the table is %1 where %2 %3"_s.arg(SinusoidalCheckWords::layout(c.layout),
                                                              SinusoidalCheckWords::layout(declared.layout),
                                                              DeclaredWords::wasDeclared()));
    } else if (c.swapped != declared.swapped) {
        out.ids.append(kFlip);
        out.lines.append(u"the table holds %1 where %2 %3"_s.arg(orderWords(c.swapped), orderWords(declared.swapped),
                                                                 DeclaredWords::wasDeclared()));
    }
    frequencyDifference(c, declared, params, d, out);
    // A base that is what a mistake makes of the declared one (100 of 10000: the exponent halved),
    // which the undeclared reading takes as the variant at that base (no table tells the two apart):
    // against the declaration it is that mistake.
    const bool baseMistaken = !SinusoidalFit::baseMistake(f.base).isEmpty() && c.base == declared.base;
    // A table that differs in no declared parameter reads as the declared one with a mistake of its
    // own (positions from 1), which the undeclared reading names (TableCheck::nameDeclaredMistake).
    if (out.ids.isEmpty() && !baseMistaken)
        return std::nullopt;
    out.positionOffset = f.firstPosition - firstRow;
    const QStringList own = SinusoidalFit::mistakesOf(f, firstRow);
    if (!own.isEmpty()) {
        out.ids += own;
        out.lines.append(SinusoidalCheckWords::diagnosis(f, c, d, input.framing, own, false));
    }
    return out;
}

void name(TableMatch &match, const Differences &differences)
{
    match.mistakes = differences.ids;
    match.positionOffset = differences.positionOffset;
    match.verdict = CheckVerdict::Mistake;
    match.correctAgainst.clear();
    match.notes.prepend(u"declared: "_s + match.referenceText);
    match.diagnosis = differences.lines.join(u"; "_s);
}

} // namespace posenc::SinusoidalDeclared
