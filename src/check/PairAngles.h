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

    // Pair j's angle in sampled row i as the value shows it: acos in [0, pi], asin in [-pi/2, pi/2].
    double angle(std::int64_t i, std::int64_t j) const;

    // The angle of pair j in row i nearest `predicted`: the shown angle or its mirror (cos: -angle;
    // sin: pi - angle), each up to whole turns; and how far from `predicted` it is.
    std::pair<double, double> nearestTurn(std::int64_t i, std::int64_t j, double predicted) const;
};

// The same of a pair whose shown angle is `angle` (PairSample::angle, computed once by a fit that
// asks it of the same cell many times).
std::pair<double, double> nearestTurn(double angle, bool cosine, double predicted);

// The sample's pairs, with its first row turning no pair (ones: a cos table; zeros: a sin table);
// nothing where the columns do not repeat in one layout or the first row is neither.
std::optional<PairSample> read(const TableEvidence &e);

} // namespace posenc::PairAngles
