#pragma once

#include "check/TableHypothesis.h"

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <utility>

// A sampled cos or sin table of rotary pairs read as angles (docs/ARCHITECTURE.md, Checking a
// table), for the families whose ids a table check reads back from the pairs: M-RoPE's
// (MropeTableFit) and the 2-D RoPEs' (Rope2dTableCheck). The pairs come from the repeated columns:
// HF's cat(freqs, freqs) halves, or GPT-J's adjacent columns.
namespace posenc::PairAngles {

struct PairSample
{
    bool half = true; // pair j in columns j and j + pairs; else 2j and 2j + 1
    bool cosine = true;
    Eigen::MatrixXd value; // sampled rows x pairs
    // How far pair j's angle in row i may lie from the one its value shows: the angles whose cos or
    // sin is within the format's half unit (CellTolerance's halfUnit) of the value. Near +-1 that
    // leaves the angle open by sqrt(2 delta): 0.09 rad in bfloat16, 3.5e-4 in float32. A still pair's
    // cosine rounded off 1 is no angle of its own.
    Eigen::MatrixXd angleSlack;

    // Pair j's angle in sampled row i as the value shows it: acos in [0, pi], asin in [-pi/2, pi/2].
    double angle(std::int64_t i, std::int64_t j) const;
    double slack(std::int64_t i, std::int64_t j) const { return angleSlack(i, j); }

    // The angle of pair j in row i nearest `predicted`: the shown angle or its mirror (cos: -angle;
    // sin: pi - angle), each up to whole turns; and how far from `predicted` it is.
    std::pair<double, double> nearestTurn(std::int64_t i, std::int64_t j, double predicted) const;
};

// The same of a pair whose shown angle is `angle` (PairSample::angle, computed once by a fit that
// asks it of the same cell many times).
std::pair<double, double> nearestTurn(double angle, bool cosine, double predicted);

// An id `x` read from pairs slowest first (MropeTableFit, Rope2dTableCheck), refined by a pair of
// frequency `inv` whose shown angle is `angle` within `slack`: the pair's reading (the turn of its
// angle nearest x's) where x lies beyond its slack; else x, which the pair only agrees with (a half
// format's cosine rounded near 1 pins its angle to 0.06 rad: read as it is, a still pair would put
// the id thousands of turns out). `gap` gets how far beyond the slack x's angle was.
double refined(double x, double angle, double slack, bool cosine, double inv, double *gap = nullptr);
// The least id a pair's shown angle allows within its slack: where an id read from pairs starts.
inline double leastId(double angle, double slack, double inv)
{
    return angle > slack ? (angle - slack) / inv : 0.0;
}

// The sample's pairs, with its first row turning no pair (ones: a cos table; zeros: a sin table);
// nothing where the columns do not repeat in one layout or the first row is neither.
std::optional<PairSample> read(const TableEvidence &e);

} // namespace posenc::PairAngles
