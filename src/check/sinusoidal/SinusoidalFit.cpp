#include "SinusoidalFit.h"

#include "check/CheckDiagnosis.h"
#include "check/FitNumbers.h"
#include "check/TableMatch.h"
#include "check/sinusoidal/SinusoidalPhases.h"
#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalFit {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kCommonBase = kPublishedBase;

// The bases of a published form and of the named mistakes of its base: a fit tries them first
// and ranks them as round.
const std::vector<double> &namedBases()
{
    static const std::vector<double> bases {kCommonBase, 100.0, kCommonBase * kCommonBase, std::numbers::e,
                                            std::exp(0.5)};
    return bases;
}

bool isNamedBase(double base)
{
    return std::any_of(namedBases().begin(), namedBases().end(),
                       [&](double named) { return std::fabs(base / named - 1.0) < 1e-12; });
}

// A table's amplitude as a writer scales it (1, sqrt(d), d, their inverses, sqrt(d / 2), rows of unit
// norm) within the values' rounding (a half type's mean radius is off by up to a unit), or in the
// fewest digits within float32's rounding.
double snappedAmplitude(double measured, std::int64_t d, ValueFormat format, double textRounding)
{
    const double root = std::sqrt(double(d)), half = std::sqrt(double(d) / 2.0);
    const double within = std::max(format == ValueFormat::BFloat16      ? 0x1p-7
                                       : format == ValueFormat::Float16 ? 0x1p-10
                                                                        : 1e-5,
                                   4.0 * textRounding);
    for (const double c : {1.0, root, double(d), 1.0 / root, 1.0 / double(d), half, unitRowsAmplitude(d)}) {
        if (std::fabs(measured / c - 1.0) < within)
            return c;
    }
    for (const double rounded : FitNumbers::roundings(measured, 8)) {
        if (std::fabs(rounded / measured - 1.0) < 3e-7)
            return rounded;
    }
    return measured;
}

// The amplitude as measured, in the fewest digits within a quarter of the cells' rounding (or a
// text's): the radii pin it to ~1e-8 in float32 cells, close enough to tell 1 + 5e-7 from 1.
double measuredAmplitude(double measured, ValueFormat format, double textRounding)
{
    const double within = std::max(0.25 * halfUnit(format), textRounding);
    for (const double rounded : FitNumbers::roundings(measured, 9)) {
        if (std::fabs(rounded / measured - 1.0) <= within)
            return rounded;
    }
    return measured;
}

// The base and its roundings to 1..15 significant digits, the fewest digits first (a base is
// above 1).
std::vector<double> roundedBases(double base)
{
    std::vector<double> out;
    // A base within 1e-6 of 1 turns every pair at 1: integer-division's table, not a base.
    if (!(base > 1.0 + 1e-6 && base < 1e30))
        return out;
    for (const double rounded : FitNumbers::roundings(base, 15)) {
        if (rounded > 1.0)
            out.push_back(rounded);
    }
    return out;
}

int digitsOfBase(double base)
{
    if (isNamedBase(base))
        return 1;
    const std::vector<double> rounded = roundedBases(base);
    const auto it = std::find(rounded.begin(), rounded.end(), base);
    return it == rounded.end() ? 17 : int(it - rounded.begin()) + 1;
}

struct Pairing
{
    Layout layout;
    bool fairseqPairs;
};

// What a pairing whose pairs hold sines and cosines of one angle says of the table.
struct PairingFit
{
    Pairing pairing;
    bool swapped = false;
    double rawBase = kCommonBase; // the paper's base as fitted, unrounded
    std::vector<double> paperBases, halfBases, dividedBases;
    std::set<std::int64_t> firstPositions;
    double amplitude = 1.0; // the pairs' radius: c of c * PE, snapped to a writer's scale
    double measuredAmplitude = 1.0; // the radius as measured
};

