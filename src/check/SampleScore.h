#pragma once

#include "check/CellTolerance.h"
#include "check/TableReference.h"
#include "check/TableSample.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>

namespace posenc {

// How well a reference explains a sample: the cells it compares, those beyond the tolerance, and
// the error's size.
struct SampleScore
{
    std::int64_t compared = 0;
    std::int64_t bad = 0; // cells beyond the tolerance
    std::int64_t badWithFloat32Angles = 0; // cells beyond the second tolerance, when one was given
    double maxError = 0.0;
    double sumSquares = 0.0;
    double tableSquares = 0.0; // of the compared cells' values

    double rms() const { return compared > 0 ? std::sqrt(sumSquares / double(compared)) : 0.0; }
    // The share of the table's energy the reference leaves unexplained: 0 for a match, ~2 for noise.
    double relativeResidual() const { return tableSquares > 0.0 ? sumSquares / tableSquares : 0.0; }
};

// The cancel flag of the identify step on the calling thread, for a scope (TableCheck::identify
// and expect set it): every search a family runs scores its candidates with scoreOnSample, so once
// the flag is set each score fits nothing and answers at once, and any search ends within one
// score, however many candidates it had left (docs/ARCHITECTURE.md, Checking a table).
class ScoringCancel
{
public:
    explicit ScoringCancel(const std::atomic<bool> *flag);
    ~ScoringCancel();
    ScoringCancel(const ScoringCancel &) = delete;
    ScoringCancel &operator=(const ScoringCancel &) = delete;
    // Whether the calling thread's flag, if any, is set.
    static bool requested();

private:
    const std::atomic<bool> *m_previous;
};

// The score of a reference that explains no cell of the sample: what a cancelled score answers.
SampleScore fitsNothing(const TableSample &sample);

// Where scoreOnSample may stop counting once both counts pass its `stopAfter`. A score that
// stopped counts more than `stopAfter` cells beyond each tolerance, and is otherwise the whole
// sample's, whichever the rule: the two rules give the same scores where they did not stop.
enum class ScoreStop {
    // Between the sample's runs of consecutive rows: a stopped score counts whole runs, which a
    // search that compares stopped scores with each other reads (the same counts every time).
    RunEnds,
    // After any tile of the reference's rows, the farthest runs first: a search that only drops a
    // stopped score, and stops a hypothesis of other frequencies within the few far rows where it
    // is furthest off. A score that does not stop sums its cells in that order too.
    AnyTile,
};

// How many cells scoreOnSample has compared in this process, on every thread: what a test of a
// search's cost reads (it counts the same on any machine, where a time does not).
std::int64_t cellsScored();

// Compares the reference with the sample's rows (those it compares), cell by cell, counting the
// cells beyond `tolerance` and, when given, beyond `float32Angles` (the same values' tolerance
// with float32 angles). Counting stops once both counts pass `stopAfter`, where `stop` allows.
// Equal cells agree, infinities too (a mask's -inf where the reference has it); the sums are of
// the finite cells. Once ScoringCancel is requested: every cell beyond both tolerances, at an
// infinite error.
SampleScore scoreOnSample(const TableReference &reference, const TableSample &sample, const CellTolerance &tolerance,
                          const CellTolerance *float32Angles = nullptr,
                          std::int64_t stopAfter = std::numeric_limits<std::int64_t>::max(),
                          ScoreStop stop = ScoreStop::RunEnds);

} // namespace posenc
