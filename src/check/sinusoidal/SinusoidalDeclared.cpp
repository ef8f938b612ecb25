#include "SinusoidalDeclared.h"

#include "check/DeclaredWords.h"
#include "check/FitNumbers.h"
#include "check/rope/RopeRowPositions.h"
#include "check/TableHypothesis.h"
#include "check/CellTolerance.h"
#include "check/SampleScore.h"
#include "check/sinusoidal/SinusoidalCheckWords.h"
#include "check/sinusoidal/SinusoidalPhases.h"
#include "check/sinusoidal/SinusoidalRows.h"
#include "check/sinusoidal/TimestepReading.h"
#include "core/NumberText.h"
#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

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

QString orderWords(bool cosFirst, Layout layout)
{
    if (layout == Layout::Interleaved)
        return cosFirst ? u"the cosine first in each pair (cos in column 2i, sin in 2i + 1)"_s
                        : u"the sine first in each pair (sin in column 2i, cos in 2i + 1)"_s;
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
    const bool wholeShift = std::fabs(shift - std::round(shift)) < 1e-6 && std::round(shift) != declaredShift;
    // downscale_freq_shift is diffusers' parameter (get_timestep_embedding): a declared form of its
    // own (a shift other than 0, flip_sin_to_cos, a scale other than 1) is named by it; any other by its
    // base, the shift said beside.
    const SinusoidalParams &declaredForm = params.sinusoidal;
    const bool diffusersForm
        = declaredShift != 0.0 || declaredForm.flipSinToCos || declaredForm.timestepScale != 1.0;
    if (wholeShift && diffusersForm) {
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
    if (wholeShift) {
        // w_i = b^(-2i/D): the exponent's denominator D = 2 (d/2 - s), another width's where d's is meant.
        const double denominator = 2.0 * (half - std::round(shift));
        out.lines.append(
            u"the frequencies are those of base %1 (w_i = %1^(-2i/d)), where base %2 %3: w_1 = %4 instead of %5; "
            "the same frequencies as %2^(-2i/%6), the exponent's denominator %6 where d_model %7 is meant (another "
            "width's, as a context size or a smaller model's d_model in its place), or diffusers' "
            "downscale_freq_shift %8"_s.arg(NumberText::compact(theirs, 7), NumberText::exact(base),
                                            DeclaredWords::wasDeclared(), NumberText::compact(wf, 7),
                                            NumberText::compact(wd, 7), NumberText::exact(denominator),
                                            NumberText::exact(2.0 * (half - declaredShift)),
                                            NumberText::exact(std::round(shift))));
        return;
    }
    out.lines.append(u"the frequencies are those of base (max_period) %1 at downscale_freq_shift %2, where base %3 "
                     "%6: w_1 = %4 instead of %5"_s.arg(
                         NumberText::compact(theirs, 7), NumberText::exact(declaredShift), NumberText::exact(base),
                         NumberText::compact(wf, 7), NumberText::compact(wd, 7), DeclaredWords::wasDeclared()));
}

// The factor c that makes the sample the declared sinusoid at positions c * p, read from the
// leading rows' angles: the slowest pair's, which turns least between rows, then each faster pair's
// unwrapped by what c so far predicts (a fast pair pins c more finely). Nothing where the leading
// rows do not show it (too few, or a pair that is not a sine and a cosine of one angle).
std::optional<double> positionScale(const SinusoidalFit::FitInput &input, const Hypothesis &declared)
{
    const TableSample &sample = input.sample;
    const std::int64_t d = sample.cols();
    const PairReferenceSpec spec = SinusoidalFit::reference(declared, d, input.framing, input.format);
    const std::int64_t pairs = std::int64_t(spec.schedule.w.size());
    std::vector<std::int64_t> sinCol(static_cast<std::size_t>(pairs), -1), cosCol(static_cast<std::size_t>(pairs), -1);
    for (std::int64_t j = 0; j < d; ++j) {
        const ReferenceColumn &c = spec.columns[std::size_t(j)];
        if (c.pair >= 0 && c.pair < pairs)
            (c.isCos ? cosCol : sinCol)[std::size_t(c.pair)] = j;
    }
    // The last leading row whose position is past 0, and its sample index.
    std::int64_t last = -1;
    for (std::int64_t i = 0; i < std::min(sample.leadingRows, sample.size()); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (spec.compared(row) && spec.position(row) > 0)
            last = i;
    }
    if (last < 1)
        return std::nullopt;
    std::vector<std::int64_t> order(static_cast<std::size_t>(pairs));
    for (std::int64_t k = 0; k < pairs; ++k)
        order[std::size_t(k)] = k;
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return spec.schedule.w[std::size_t(a)] < spec.schedule.w[std::size_t(b)];
    });
    const double amplitude = spec.schedule.amplitude;
    const auto angleAt = [&](std::int64_t i, std::int64_t k) {
        return std::atan2(double(sample.values(i, sinCol[std::size_t(k)])) / amplitude,
                          double(sample.values(i, cosCol[std::size_t(k)])) / amplitude);
    };
    constexpr double kTwoPi = 2.0 * std::numbers::pi;
    std::optional<double> c;
    for (const std::int64_t k : order) {
        const double w = spec.schedule.w[std::size_t(k)];
        if (!(w > 0.0) || sinCol[std::size_t(k)] < 0 || cosCol[std::size_t(k)] < 0)
            continue;
        if (!c) {
            // The slowest pair unwrapped row by row: its angle must turn by less than pi a row.
            double angle = 0.0;
            double previous = 0.0;
            std::int64_t previousRow = -1;
            for (std::int64_t i = 0; i <= last; ++i) {
                const std::int64_t row = sample.rows[std::size_t(i)];
                if (!spec.compared(row))
                    continue;
                const double a = angleAt(i, k);
                if (previousRow >= 0)
                    angle += std::remainder(a - previous, kTwoPi);
                else
                    angle = a;
                previous = a;
                previousRow = row;
            }
            const std::int64_t p = spec.position(sample.rows[std::size_t(last)]);
            c = angle / (double(p) * w);
            if (!(std::fabs(*c) > 0.0) || !std::isfinite(*c))
                return std::nullopt;
            continue;
        }
        // A faster pair: its angle at the last row unwrapped around c's prediction, while the
        // prediction is sure to within a quarter turn.
        const std::int64_t p = spec.position(sample.rows[std::size_t(last)]);
        const double predicted = *c * double(p) * w;
        const double measured = predicted + std::remainder(angleAt(last, k) - predicted, kTwoPi);
        const double refined = measured / (double(p) * w);
        if (std::fabs(refined - *c) * double(p) * w > std::numbers::pi / 4.0)
            break;
        c = refined;
    }
    return c;
}

