#pragma once

#include "check/rope/RopeFit.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace posenc::RopeFit {

// A search's scores by the reference they compared (docs/ARCHITECTURE.md, Checking a table): its
// hypotheses give one reference many times (llama3 and yarn at every original length past the
// table's slowest wavelength divide the same pairs; a default table's theta at each of its
// roundings), and a reference scores alike whatever parameters made it. A score is taken again
// where it answers the new request as scoring would: one that was not stopped, for any request;
// one stopped past the new request's stopAfter, for one that may stop anywhere (ScoreStop::AnyTile).
class ScoreMemo
{
public:
    explicit ScoreMemo(const FitInput &input);

    // evaluate(input, h, stopAfter, stop), its score taken from an earlier one where it may be.
    Fit evaluate(const Hypothesis &h, std::int64_t stopAfter = std::numeric_limits<std::int64_t>::max(),
                 ScoreStop stop = ScoreStop::AnyTile);
    // The same where the caller has RopeFrequencies::table(h.params) already.
    Fit evaluate(const Hypothesis &h, const RopeFrequencies::Table &table,
                 std::int64_t stopAfter = std::numeric_limits<std::int64_t>::max(),
                 ScoreStop stop = ScoreStop::AnyTile);

    // How many scores were computed, and how many taken again: what a test reads.
    std::int64_t computed() const { return m_computed; }
    std::int64_t reused() const { return m_reused; }

private:
    struct Entry
    {
        PairReferenceSpec spec;
        SampleScore score;
        std::int64_t stopAfter;
    };
    // Past this many references the memo keeps no more (each holds its schedule and columns).
    static constexpr std::int64_t kMostEntries = 8192;

    const FitInput &m_input;
    std::unordered_map<std::size_t, std::vector<Entry>> m_entries;
    std::int64_t m_stored = 0;
    std::int64_t m_computed = 0;
    std::int64_t m_reused = 0;
};

} // namespace posenc::RopeFit
