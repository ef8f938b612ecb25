#pragma once

#include "check/CellTolerance.h"
#include "check/rope/RopeFit.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <unordered_map>
#include <vector>

namespace posenc::RopeFit {

// A lower bound on a hypothesis's count of cells beyond the tolerance, read without scoring it
// (docs/ARCHITECTURE.md, Checking a table). A reference's cell depends on its column's frequency,
// the amplitude and the position alone, and so does its tolerance but for terms the whole reference
// shares (the format's, the amplitude's slack, the fastest pair's): a column of a frequency a
// learned reference had, under the same shared terms, leaves the same cells beyond it. Llama3's and
// yarn's hypotheses keep the fast pairs of the default table at their theta (the wavelengths short
// of original / high_freq_factor, yarn's ramp at 0), so the default's count in those columns bounds
// every one of them from below: where that passes the best's count, no score of theirs can be the
// best, and the search drops them unscored.
class ScoreBound
{
public:
    explicit ScoreBound(const FitInput &input);

    // A count's bounds: the cells surely beyond the tolerance, and those that may be.
    struct Count
    {
        std::int64_t least = 0;
        std::int64_t most = 0;
    };

    // Counts, column by column, the sample's cells that `spec` leaves beyond the looser of the two
    // tolerances scoring reads (float32 angles', which every count the search reads is: Fit::bad()),
    // kept for bounds().
    void learn(const PairReferenceSpec &spec) { bounds(spec, std::numeric_limits<std::int64_t>::max(), true); }
    // Bounds on that count of `spec`: its columns' under its shared terms, those learned summed and the
    // missing ones counted (and learned), unless the learned ones already pass `enough` (then at most
    // unbounded); unbounded where nothing was learned under its shared terms and `add` is not set.
    Count bounds(const PairReferenceSpec &spec, std::int64_t enough, bool add = false);

private:
    // What the columns' counts share: the reference's terms besides each column's frequency.
    struct Shared
    {
        double amplitude = 0.0;
        double amplitudeSlack = 0.0;
        double fastest = 0.0;
        std::int64_t firstRow = 0;
        std::int64_t positionOffset = 0;
        friend bool operator==(const Shared &, const Shared &) = default;
    };
    // A compared row of the sample: its index, position, and whether it follows the one before.
    struct Row
    {
        std::int64_t index = 0;
        double position = 0.0;
        bool follows = false;
    };
    // Per column: each learned frequency (its bits, the cos or sin it holds) and its count.
    using Columns = std::vector<std::unordered_map<std::uint64_t, Count>>;
    struct Learned
    {
        Shared shared;
        Columns columns;
        std::vector<Row> rows;
    };
    // The few shared terms a search learns under: the default's at each amplitude.
    static constexpr std::size_t kMostLearned = 64;

    // Whether the bounds read `spec`: positions whole and unrounded, no padding rows.
    static bool bounded(const PairReferenceSpec &spec);
    static std::uint64_t keyOf(const PairReferenceSpec &spec, std::int64_t column);
    // The columns learned under `spec`'s shared terms (`add`: made where there are none), or null.
    Learned *learnedOf(const PairReferenceSpec &spec, bool add);
    Count countColumn(const PairReferenceSpec &spec, const CellTolerance &tolerance, const Learned &learned,
                      std::int64_t c) const;

    const FitInput &m_input;
    std::deque<Learned> m_learned;
    std::vector<std::int64_t> m_missing;
};

} // namespace posenc::RopeFit
