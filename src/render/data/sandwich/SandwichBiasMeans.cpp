#include "SandwichBiasMeans.h"

#include "core/sandwich/SandwichBias.h"
#include "render/data/DiagonalMeans.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

namespace posenc::SandwichBiasMeans {

namespace {

using Complex = std::complex<double>;

// sum_{x = first}^{first + count - 1} e^(i w x) = e^(i w (first + (count - 1)/2)) sin(count w/2) / sin(w/2):
// the ratio of sines keeps its precision for small w, where 1 - e^(i w) would not. 0 < w < 2 pi.
Complex geometric(double w, std::int64_t first, std::int64_t count)
{
    if (count <= 0)
        return {0.0, 0.0};
    const double n = static_cast<double>(count);
    const double ratio = std::sin(0.5 * n * w) / std::sin(0.5 * w);
    return std::polar(ratio, w * (static_cast<double>(first) + 0.5 * (n - 1.0)));
}

// sum over the cells of `rect` of cos(w (j - i)): Re(conj(R) C).
double rectangleSum(double w, const Block &rect)
{
    return (std::conj(geometric(w, rect.row0, rect.rows)) * geometric(w, rect.col0, rect.cols)).real();
}

// The cells of rows [a, b) at or below the diagonal, each row i's keys j0 .. i: sum of
// cos(w (i - j)) = Re sum over m = i - j0 + 1 of (1 - z^m) / (1 - z), z = e^(i w), which is
// (count - sum_m z^m) / (1 - z). Where w times the longest row is small that quotient loses digits:
// the rows are summed one by one there (w >= 1e-8, so they are fewer than 10^5).
double partialRows(double w, std::int64_t a, std::int64_t b, std::int64_t j0)
{
    const std::int64_t m0 = a - j0 + 1, count = b - a;
    if (count <= 0)
        return 0.0;
    if (w * static_cast<double>(m0 + count) < 1e-3) {
        double sum = 0.0;
        for (std::int64_t m = m0; m < m0 + count; ++m)
            sum += geometric(w, 0, m).real();
        return sum;
    }
    const Complex oneMinusZ = Complex(1.0, 0.0) - std::polar(1.0, w);
    return ((Complex(static_cast<double>(count), 0.0) - geometric(w, m0, count)) / oneMinusZ).real();
}

// The part of `rect` at or below the diagonal (j <= i): sum of cos(w (i - j)) over its cells for
// each frequency, and their count. Rows at or past the last key are whole (a rectangle); rows
// from the first key to it hold keys j0 .. i.
void lowerSum(const std::vector<double> &w, const Block &rect, std::vector<double> &sums, std::int64_t &cells)
{
    if (rect.rows <= 0 || rect.cols <= 0 || rect.col0 > rect.rowEnd() - 1)
        return; // every key after its query
    const std::int64_t lastKey = rect.colEnd() - 1;
    const std::int64_t whole = std::max(rect.row0, lastKey); // the first row that holds every key
    const std::int64_t partial = std::max(rect.row0, rect.col0); // the first row that holds one
    const Block full {whole, rect.rowEnd() - whole, rect.col0, rect.cols};
    const std::int64_t partialEnd = std::min(rect.rowEnd(), lastKey);
    for (std::size_t k = 0; k < w.size(); ++k) {
        if (full.rows > 0)
            sums[k] += rectangleSum(w[k], full);
        sums[k] += partialRows(w[k], partial, partialEnd, rect.col0);
    }
    if (full.rows > 0)
        cells += full.rows * full.cols;
    // Rows partial .. partialEnd - 1 hold partial - col0 + 1, one more, ... keys.
    const std::int64_t count = std::max<std::int64_t>(partialEnd - partial, 0);
    cells += count * (partial - rect.col0 + 1) + count * (count - 1) / 2;
}

// The bands' geometric sums for each frequency: bands x terms.
std::vector<Complex> bandSums(const std::vector<double> &w, std::int64_t first, std::int64_t count, int bands)
{
    std::vector<Complex> sums(static_cast<std::size_t>(bands) * w.size());
    for (int b = 0; b < bands; ++b) {
        const std::int64_t start = DiagonalMeans::bandStart(first, count, bands, b);
        const std::int64_t end = DiagonalMeans::bandStart(first, count, bands, b + 1);
        for (std::size_t k = 0; k < w.size(); ++k)
            sums[static_cast<std::size_t>(b) * w.size() + k] = geometric(w[k], start, end - start);
    }
    return sums;
}

// The mean bias of a rectangle whose sum of cosines over every term is `cosines`: cells after the
// query (causal) hold the bias of distance 0, each term's cosine 1.
double biasOf(const SandwichParams &p, double cosines, std::int64_t cells)
{
    const double scale = SandwichBias::scale(p.heads, p.head);
    return (cosines / static_cast<double>(cells) - 0.5 * static_cast<double>(p.headDim)) / scale;
}

double causalMean(const SandwichParams &p, const std::vector<double> &w, const Block &rect)
{
    std::vector<double> sums(w.size(), 0.0);
    std::int64_t lower = 0;
    lowerSum(w, rect, sums, lower);
    double cosines = 0.0;
    for (const double s : sums)
        cosines += s;
    const std::int64_t cells = rect.rows * rect.cols;
    cosines += static_cast<double>(cells - lower) * static_cast<double>(w.size());
    return biasOf(p, cosines, cells);
}

} // namespace

double mean(const SandwichParams &params, SandwichMask mask, const Block &rect)
{
    const std::vector<double> w = SandwichBias::frequencies(params.headDim);
    if (mask == SandwichMask::Causal)
        return causalMean(params, w, rect);
    double cosines = 0.0;
    for (const double f : w)
        cosines += rectangleSum(f, rect);
    return biasOf(params, cosines, rect.rows * rect.cols);
}

std::optional<HeatmapGrid> grid(const SandwichParams &params, SandwichMask mask, const Block &block, int rows, int cols,
                                const std::atomic<bool> *cancel)
{
    HeatmapGrid g;
    g.quantity = Quantity::SandwichBias;
    g.block = block;
    g.rows = static_cast<int>(std::clamp<std::int64_t>(rows, 1, std::max<std::int64_t>(block.rows, 1)));
    g.cols = static_cast<int>(std::clamp<std::int64_t>(cols, 1, std::max<std::int64_t>(block.cols, 1)));
    if (block.rows <= 0 || block.cols <= 0) {
        g.rows = g.cols = 0;
        return g;
    }
    const std::vector<double> w = SandwichBias::frequencies(params.headDim);
    const std::vector<Complex> rowSums = bandSums(w, block.row0, block.rows, g.rows);
    const std::vector<Complex> colSums = bandSums(w, block.col0, block.cols, g.cols);
    auto grid = DiagonalMeans::pixels(block, g.rows, g.cols, cancel, [&](int r, int c, const Block &rect) {
        if (mask == SandwichMask::Causal && rect.colEnd() - 1 > rect.row0)
            return causalMean(params, w, rect); // keys after a query in the pixel
        double cosines = 0.0;
        const Complex *rs = &rowSums[static_cast<std::size_t>(r) * w.size()];
        const Complex *cs = &colSums[static_cast<std::size_t>(c) * w.size()];
        for (std::size_t k = 0; k < w.size(); ++k)
            cosines += (std::conj(rs[k]) * cs[k]).real();
        return biasOf(params, cosines, rect.rows * rect.cols);
    });
    if (grid)
        grid->quantity = Quantity::SandwichBias;
    return grid;
}

} // namespace posenc::SandwichBiasMeans