// Positions scaled by a constant: timesteps multiplied by 1000 twice, or in [0, 1] where the
// embedding expects [0, 1000) (stepfun-ai/Step1X-Edit#91, sgl-project/sglang#22059, sihyun-yu/REPA#40):
// the declared sinusoid at c * p, c fitted and rounded to the fewest digits the sample takes.
std::optional<Differences> scaledPositions(const SinusoidalFit::FitInput &input, const Hypothesis &declared,
                                           const SinusoidalFit::Fit &scored)
{
    const auto c = positionScale(input, declared);
    if (!c || *c <= 0.0 || std::fabs(*c - 1.0) < 1e-6)
        return std::nullopt;
    for (const double rounded : FitNumbers::roundings(*c, 15)) {
        if (rounded == 1.0)
            continue;
        Hypothesis h = declared;
        h.frequencyScale = declared.frequencyScale * rounded;
        const SinusoidalFit::Fit f = SinusoidalFit::evaluate(input, h, scored.bad());
        if (!explains(f.score.compared, f.bad()) || f.bad() >= scored.bad())
            continue;
        Differences out;
        out.ids.append(RopeRowPositions::kPositionsScaled);
        out.lines.append(u"the rows are the declared sinusoid at positions (timesteps) %1 times the rows' own: "
                         "row r holds %1 * r, every angle %1 times the declared one (%2 %3); a timestep multiplied "
                         "by 1000 once too often, or in [0, 1] where the embedding takes [0, 1000), gives this"_s
                             .arg(NumberText::compact(rounded, 7),
                                  declared.frequencyScale == 1.0
                                      ? u"scale 1"_s
                                      : u"scale %1"_s.arg(NumberText::compact(declared.frequencyScale, 7)),
                                  DeclaredWords::wasDeclared()));
        return out;
    }
    return std::nullopt;
}

