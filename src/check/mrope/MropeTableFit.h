#pragma once

#include "check/TableHypothesis.h"
#include "check/mrope/MropeTableReference.h"

#include <cstdint>
#include <optional>
#include <vector>

// What an M-RoPE cos or sin table shows of itself when no prompt says what its ids are
// (docs/ARCHITECTURE.md, Checking a table): the pairs' layout from the repeated columns, rope_theta
// from row 1 (or the models' thetas when row 1 turns too little to show it), the split of the
// pairs between t, h and w (contiguous sections read from the slowest pair up, the interleave's
// turns of h and w, the published splits), and each sampled row's ids per axis, read back from
// its pairs (slowest first, each faster pair refining).
namespace posenc::MropeTableFit {

struct Reading
{
    bool cosine = true;
    double theta = 0.0;
    std::vector<std::int64_t> section; // t, h, w pairs
    bool interleaved = false;
    MropeTurns turns;
    std::vector<std::int64_t> rows; // the sampled table rows
    std::vector<MropeIds> ids; // their ids
    std::int64_t visionRows = 0; // sampled rows whose ids differ between the axes
};

// The reading of the sample, or nothing when it is no M-RoPE table of default frequencies or shows
// no row whose axes differ (a 1-D RoPE table, which RoPE's hypothesis names).
std::optional<Reading> read(const TableEvidence &e);

// Each sampled row's ids at a known split and rope_theta (a declared prompt's model's, default
// frequencies), whatever the rows hold; nothing where the sample shows no pairs of sines and cosines
// or the split does not sum to its pairs.
std::optional<Reading> readAt(const TableEvidence &e, double theta, const std::vector<std::int64_t> &section,
                              bool interleaved);

// The splits the models ship for `pairs` rotary pairs: Qwen2-VL's and Qwen2.5-VL's 16,24,24
// chunked and Qwen3-VL's 24,20,20 interleaved at 64 pairs.
struct PublishedSplit
{
    std::vector<std::int64_t> section;
    bool interleaved = false;
};
std::vector<PublishedSplit> publishedSplits(std::int64_t pairs);

} // namespace posenc::MropeTableFit
