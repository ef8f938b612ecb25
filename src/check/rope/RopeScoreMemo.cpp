#include "RopeScoreMemo.h"

#include "core/rope/RopeFrequencies.h"

#include <bit>

namespace posenc::RopeFit {

namespace {

// FNV-1a over the words that tell references apart.
class SpecHash
{
public:
    void add(std::uint64_t word)
    {
        for (int i = 0; i < 8; ++i) {
            m_value ^= (word >> (8 * i)) & 0xffu;
            m_value *= 0x100000001b3ull;
        }
    }
    void add(double value) { add(std::bit_cast<std::uint64_t>(value)); }
    std::size_t value() const { return std::size_t(m_value); }

private:
    std::uint64_t m_value = 0xcbf29ce484222325ull;
};

std::size_t hashOf(const PairReferenceSpec &spec)
{
    SpecHash h;
    for (const double w : spec.schedule.w)
        h.add(w);
    h.add(spec.schedule.amplitude);
    h.add(spec.amplitudeSlack);
    for (const ReferenceColumn &c : spec.columns)
        h.add(std::uint64_t(c.pair) * 2u + (c.isCos ? 1u : 0u));
    h.add(std::uint64_t(spec.firstRow));
    h.add(std::uint64_t(spec.positionOffset));
    h.add(std::uint64_t(spec.positionRounding));
    h.add(std::uint64_t(spec.angles));
    h.add(std::uint64_t(spec.paddingRows.size()));
    return h.value();
}

bool stopped(const SampleScore &score, std::int64_t stopAfter)
{
    return score.bad > stopAfter && score.badWithFloat32Angles > stopAfter;
}

} // namespace

ScoreMemo::ScoreMemo(const FitInput &input)
    : m_input(input)
{ }

Fit ScoreMemo::evaluate(const Hypothesis &h, std::int64_t stopAfter, ScoreStop stop)
{
    return evaluate(h, RopeFrequencies::table(h.params), stopAfter, stop);
}

Fit ScoreMemo::evaluate(const Hypothesis &h, const RopeFrequencies::Table &table, std::int64_t stopAfter,
                        ScoreStop stop)
{
    if (ScoringCancel::requested())
        return RopeFit::evaluate(m_input, h, stopAfter, stop);
    // The type's frequencies once, for the reference and its attention factor alike.
    PairReferenceSpec spec = reference(h, m_input.framing, table);
    const std::size_t key = hashOf(spec);
    auto &bucket = m_entries[key];
    for (const Entry &e : bucket) {
        // A score counted whole that the new stopAfter would not stop is what scoring again gives; one
        // past the new stopAfter is what a score that may stop anywhere gives (it is only dropped).
        const bool whole = !stopped(e.score, e.stopAfter) && !stopped(e.score, stopAfter);
        if (!(whole || (stop == ScoreStop::AnyTile && stopped(e.score, stopAfter))) || !(e.spec == spec))
            continue;
        ++m_reused;
        Fit f;
        f.hypothesis = h;
        f.typeAttentionFactor = table.attentionFactor;
        f.score = e.score;
        f.float32Angles = f.score.bad > 0 && f.score.badWithFloat32Angles < f.score.bad;
        return f;
    }
    Fit f = RopeFit::evaluate(m_input, h, spec, table.attentionFactor, stopAfter, stop);
    ++m_computed;
    if (!ScoringCancel::requested() && m_stored < kMostEntries) {
        bucket.push_back({std::move(spec), f.score, stopAfter});
        ++m_stored;
    }
    return f;
}

} // namespace posenc::RopeFit
