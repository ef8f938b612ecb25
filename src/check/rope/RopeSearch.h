#pragma once

#include "check/rope/RopeFit.h"
#include "check/rope/RopeScoreBound.h"
#include "check/rope/RopeScoreMemo.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

// RopeFit's search over rope_types (docs/ARCHITECTURE.md, Checking a table): what the sample
// measured, and each type's parameters tried against it, the best kept.
namespace posenc::RopeFit {

// A pair's frequency and how well the sample pins it (sigma, radians per position).
struct Frequency
{
    double theta = 0.0;
    double sigma = std::numeric_limits<double>::infinity();
};

// What the sample measures of a RoPE table.
struct Measured
{
    bool cosine = true;
    std::int64_t firstPosition = 0;
    double amplitude = 1.0; // of pair 0, by least squares
    double amplitudeSigma = 0.0; // its standard error
    std::vector<Frequency> theta; // per pair
    std::int64_t live = 0; // the pairs from `live` on never turn (proportional's tail)
    double fittedBase = 0.0; // rope_theta from the fast pairs, unrounded
    std::vector<double> bases; // its roundings, the common thetas near it first
};

class RopeSearch
{
public:
    RopeSearch(const FitInput &input, const Measured &measured, RopeLayout layout);

    const std::optional<Fit> &best() const { return m_best; }
    // Whether the best fit explains every sampled cell with exact angles: float32 angles'
    // looser tolerance lets a near theta pass, so the search goes on past it.
    bool matched() const { return m_best && m_best->bad() == 0 && !m_best->float32Angles; }
    // Whether the best fit's theta and factor have the few digits a config writes.
    bool roundBest() const;
    // A rope table of the sample's rows and width, in the search's layout, default type.
    Params baseParams() const;

    // Scores the parameters (skipped when not valid) and keeps them if best; `published` names
    // the published form they are. Whether they explain every sampled cell with exact angles, or
    // the identify step was cancelled (ScoringCancel), which ends the search as well.
    bool consider(const Params &params, const QString &published = {}, ScalingMistake scaling = ScalingMistake::None);

    // Scores the default at `params` as consider() would, for the search to reach later (fit() gives
    // the rounding of the fitted rope_theta nearest it): its count bounds the best's when the search
    // ends, and every hypothesis stops counting past it (docs/ARCHITECTURE.md, Checking a table).
    void boundBy(const Params &params);
    void tryPublished(const std::vector<Published> &published);
    // Default (unless `defaultTried`: tryDefault(base) tried it, and it did not match), linear, and
    // the banded types (llama3, yarn) at rope_theta `base`.
    void tryBase(double base, bool defaultTried);
    // Default at rope_theta `base`: whether it explains every sampled cell.
    bool tryDefault(double base);
    // Proportional: the first `live` pairs of head_dim turn, at theta^(-2j/head_dim) / factor.
    void tryProportional(double base);
    // Dynamic NTK: a default table of a grown theta, from round parameters.
    void tryDynamic();
    // LongRoPE: any ratio per pair, each rounded as a config writes it.
    void tryLongRope();
    // Positions rounded to half precision before their angles.
    void tryRoundedPositions();
    // The best fit with its mistakes named against `declared`, the correct hypothesis and notes.
    Fit finish(std::optional<RopeLayout> declared) const;

private:
    // The original lengths tried: the powers of two from 256 to 2^21, then (the banded types) those
    // below down to 1, which a head of few pairs shows only there.
    static constexpr std::int64_t kLeastOriginal = 256;
    static constexpr std::int64_t kMostOriginal = std::int64_t(1) << 21;

    // `value` as a config writes it: its fewest digits, or float32's nearest value of them.
    static double snapped(double value, double within);
    double snappedAmplitude(const Params &params, double typeFactor) const;
    double roundAmplitude() const;
    double measuredAmplitude() const;
    // How closely the cells pin the measured amplitude, relative: what a hypothesis at it adds to each
    // cell's tolerance (Hypothesis::amplitudeSlack).
    double amplitudeSlack() const;
    // How near 1, or a type's attention factor, an amplitude read from the cells is that value: a
    // part in 10^5, or a few units of float16's or bfloat16's rounding.
    double amplitudeWithin() const;
    bool better(const Fit &x, const Fit &y) const;
    Hypothesis hypothesisOf(const Params &params, const RopeFrequencies::Table &table, ScalingMistake scaling) const;
    Fit scored(const Hypothesis &hyp, const RopeFrequencies::Table &table, std::int64_t stopAfter, std::int64_t bestBad,
               bool *cutShort);
    // The hypothesis with the amplitude as measured, which scored() tries where the snapped one leaves
    // cells beyond the tolerance, and whether it tries it.
    Hypothesis measuredVariant(const Hypothesis &hyp) const;
    bool triesMeasured(const Hypothesis &hyp) const;
    // Whether every score scored() may take of `hyp` surely leaves more than `stopAfter` cells beyond
    // the tolerance (ScoreBound): a hypothesis consider() drops, scored or not.
    bool surelyPast(const Hypothesis &hyp, const RopeFrequencies::Table &table, std::int64_t stopAfter);
    // The default's columns at `hyp`'s theta learned, for the hypotheses that keep its fast pairs.
    void learnDefault(const Hypothesis &hyp, const RopeFrequencies::Table &table);
    std::vector<double> ratios(double base) const;
    double largestRatio(double base) const;
    void tryLinear(const Params &p);
    void tryBanded(const Params &p);
    // Whether no llama3 or yarn reading can be near (tryBase skips them).
    bool bandedHopeless() const;
    // Whether the sample's fastest pair turns at 1 radian a position, as every type but linear keeps it.
    bool fastestAtOne() const;
    void tryReversedLlama3(const Params &p, double factor);
    void tryReversedYarn(const Params &p, double factor);
    void tryYarnRamp(const Params &p, const std::vector<std::int64_t> &originals);
    // The ramps read back that tryYarnRamp scores at most, each a table of its own.
    static constexpr std::size_t kMostRampReadings = 8;
    std::vector<double> m_rampBases; // the bases tryYarnRamp has read
    std::vector<std::array<double, 2>> llamaBands(const Params &p, double factor) const;
    double longRopeFactor(std::int64_t pair, double base, double amplitude) const;
    Frequency refinedFrequency(std::int64_t pair, double theta, double amplitude) const;

    const FitInput &m_input;
    const Measured &m_measured;
    RopeLayout m_layout;
    std::optional<Fit> m_best;
    std::vector<std::optional<Fit>> m_bestOfType;
    std::vector<Params> m_longRopeForms; // the published LongRoPE forms, whose factors are tried first
    // The published banded forms' original lengths (8192: Llama 3.1, 3.2 and 4), tried first:
    // llama3's table holds only original / low_freq_factor and original / high_freq_factor
    // (_compute_llama3_parameters' wavelength bands and smooth factor), so every original length
    // with those bands gives it, and the published one is the set named.
    std::vector<std::int64_t> m_publishedOriginals;
    ScoreMemo m_scores;
    ScoreBound m_bound;
    // The most cells beyond the tolerance at which the caller reads a fit (FitInput::readsOneIn).
    std::int64_t m_readsUpTo = std::numeric_limits<std::int64_t>::max();
    // The count of boundBy()'s hypothesis: no hypothesis past it is counted further.
    std::int64_t m_boundBad = std::numeric_limits<std::int64_t>::max();
    std::int64_t m_comparedCells = 0; // the cells a score compares
};

} // namespace posenc::RopeFit
