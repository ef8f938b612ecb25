#pragma once

#include <cstdint>

// The closed forms of the norms that balance the embeddings against the position term (docs/
// ARCHITECTURE.md, "Closed forms"), written once for the statistics, the figures, the lessons
// and the tooltips.
namespace posenc::ClosedForms {

// ||PE_p||^2 from the whole sine and cosine pairs of k columns: each adds sin^2 + cos^2 = 1,
// whatever its angle (float32 angles too). An odd k's lone sine column comes on top.
inline double pePairsNormSquared(std::int64_t k)
{
    return static_cast<double>(k / 2);
}

// ||PE_p||^2 = k/2: exact for even k at every position; for odd k the lone sine adds 1/2 on
// average over positions.
inline double peNormSquared(std::int64_t k)
{
    return static_cast<double>(k) / 2.0;
}

// E||s E_p||^2 = s^2 sigma^2 d_e for rows of d_e columns drawn from N(0, sigma^2).
inline double embeddingNormSquared(double s, double sigma, std::int64_t columns)
{
    return s * s * sigma * sigma * static_cast<double>(columns);
}

} // namespace posenc::ClosedForms
