#pragma once

#include "check/TableSample.h"

#include <cstdint>
#include <optional>
#include <vector>

// What a sinusoidal table's columns measure, for SinusoidalFit (docs/ARCHITECTURE.md, Checking a
// table): a pair's angle unwrapped over the sample's rows, each column's own frequency, and the
// slope of ln w against the pair index.
namespace posenc::SinusoidalPhases {

// `a` wrapped into [-pi, pi].
double wrapAngle(double a);

// One pair's angle atan2(sine, cosine) over the sample's compared rows, unwrapped: its
// frequency (negative when the angle runs backwards, as swapped columns make it) and its phase
// at the first compared row. The first consecutive rows give a first line; each farther row is
// unwrapped against the line while the line's uncertainty there stays well below a turn, and
// the line is fitted again with it.
struct Track
{
    bool ok = false;
    double omega = 0.0;
    double sigmaOmega = 0.0;
    double phase0 = 0.0;
    double amplitudeSquares = 0.0; // mean of sin^2 + cos^2
    double amplitudeSpread = 0.0; // mean |sin^2 + cos^2 - mean|
    double amplitudeMedian = 0.0; // median of sin^2 + cos^2: a few damaged rows do not move it
};
Track trackPair(const TableSample &sample, std::int64_t sineColumn, std::int64_t cosineColumn,
                const RowFraming &framing);

// A robust estimate of k in ln w = -k g(i) from pairs' frequencies: the median of the pairs'
// own k, then the mean of those within 1e-4 of it, each weighted by how well its w is known.
std::optional<double> slopeThroughOrigin(const std::vector<double> &g, const std::vector<double> &w,
                                         const std::vector<double> &sigma);

// cos(w_j) of each column from the first consecutive compared rows: v[r-1] + v[r+1] =
// 2 cos(w) v[r] holds for any amplitude and phase; NaN where the column says too little.
std::vector<double> columnFrequencies(const TableSample &sample, const RowFraming &framing);

} // namespace posenc::SinusoidalPhases
