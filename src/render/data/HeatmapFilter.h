#pragma once

#include "core/Block.h"
#include "core/sinusoidal/PeWindowMeans.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace posenc {

// How the table indices [first, first + size) of one axis (rows or columns) enter `cells`
// grid cells of a heatmap. One to one when cells == size. Otherwise grid cell g, of width
// W = size / cells table indices, is the mean of the indices n of the block weighted by
//   exp(-(n - centre_g)^2 / (2 sigma^2)),  centre_g = first + (g + 1/2) W - 1/2,  sigma = 0.6 W,
// normalized by the weights' sum over the block (so that a constant reads as itself up to the
// block's edges). This Gaussian passes a wavelength of lambda grid cells at
// exp(-(2 pi 0.6 / lambda)^2 / 2): 0.027 at 1.4 cells, 0.17 at 2, 8e-4 at 1, so that nothing
// aliases into moire. Weights beyond GaussianSum::kReach sigmas (3.9 cells, < 7e-10 of the
// peak) are left out of direct sums, and the closed forms of the PE count the Gaussian's tail
// there as no edge: either changes a mean by less than 1e-9 of its scale.
class AxisFilter
{
public:
    static constexpr double kSigma = 0.6; // grid cells

    AxisFilter(std::int64_t first, std::int64_t size, int cells);

    std::int64_t first() const { return m_first; }
    std::int64_t size() const { return m_size; }
    int cells() const { return m_cells; }
    bool isIdentity() const { return m_cells == m_size; }
    double spacing() const { return m_spacing; } // W
    double sigma() const { return m_sigma; } // in table indices
    double centre(int g) const { return m_centre0 + g * m_spacing; }
    // The grid cells table index n enters, [lo, hi] (empty when hi < lo).
    std::pair<int, int> cellsOf(std::int64_t n) const;
    double weight(std::int64_t n, int g) const;
    // The rows windows of the closed forms (PeWindowMeans), with no PE after row peLast.
    RowWindows windows(std::int64_t peLast) const;

private:
    std::int64_t m_first;
    std::int64_t m_size;
    int m_cells;
    double m_spacing;
    double m_sigma;
    double m_centre0;
    double m_reach; // kReach sigmas
};

// The column filter as one dot product per grid column, over the block's columns it reaches.
class ColumnWeights
{
public:
    explicit ColumnWeights(const AxisFilter &filter);

    // out(r, b) = sum_j w_b(j) rows(r, j) / sum_j w_b(j), j over the block's columns (rows
    // indexed from the block's first column), for every row r: the weights read once.
    void reduceRows(const RowMatrixXd &rows, RowMatrixXd &out) const;
    // The same for one row of values that are zero outside the block columns [from, to),
    // values[0] being column `from`: out[b] += the part of grid column b that comes from there.
    void addReduced(const double *values, std::int64_t from, std::int64_t to, double *out) const;
    // addReduced for `count` rows of values at once (row r at values + r * stride, its result
    // added to out + r * outStride): the weights are read once for all of them.
    void addReduced(const double *values, std::int64_t stride, int count, std::int64_t from, std::int64_t to,
                    double *out, std::int64_t outStride) const;

private:
    std::vector<std::int64_t> m_lo, m_hi; // block columns of grid column b, inclusive
    std::vector<std::size_t> m_offset; // where b's weights start in m_weights
    std::vector<double> m_weights; // already divided by b's total
};

} // namespace posenc
