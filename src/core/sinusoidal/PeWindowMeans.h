#pragma once

#include "GaussianSum.h"
#include "core/Params.h"

#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace posenc {

// Evenly spaced Gaussian windows over the rows of a table, as a heatmap filters its rows:
// window a (0 <= a < count) is centred on centre0 + a * spacing and weighs row n by
// exp(-(n - centre)^2 / (2 sigma^2)), over the rows [first, last] in view.
struct RowWindows
{
    double centre0 = 0.0;
    double spacing = 1.0;
    double sigma = GaussianSum::kMinSigma;
    std::int64_t count = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
    // Rows after this one hold zeros instead of the PE (the padding masked-fill clears); the
    // windows' weights still count them.
    std::int64_t peLast = std::numeric_limits<std::int64_t>::max();

    double centre(std::int64_t a) const { return centre0 + static_cast<double>(a) * spacing; }
};

// Which average of the columns a PeWindowMeans gives: of the values, or of their squares, the
// second moment from which a pixel's spread follows (sin^2 = (1 - cos 2x) / 2, cos^2 =
// (1 + cos 2x) / 2: the same sums at twice the frequency).
enum class Moment { Mean, Square };

// Receives the means of one window: values[c] for the columns asked for.
using WindowSink = std::function<void(std::int64_t window, const double *values)>;

// The weighted means of the sinusoidal table's columns (exact angles, in double) under row
// windows, in O(1) per window and column whatever the number of rows (GaussianSum).
//
// A window that meets no edge within kReach sigmas gives pair i the mean
// exp(-sigma^2 w_i^2 / 2) (cos, sin)(w_i centre): the pairs before firstLivePair() are then
// zero to float32 resolution and skipped, and the others advance from window to window by a
// rotation, re-anchored exactly every kAnchorWindows windows. A window at an edge takes the
// Euler-Maclaurin form of every pair. Within ~1e-12 of the float64 direct sums.
//
// Moment::Square gives the means of the squared columns from the sums at 2 w_i (GaussianSum's
// aliases at 2 w <= 2 are ~1e-9 at the least sigma): a pair whose 2 w turns too fast for the window has
// the mean 1/2 in its sine and its cosine column, the mean of a full swing.
class PeWindowMeans
{
public:
    static constexpr std::int64_t kAnchorWindows = 64;

    // Precondition: windows.sigma >= GaussianSum::kMinSigma.
    PeWindowMeans(std::int64_t dModel, const SinusoidalParams &params, const RowWindows &windows,
                  Moment moment = Moment::Mean);

    Moment moment() const { return m_moment; }
    // Pairs before this one have exp(-sigma^2 (k w)^2 / 2) below 2^-24, k = 1 for the mean, 2
    // for the square.
    std::int64_t firstLivePair() const { return m_firstLive; }
    // True when window a meets an edge of the rows, or of the PE rows, within kReach sigmas.
    bool meetsEdge(std::int64_t a) const;
    // Calls sink(a, values) for the windows a0 .. a0 + count - 1 in order, values[c] the mean of
    // PE column col0 + c. The values of a window depend only on (a, a0 when a0 is not a
    // multiple of kAnchorWindows), never on the columns asked for.
    void forEachWindow(std::int64_t a0, std::int64_t count, std::int64_t col0, std::int64_t cols,
                       const WindowSink &sink) const;

private:
    // The means of pairs [lo, hi] in the edge windows a0 .. a0 + count - 1: count x (hi - lo + 1)
    // complex numbers, (cos, sin) each, window by window.
    void edgeMeans(std::int64_t a0, std::int64_t count, std::int64_t lo, std::int64_t hi,
                   std::vector<std::complex<double>> &means) const;
    GaussianWindow weightWindow(double centre) const;
    GaussianWindow peWindow(double centre) const;
    // The share of window a's weight on the PE rows: 1 unless it reaches past peLast.
    double peShare(std::int64_t a) const;

    std::int64_t m_dModel;
    Layout m_layout;
    bool m_cosFirst;
    RowWindows m_windows;
    Moment m_moment;
    std::vector<double> m_omega; // per pair, times 2 for the square
    std::vector<double> m_attenuation; // exp(-sigma^2 w^2 / 2)
    std::int64_t m_firstLive = 0;
};

} // namespace posenc