// The bases each frequency law gives from the pairs' frequencies: ln w_i = -(2 ln b / d) i
// (paper) = -(ln b / (h - 1)) i (half_dim - 1); divided's w'_i = b^(2i/d) grows from 1, and its
// first pairs, below pi, are not aliased. The common base is tried first for each.
void fitBases(PairingFit &pf, const std::vector<double> &index, const std::vector<double> &omega,
              const std::vector<double> &sigma, std::int64_t d)
{
    if (const auto k = SinusoidalPhases::slopeThroughOrigin(index, omega, sigma)) {
        pf.rawBase = std::exp(*k * double(d) / 2.0);
        pf.paperBases = roundedBases(pf.rawBase);
        if (d / 2 >= 2 && (d % 2 == 0 || pf.pairing.fairseqPairs))
            pf.halfBases = roundedBases(std::exp(*k * double(d / 2 - 1)));
    }
    std::vector<double> ks;
    for (std::size_t i = 1;
         i < omega.size() && index[i] == index[i - 1] + 1 && omega[i] > omega[i - 1] && omega[i] < 0.9 * kPi; ++i)
        ks.push_back(std::log(omega[i]) / index[i]);
    if (!ks.empty())
        pf.dividedBases = roundedBases(std::exp(FitNumbers::median(ks) * double(d) / 2.0));
    // A named base where the fitted one is near it, the common base always, first.
    for (std::vector<double> *bases : {&pf.paperBases, &pf.halfBases, &pf.dividedBases}) {
        const double fitted = bases->empty() ? kCommonBase : bases->back();
        for (auto named = namedBases().rbegin(); named != namedBases().rend(); ++named) {
            const bool near = std::fabs(std::log(fitted / *named)) < 0.05 || *named == kCommonBase;
            if (near && std::find(bases->begin(), bases->end(), *named) == bases->end())
                bases->insert(bases->begin(), *named);
        }
    }
}

// The first position: the slowest well-measured pair's phase at the first compared row over its
// frequency (the angle is pi/2 minus it when the columns are swapped), and its neighbours.
void fitFirstPositions(PairingFit &pf, const std::vector<SinusoidalPhases::Track> &tracks, std::int64_t firstRow)
{
    pf.firstPositions.insert(firstRow);
    const double sign = pf.swapped ? -1.0 : 1.0;
    double slowest = std::numeric_limits<double>::infinity();
    double phase = 0.0;
    for (const SinusoidalPhases::Track &t : tracks) {
        const double w = sign * t.omega;
        if (t.ok && w > 0.0 && t.sigmaOmega < 1e-3 * w && w < slowest) {
            slowest = w;
            phase = pf.swapped ? kPi / 2.0 - t.phase0 : t.phase0;
        }
    }
    if (!std::isfinite(slowest))
        return;
    // Positions are never negative: the phase in [0, 2 pi), and in (-pi, pi], a phase a rounding below 0
    // being position 0 (against a declared window from 1), not the slowest pair's period.
    const double wrapped = SinusoidalPhases::wrapAngle(phase);
    for (const double position : {std::fmod(wrapped + 2.0 * kPi, 2.0 * kPi) / slowest, wrapped / slowest})
        for (const std::int64_t q : {-1, 0, 1})
            if (std::fabs(position) < 1e9 && std::llround(position) + q >= 0)
                pf.firstPositions.insert(std::llround(position) + q);
}

// The pairing's fit, or nothing when its pairs are no sines and cosines of one angle each.
std::optional<PairingFit> fitPairing(const FitInput &input, const Pairing &pairing)
{
    const std::int64_t d = input.sample.cols();
    const std::int64_t pairs = pairsOf(d, pairing.fairseqPairs);
    const std::vector<ReferenceColumn> cols = columns(d, pairs, pairing.layout);
    std::vector<std::int64_t> sineColumn(std::size_t(pairs), -1), cosineColumn(std::size_t(pairs), -1);
    for (std::int64_t j = 0; j < d; ++j) {
        const ReferenceColumn &c = cols[std::size_t(j)];
        if (c.pair >= 0)
            (c.isCos ? cosineColumn : sineColumn)[std::size_t(c.pair)] = j;
    }
    std::vector<SinusoidalPhases::Track> tracks(static_cast<std::size_t>(pairs));
    double squares = 0.0, spread = 0.0, medianSquares = 0.0;
    std::int64_t tracked = 0, forwards = 0, backwards = 0;
    for (std::size_t k = 0; k < std::size_t(pairs); ++k) {
        if (sineColumn[k] < 0 || cosineColumn[k] < 0)
            continue;
        SinusoidalPhases::Track &t = tracks[k]
            = SinusoidalPhases::trackPair(input.sample, sineColumn[k], cosineColumn[k], input.framing);
        if (!t.ok)
            continue;
        ++tracked;
        squares += t.amplitudeSquares;
        medianSquares += t.amplitudeMedian;
        spread += t.amplitudeSpread;
        if (std::fabs(t.omega) > 3.0 * t.sigmaOmega) {
            forwards += t.omega > 0.0;
            backwards += t.omega < 0.0;
        }
    }
    // Every pair's sine and cosine lie on one circle: sin^2 + cos^2 is the same at every row.
    if (tracked == 0 || !(squares > 0.0) || spread > 0.05 * squares)
        return std::nullopt;
    PairingFit pf;
    pf.pairing = pairing;
    pf.swapped = backwards > forwards;
    // The radius from each pair's median row: damage in some rows is a mistake, not a scale.
    const double radius = std::sqrt(medianSquares / double(tracked));
    pf.amplitude = snappedAmplitude(radius, d, input.format, input.textRounding);
    pf.measuredAmplitude = measuredAmplitude(radius, input.format, input.textRounding);
    std::vector<double> index, omega, sigma;
    for (std::int64_t i = 0; i < pairs; ++i) {
        const SinusoidalPhases::Track &t = tracks[std::size_t(i)];
        if (!t.ok)
            continue;
        index.push_back(double(i));
        omega.push_back((pf.swapped ? -1.0 : 1.0) * t.omega);
        sigma.push_back(t.sigmaOmega);
    }
    SinusoidalPhases::addLoneColumns(input.sample, input.framing, sineColumn, cosineColumn, index, omega, sigma);
    fitBases(pf, index, omega, sigma, d);
    fitFirstPositions(pf, tracks, input.start());
    return pf;
}

