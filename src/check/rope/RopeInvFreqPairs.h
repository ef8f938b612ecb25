#pragma once

#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <vector>

// An inverse-frequency vector compared with a reference vector pair by pair (RopeInvFreq; docs/
// ARCHITECTURE.md, Checking a table, "Shapes"): each pair within what a faithful computation at the
// vector's precision gives.
namespace posenc::RopeInvFreqPairs {

// How far a faithful pair may be from the exact one, relative: HF's float32 exponent and power
// ((|ln w| + 8) units of float32, room for the scaled types' blend), then the stored rounding; a
// float16 vector's tail below its normal range is absolute.
double tolerance(double exact, StoredType stored);

struct Comparison
{
    std::int64_t beyond = 0; // pairs beyond the tolerance
    std::int64_t worst = -1; // the pair of the largest |error| relative to its tolerance
    double worstError = 0.0, worstExpected = 0.0, worstFound = 0.0;
    double worstRatio = 0.0; // its |error| over its tolerance
    double maxAbs = 0.0; // the largest |error|
    std::int64_t maxAt = -1; // its pair
    double maxRelative = 0.0; // its pair's tolerance, relative to |reference|
};

Comparison compare(const std::vector<double> &v, const std::vector<double> &reference, StoredType stored);

// "63 of the pairs deviate; the worst relative to its tolerance is inv_freq[30] = ...": the pair
// worst against its tolerance and the one of the largest absolute error, each named by its measure.
QString words(const Comparison &c);

} // namespace posenc::RopeInvFreqPairs
