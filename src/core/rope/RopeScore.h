#pragma once

#include "core/Block.h"
#include "core/Params.h"

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace posenc {

// The rope-score table (docs/ARCHITECTURE.md, Encoding families): for each relative distance k,
// what the rotation R(k) does to a query-key product, R being the pure rotation of one head
// (no attention factor) at the scaled frequencies. Columns:
//   0  <q, R(k) q> / |q|^2 for q all ones over head_dim (the unrotated columns add 1 each);
//   1  the mean and 2 the standard deviation (dividing by the count) over kSamples seeded random
//      unit pairs (q, k) in R^head_dim of <q, R(k) k>, which is <R(m) q, R(m + k) k> for any m;
//   3  RoFormer's decay bound (1/h) sum_{j=1..h} |S_j|, S_j = sum_{i<j} e^{i k theta_i}.
// The random pairs are drawn in the pairs' own coordinates (pair i's two columns, then the
// unrotated ones), so the table is the same in both layouts, which only permute the columns.
// An engine source, built from the parameters on first use.
class RopeScore
{
public:
    static constexpr std::int64_t kSamples = 256;
    static constexpr std::int64_t kColumns = 4;

    // Precondition: params valid, encoding rope.
    explicit RopeScore(const Params &params);

    // The unit vector `index` (2n the query, 2n + 1 the key of pair n) in the pairs' coordinates:
    // pair i's columns 2i and 2i + 1, then the head's unrotated columns. A pure function of
    // (seed, index): standard normals from Philox by Box-Muller, divided by their norm.
    static std::vector<double> unitVector(std::uint64_t seed, std::int64_t index, std::int64_t headDim);

    // Rows of a block from which the second moment is summed as a spectrum (secondMoments), and
    // the most distances of one of its tiles: a position's rounding (an ulp of theta_i + theta_j)
    // turns a tile's farthest distance from its middle by under 1e-12.
    static constexpr std::int64_t kSpectrumRows = 256;
    static constexpr std::int64_t kSpectrumTile = 4096;

    // Fills `out` (block-sized, columns of the kColumns above) in the calling thread.
    void fill(const Block &block, BlockRef out) const;

    // E[s^2] over the samples for the distances [k0, k0 + rows), in double. `bySpectrum`: as a sum
    // of h^2 exponentials in k (the quadratic form's products turned into sums by the product-to-sum
    // identities) evaluated at every distance at once by a type-1 non-uniform FFT (Greengard & Lee
    // 2004), about 300 operations a distance; else the quadratic form row by row, (2h)^2 / 2 products
    // a distance. Both agree within 1e-12 of each value (tst_ropescore; 2e-14 measured).
    void secondMoments(std::int64_t k0, std::int64_t rows, bool bySpectrum, double *out) const;

    // Row n: <q, R k> = sum_i A[n, i] cos(k theta_i) + B[n, i] sin(k theta_i) + tail[n]. They
    // depend on the seed, head_dim and the pairs rotated alone, not on the frequencies.
    struct Samples
    {
        RowMatrixXd coefficients; // kSamples x 2h: A, then B
        Eigen::VectorXd tail;
        // The samples' moments, x = (cos(k theta), sin(k theta)): E[s] = x . mean + meanTail and
        // E[s^2] = |x L|^2 + 2 x . cross + meanTail2, L the Cholesky factor of C^T C / kSamples.
        // Empty `lower` where it does not pay (2h above kSamples) or C^T C is singular.
        Eigen::VectorXd mean, cross;
        double meanTail = 0.0, meanTail2 = 0.0;
        RowMatrixXd lower;
        RowMatrixXd gram; // C^T C / kSamples, where `lower` is given
    };

    // One exponential of E[s^2]'s sum: coefficient * e^{i k (theta_i + sign theta_j)}, sign 0 for
    // theta_i alone (the linear part).
    struct Exponential
    {
        double position; // (theta_i + sign theta_j) mod 2 pi
        std::complex<double> coefficient;
        std::int32_t i, j;
        std::int32_t sign;
    };

private:
    // cos and sin of k theta_i for the rows [k0, k0 + rows): cos in the first h columns.
    void angles(std::int64_t k0, std::int64_t rows, RowMatrixXd &out) const;

    std::vector<double> m_w; // the pure frequencies theta_i
    std::int64_t m_headDim;
    std::shared_ptr<const Samples> m_samples;
    // cos and sin of j theta_i, j below kAnchor: a row's angle is its anchor's turned by these.
    RowMatrixXd m_offsets; // kAnchor x 2h
    // E[s^2] = m_constant + Re sum_f m_exponentials[f] (empty without `gram`).
    std::vector<Exponential> m_exponentials;
    double m_constant = 0.0;
};

} // namespace posenc