// The search over hypotheses: the best so far, and the order that decides between two.
class Search
{
public:
    explicit Search(const FitInput &input)
        : m_input(input)
    { }

    const std::optional<Fit> &best() const { return m_best; }
    bool matched() const { return m_best && m_best->bad() == 0; }

    Fit evaluate(const Hypothesis &h) const
    {
        return SinusoidalFit::evaluate(m_input, h, m_best ? m_best->bad() : std::numeric_limits<std::int64_t>::max());
    }

    // Fewer cells beyond the tolerance; then exact angles before float32 ones, a base of fewer
    // digits (a table from 10000 at positions from 1 is the paper's with an offset, not
    // half_dim - 1's of 9305.7), fewer mistakes, the paper's frequencies before half_dim - 1, a
    // smaller error.
    bool better(const Fit &a, const Fit &b) const
    {
        if (a.bad() != b.bad())
            return a.bad() < b.bad();
        if (a.float32Angles != b.float32Angles)
            return !a.float32Angles;
        const int da = digitsOfBase(a.hypothesis.base), db = digitsOfBase(b.hypothesis.base);
        if (da != db)
            return da < db;
        const qsizetype ma = mistakesOf(a.hypothesis, m_input.start()).size();
        const qsizetype mb = mistakesOf(b.hypothesis, m_input.start()).size();
        if (ma != mb)
            return ma < mb;
        if (a.hypothesis.variant != b.hypothesis.variant)
            return a.hypothesis.variant < b.hypothesis.variant;
        return a.score.sumSquares < b.score.sumSquares;
    }

    Fit consider(const Hypothesis &h)
    {
        Fit f = evaluate(h);
        if (!m_best || better(f, *m_best))
            m_best = f;
        return f;
    }

    // Each base in order of its digits, stopping at the first that matches the sample.
    void tryBases(Hypothesis h, const std::vector<double> &bases)
    {
        for (const double b : bases) {
            h.base = b;
            if (consider(h).bad() == 0)
                return;
        }
    }

    // The paper's and half_dim - 1's bases of a pairing, from the first position that fits best
    // at the base as fitted.
    void tryPairing(const PairingFit &pf)
    {
        Hypothesis h;
        h.layout = pf.pairing.layout;
        h.fairseqPairs = pf.pairing.fairseqPairs;
        h.swapped = pf.swapped;
        h.amplitude = pf.amplitude;
        h.base = pf.rawBase;
        std::optional<Fit> placed;
        for (const std::int64_t first : pf.firstPositions) {
            h.firstPosition = first;
            Fit f = evaluate(h);
            if (!placed || better(f, *placed))
                placed = f;
        }
        h.firstPosition = placed->hypothesis.firstPosition;
        h.variant = Variant::Paper;
        tryBases(h, pf.paperBases);
        h.variant = Variant::HalfDimMinusOne;
        tryBases(h, pf.halfBases);
        if (!matched() && h.amplitude != 1.0) {
            // A radius measured on damaged rows: the unscaled table, whose damage is then located.
            h.amplitude = 1.0;
            h.variant = Variant::Paper;
            tryBases(h, pf.paperBases);
            h.variant = Variant::HalfDimMinusOne;
            tryBases(h, pf.halfBases);
            h.amplitude = pf.amplitude;
        }
        // A radius snapped to 1 that leaves cells beyond the exact angles' tolerance: c PE with c near
        // 1, which the measured radius explains (float32 angles' tolerance would hide it), scaled.
        if (!(m_best && m_best->score.bad == 0) && pf.measuredAmplitude != pf.amplitude) {
            h.amplitude = pf.measuredAmplitude;
            h.variant = Variant::Paper;
            tryBases(h, pf.paperBases);
            h.variant = Variant::HalfDimMinusOne;
            tryBases(h, pf.halfBases);
            h.amplitude = pf.amplitude;
        }
        if (!matched()) {
            // Every pair turning at 1: 2 * i // d of integer division is 0 at every pair.
            h.variant = Variant::Constant;
            h.base = kCommonBase;
            consider(h);
        }
    }