// Both columns of every declared pair one function, the sine (cos-replaced) or the cosine
// (sin-replaced), in the declared layout, frequencies and order (luopeixiang/im2latex#10: sin in
// both columns of an interleaved half_dim - 1 sinusoid). No faithful sinusoid holds it.
std::optional<Differences> replacedColumns(const SinusoidalFit::FitInput &input, const Hypothesis &declared,
                                           const SinusoidalFit::Fit &scored)
{
    for (const SinusoidalFit::Replaced replaced : {SinusoidalFit::Replaced::Cosines, SinusoidalFit::Replaced::Sines}) {
        Hypothesis h = declared;
        h.replaced = replaced;
        const SinusoidalFit::Fit f = SinusoidalFit::evaluate(input, h, scored.bad());
        if (!explains(f.score.compared, f.bad()) || f.bad() >= scored.bad())
            continue;
        Differences out;
        out.ids.append(replaced == SinusoidalFit::Replaced::Cosines ? u"cos-replaced"_s : u"sin-replaced"_s);
        out.lines.append(SinusoidalCheckWords::diagnosis(h, declared, input.sample.cols(), input.framing, out.ids,
                                                         false));
        return out;
    }
    return std::nullopt;
}

// Each declared pair's frequency as its sine and cosine columns turn (SinusoidalPhases::trackPair),
// where those frequencies, the declared columns and phases explain the sample: a power law of
// another base (each w_i the declared one to a power s: base b^s, s = 1/2 the exponent i/d written
// for 2i/d), else frequencies-differ with the first pair that differs, its declared and read
// frequency (WaveGrad#12: exponents ** 1e-4 for 1e-4 ** exponents, every frequency near 1).
std::optional<Differences> readFrequencies(const SinusoidalFit::FitInput &input, const Hypothesis &declared)
{
    const TableSample &sample = input.sample;
    const std::int64_t d = sample.cols();
    const PairReferenceSpec spec = SinusoidalFit::reference(declared, d, input.framing, input.format);
    const std::size_t pairs = spec.schedule.w.size();
    std::vector<std::int64_t> sinCol(pairs, -1), cosCol(pairs, -1);
    for (std::int64_t j = 0; j < d; ++j) {
        const ReferenceColumn &c = spec.columns[std::size_t(j)];
        if (c.pair >= 0 && std::size_t(c.pair) < pairs)
            (c.isCos ? cosCol : sinCol)[std::size_t(c.pair)] = j;
    }
    PairReferenceSpec theirs = spec;
    std::vector<double> sigma(pairs, 0.0);
    for (std::size_t k = 0; k < pairs; ++k) {
        if (sinCol[k] < 0 || cosCol[k] < 0)
            return std::nullopt;
        const SinusoidalPhases::Track t = SinusoidalPhases::trackPair(sample, sinCol[k], cosCol[k], input.framing);
        // A pair that runs backwards is the order's business (flip-sin-to-cos), not its frequency's.
        if (!t.ok || !(t.omega >= -(4.0 * t.sigmaOmega + 1e-9)))
            return std::nullopt;
        theirs.schedule.w[k] = std::max(t.omega, 0.0);
        sigma[k] = t.sigmaOmega;
    }
    const CellTolerance exact = cellTolerance(input.format, false, input.stored, input.textRounding, theirs);
    const CellTolerance angles = cellTolerance(input.format, true, input.stored, input.textRounding, theirs);
    const SampleScore score = scoreOnSample(PairReference(theirs), sample, exact, &angles);
    if (!explains(score.compared, std::min(score.bad, score.badWithFloat32Angles)))
        return std::nullopt;
    const std::vector<double> &w = spec.schedule.w, &r = theirs.schedule.w;
    const auto differs = [&](std::size_t k) {
        return std::fabs(r[k] - w[k]) > 4.0 * sigma[k] + 1e-6 * std::max(w[k], 1e-12);
    };
    std::size_t first = pairs, count = 0;
    for (std::size_t k = 0; k < pairs; ++k) {
        if (differs(k)) {
            first = std::min(first, k);
            ++count;
        }
    }
    if (count == 0)
        return std::nullopt;
    Differences out;
    // One power s for every pair: ln r_k = s ln w_k (w_0 = 1 turns at 1 at any base).
    std::vector<double> powers;
    for (std::size_t k = 0; k < pairs; ++k) {
        if (w[k] > 0.0 && w[k] < 0.999 && r[k] > 0.0)
            powers.push_back(std::log(r[k]) / std::log(w[k]));
    }
    const double s = powers.empty() ? 0.0 : FitNumbers::median(powers);
    const bool powerLaw = s > 0.0 && std::fabs(r[0] - w[0]) <= 4.0 * sigma[0] + 1e-6
        && std::all_of(powers.begin(), powers.end(), [s](double p) { return std::fabs(p - s) <= 1e-3 * s; });
    if (powerLaw) {
        const double theirBase = std::pow(declared.base, s);
        const bool halved = std::fabs(s - 0.5) <= 1e-3;
        out.ids.append(halved ? u"exponent-halved"_s : kBase);
        out.lines.append(u"the pairs turn at the declared frequencies to the power %1, those of base %2 where base %3 "
                         "%4: w_1 = %5 instead of %6%7"_s.arg(
                             NumberText::compact(s, 4), NumberText::compact(theirBase, 7),
                             NumberText::exact(declared.base), DeclaredWords::wasDeclared(),
                             NumberText::compact(r[std::min<std::size_t>(1, pairs - 1)], 7),
                             NumberText::compact(w[std::min<std::size_t>(1, pairs - 1)], 7),
                             halved ? u" (the exponent i/d where 2i/d is meant)"_s : QString()));
        return out;
    }
    out.ids.append(kFrequencies);
    const auto range = [](const std::vector<double> &v) {
        const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        return u"%1 to %2"_s.arg(NumberText::compact(*lo, 5), NumberText::compact(*hi, 5));
    };
    out.lines.append(u"each pair is the sine and cosine of one angle, at frequencies no base or exponent of the "
                     "declared sinusoid gives: columns %1 and %2 (pair %3) turn at w = %4 where %5 gives w_%3 = %6, the "
                     "first of %7 of %8 pairs that differ (the pairs' frequencies run from %9 where the declared run "
                     "from %10)"_s.arg(sinCol[first])
                         .arg(cosCol[first])
                         .arg(first)
                         .arg(NumberText::compact(r[first], 7), DeclaredWords::the() + u" sinusoid"_s,
                              NumberText::compact(w[first], 7))
                         .arg(count)
                         .arg(pairs)
                         .arg(range(r), range(w)));
    return out;
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
    // The declared reference with the cosines (or sines) replaced: its own mistake, whatever a
    // reading without the declaration makes of it (at base 10000 an interleaved one is RoPE's).
    if (auto replaced = replacedColumns(input, declared, scored))
        return replaced;
    // Sine and cosine over the rows instead of the columns: no pairing of columns, which the fit reads.
    if (auto rows = SinusoidalRows::read(input))
        return rows;
    const auto found = SinusoidalFit::fit(input);
    if (!found || !explains(found->score.compared, found->bad()) || found->bad() >= scored.bad()) {
        if (auto scaled = scaledPositions(input, declared, scored))
            return scaled;
        // Timesteps that are not the rows' own from 0: read row by row; else each pair's frequency.
        auto timesteps = TimestepReading::read(input, declared, scored.bad() - 1);
        if (timesteps && !timesteps->ids.isEmpty() && !timesteps->noted)
            return timesteps;
        if (auto frequencies = readFrequencies(input, declared))
            return frequencies;
        return timesteps;
    }
    // The fit explains it; the rows' own timesteps may as well, as the declared sinusoid's: then
    // they are what the table is (a scheduler's, which the fit reads as parameters besides an offset).
    // Timesteps r + F are a window of the table, the fit's position-offset, both starts said.
    if (auto timesteps = TimestepReading::read(input, declared, found->bad());
        timesteps && !timesteps->ids.isEmpty() && !timesteps->positionOffset)
        return timesteps;
    const std::int64_t d = input.sample.cols();
    const std::int64_t firstRow = input.start();
    const Hypothesis &f = found->hypothesis;
    const Hypothesis c = SinusoidalFit::corrected(f, firstRow);
    Differences out;
    if (c.layout != declared.layout) {
        out.ids.append(kLayout);
        out.lines.append(u"the table is %1 where %2 %3"_s.arg(SinusoidalCheckWords::layout(c.layout),
                                                              SinusoidalCheckWords::layout(declared.layout),
                                                              DeclaredWords::wasDeclared()));
    } else if (c.swapped != declared.swapped) {
        // Interleaved, the order is no flip_sin_to_cos (diffusers' split [sin | cos] flipped) but
        // each pair's own: the mistake sin-cos-swapped against the paper's sin in column 2i.
        out.ids.append(c.layout == Layout::Interleaved ? u"sin-cos-swapped"_s : kFlip);
        out.lines.append(u"the table holds %1 where %2 %3"_s.arg(orderWords(c.swapped, c.layout),
                                                                 orderWords(declared.swapped, c.layout),
                                                                 DeclaredWords::wasDeclared()));
    }
    frequencyDifference(c, declared, params, d, out);
    // A base that is what a mistake makes of the declared one (100 of 10000: the exponent halved),
    // which the undeclared reading takes as the variant at that base (no table tells the two apart):
    // against the declaration it is that mistake.
    const bool baseMistaken = !SinusoidalFit::baseMistake(f.base).isEmpty() && c.base == declared.base;
    // The amplitude: c * PE at another c than the declared one (--pe-scale, else 1) is the mistake
    // scaled, both values said; the declared c is no mistake of the table's own.
    Hypothesis atDeclared = f;
    atDeclared.amplitude = declared.amplitude;
    const bool amplitudeDiffers = f.amplitude != declared.amplitude
        && SinusoidalFit::evaluate(input, atDeclared, std::numeric_limits<std::int64_t>::max()).bad() > found->bad();
    if (amplitudeDiffers) {
        out.ids.append(CheckMistakes::kScaled);
        out.lines.append(SinusoidalCheckWords::amplitudeMistake(f.amplitude, declared.amplitude, d));
    }
    // A table that differs in no declared parameter reads as the declared one with a mistake of its
    // own (positions from 1), which the undeclared reading names (TableCheck::nameDeclaredMistake).
    if (out.ids.isEmpty() && !baseMistaken)
        return std::nullopt;
    out.positionOffset = f.firstPosition - input.framing.firstRow;
    QStringList own = SinusoidalFit::mistakesOf(f, firstRow);
    own.removeAll(CheckMistakes::kScaled); // said above, against the declared amplitude
    if (!own.isEmpty()) {
        out.ids += own;
        out.lines.append(SinusoidalCheckWords::diagnosis(f, c, d, input.framing, own, false));
    }
    return out;
}

void name(TableMatch &match, const Differences &differences)
{
    // What was read without a name (timesteps of no scale): said beside the deviating cells.
    if (differences.noted) {
        for (const QString &line : differences.lines)
            match.notes.append(line);
        return;
    }
    match.mistakes = differences.ids;
    match.positionOffset = differences.positionOffset;
    match.verdict = CheckVerdict::Mistake;
    match.correctAgainst.clear();
    match.notes.prepend(u"declared: "_s + match.referenceText);
    match.diagnosis = differences.lines.join(u"; "_s);
}

} // namespace posenc::SinusoidalDeclared