    void tryDivided(const PairingFit &pf)
    {
        Hypothesis h;
        h.layout = pf.pairing.layout;
        h.fairseqPairs = pf.pairing.fairseqPairs;
        h.swapped = pf.swapped;
        h.amplitude = pf.amplitude;
        h.firstPosition = m_input.start();
        h.variant = Variant::Divided;
        tryBases(h, pf.dividedBases);
    }

    // Column j turning at b^(-j/d): its sine and cosine columns never share a frequency, so no
    // pairing holds it; each column's own frequency gives the base.
    void tryColumnIndex()
    {
        const std::int64_t d = m_input.sample.cols();
        const std::vector<double> columnOmega = SinusoidalPhases::columnFrequencies(m_input.sample, m_input.framing);
        std::vector<double> ks;
        for (std::int64_t j = 1; j < d; ++j) {
            const double w = columnOmega[std::size_t(j)];
            if (w > 0.02 && w < 2.5)
                ks.push_back(-std::log(w) / double(j));
        }
        std::vector<double> bases {kCommonBase, kCommonBase * kCommonBase};
        if (!ks.empty()) {
            for (const double b : roundedBases(std::exp(FitNumbers::median(ks) * double(d))))
                if (std::find(bases.begin(), bases.end(), b) == bases.end())
                    bases.push_back(b);
        }
        for (const bool swapped : {false, true}) {
            Hypothesis h;
            h.layout = Layout::Interleaved;
            h.variant = Variant::ColumnIndex;
            h.swapped = swapped;
            h.firstPosition = m_input.start();
            tryBases(h, bases);
        }
    }

    // Both columns of every pair the same function, the sine (cos-replaced) or the cosine
    // (sin-replaced): no pairing holds a circle. Tried at the published forms' base alone: at
    // another base the table is RoPE's cos or sin table, not a sinusoid with a mistake.
    void tryReplaced()
    {
        const std::int64_t d = m_input.sample.cols();
        for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
            for (const Variant variant : {Variant::Paper, Variant::HalfDimMinusOne}) {
                if (variant == Variant::HalfDimMinusOne && (d % 2 != 0 || d < 6))
                    continue;
                for (const Replaced replaced : {Replaced::Cosines, Replaced::Sines}) {
                    Hypothesis h;
                    h.layout = layout;
                    h.variant = variant;
                    h.replaced = replaced;
                    h.firstPosition = m_input.start();
                    if (consider(h).bad() == 0)
                        return;
                }
            }
        }
    }

    // Positions rounded to half precision before their angles: only rows past 256 (bf16) or
    // 2048 (fp16) show it, and fp16 positions stop at 65504.
    void tryRoundedPositions()
    {
        const Hypothesis unrounded = m_best->hypothesis;
        const std::int64_t lastPosition
            = unrounded.firstPosition + m_input.sample.rows.back() - m_input.framing.firstRow;
        for (const PositionRounding rounding : {PositionRounding::BFloat16, PositionRounding::Float16}) {
            const bool shows = rounding == PositionRounding::BFloat16 ? lastPosition > 256 : lastPosition > 2048;
            if (!shows || (rounding == PositionRounding::Float16 && lastPosition > 65504))
                continue;
            Hypothesis h = unrounded;
            h.rounding = rounding;
            consider(h);
        }
    }

private:
    const FitInput &m_input;
    std::optional<Fit> m_best;
};

} // namespace

std::int64_t pairsOf(std::int64_t dModel, bool fairseqPairs)
{
    return fairseqPairs ? dModel / 2 : Frequencies::pairCount(dModel);
}

bool isDoubledBase(double base)
{
    return std::fabs(base / (kCommonBase * kCommonBase) - 1.0) < 1e-9;
}

QString baseMistake(double base)
{
    if (isDoubledBase(base))
        return u"exponent-doubled"_s;
    if (std::fabs(base / 100.0 - 1.0) < 1e-12)
        return u"exponent-halved"_s;
    if (std::fabs(base / std::numbers::e - 1.0) < 1e-12 || std::fabs(base / std::exp(0.5) - 1.0) < 1e-12)
        return u"log-base-missing"_s;
    return {};
}

QStringList mistakesOf(const Hypothesis &h, std::int64_t firstRow)
{
    QStringList mistakes;
    if (h.variant == Variant::ColumnIndex)
        mistakes.append(u"exponent-column-index"_s);
    if (h.variant == Variant::Constant)
        mistakes.append(u"integer-division"_s);
    else if (const QString fromBase = baseMistake(h.base); !fromBase.isEmpty())
        mistakes.append(fromBase);
    if (h.swapped && !cosFirstPublished(h))
        mistakes.append(u"sin-cos-swapped"_s);
    if (h.replaced != Replaced::None)
        mistakes.append(h.replaced == Replaced::Cosines ? u"cos-replaced"_s : u"sin-replaced"_s);
    if (h.variant == Variant::Divided)
        mistakes.append(u"position-divided"_s);
    if (h.amplitude != 1.0)
        mistakes.append(CheckMistakes::kScaled);
    // fairseq numbers positions from padding_idx + 1 and tensor2tensor from any start_index:
    // an offset is theirs. The paper, PyTorch, TensorFlow and Keras number them from 0.
    if (h.firstPosition != firstRow && h.variant != Variant::HalfDimMinusOne)
        mistakes.append(CheckMistakes::kPositionOffset);
    if (h.rounding != PositionRounding::None)
        mistakes.append(CheckMistakes::kHalfPrecisionAngles);
    return mistakes;
}

Hypothesis corrected(const Hypothesis &h, std::int64_t firstRow)
{
    Hypothesis c = h;
    if (c.variant == Variant::ColumnIndex || c.variant == Variant::Divided || c.variant == Variant::Constant)
        c.variant = Variant::Paper;
    if (!baseMistake(c.base).isEmpty() || h.variant == Variant::Constant)
        c.base = kCommonBase;
    c.swapped = cosFirstPublished(h);
    c.replaced = Replaced::None;
    c.amplitude = 1.0;
    if (c.variant != Variant::HalfDimMinusOne)
        c.firstPosition = firstRow;
    c.rounding = PositionRounding::None;
    return c;
}

Fit evaluate(const FitInput &input, const Hypothesis &h, std::int64_t stopAfter)
{
    const PairReferenceSpec spec = reference(h, input.sample.cols(), input.framing, input.format);
    const CellTolerance exact = cellTolerance(input.format, false, input.stored, input.textRounding, spec);
    const CellTolerance angles = cellTolerance(input.format, true, input.stored, input.textRounding, spec);
    Fit f;
    f.hypothesis = h;
    f.score = scoreOnSample(PairReference(spec), input.sample, exact, &angles, stopAfter);
    f.float32Angles = f.score.bad > 0 && f.score.badWithFloat32Angles < f.score.bad;
    return f;
}

std::optional<Fit> fit(const FitInput &input)
{
    const std::int64_t d = input.sample.cols();
    if (d < 2 || input.sample.size() < 3)
        return std::nullopt;
    std::vector<PairingFit> pairingFits;
    std::vector<Pairing> pairings {{Layout::Interleaved, false}, {Layout::Split, false}};
    if (d % 2 == 1 && d >= 5)
        pairings.insert(pairings.end(), {{Layout::Interleaved, true}, {Layout::Split, true}});
    for (const Pairing &pairing : pairings) {
        if (auto pf = fitPairing(input, pairing))
            pairingFits.push_back(std::move(*pf));
    }
    Search search(input);
    for (const PairingFit &pf : pairingFits)
        search.tryPairing(pf);
    if (!search.matched()) {
        for (const PairingFit &pf : pairingFits)
            search.tryDivided(pf);
    }
    if (pairingFits.empty())
        search.tryReplaced();
    if (!search.matched())
        search.tryColumnIndex();
    if (!search.best())
        return std::nullopt;
    if (!search.matched())
        search.tryRoundedPositions();
    return search.best();
}

} // namespace posenc::SinusoidalFit
