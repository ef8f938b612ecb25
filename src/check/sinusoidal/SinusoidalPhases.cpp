#include "SinusoidalPhases.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace posenc::SinusoidalPhases {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// A straight line through points (x, u) by least squares, and how well its slope is known.
struct Line
{
    double slope = 0.0;
    double intercept = 0.0;
    double sigma = 0.0; // RMS residual, at least the float32 floor
    double sigmaSlope = std::numeric_limits<double>::infinity();
};

Line fitLine(const std::vector<double> &x, const std::vector<double> &u, std::size_t n)
{
    double mx = 0.0, mu = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        mx += x[i];
        mu += u[i];
    }
    mx /= double(n);
    mu /= double(n);
    double sxx = 0.0, sxu = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxu += (x[i] - mx) * (u[i] - mu);
    }
    Line line;
    if (!(sxx > 0.0))
        return line;
    line.slope = sxu / sxx;
    line.intercept = mu - line.slope * mx;
    double squares = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = u[i] - (line.intercept + line.slope * x[i]);
        squares += r * r;
    }
    line.sigma = std::max(std::sqrt(squares / double(n)), 1e-7);
    line.sigmaSlope = line.sigma / std::sqrt(sxx);
    return line;
}

} // namespace

double wrapAngle(double a)
{
    return a - kTwoPi * std::round(a / kTwoPi);
}

Track trackPair(const TableSample &sample, std::int64_t sineColumn, std::int64_t cosineColumn,
                const RowFraming &framing)
{
    std::vector<double> x, angle, squares;
    std::int64_t row0 = -1;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (row < framing.firstRow || std::binary_search(framing.paddingRows.begin(), framing.paddingRows.end(), row))
            continue;
        if (row0 < 0)
            row0 = row;
        const double s = sample.values(i, sineColumn);
        const double c = sample.values(i, cosineColumn);
        x.push_back(double(row - row0));
        angle.push_back(std::atan2(s, c));
        squares.push_back(s * s + c * c);
    }
    Track track;
    const std::size_t n = x.size();
    if (n < 3)
        return track;
    for (const double q : squares)
        track.amplitudeSquares += q / double(n);
    for (const double q : squares)
        track.amplitudeSpread += std::fabs(q - track.amplitudeSquares) / double(n);
    std::vector<double> sorted = squares;
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(n / 2), sorted.end());
    track.amplitudeMedian = sorted[n / 2];
    // The first rows, consecutive but for a padding row among them (fairseq's row 1).
    std::size_t lead = 1;
    while (lead < n && x[lead] - x[lead - 1] <= 2.0)
        ++lead;
    if (lead < 3)
        return track;
    std::vector<double> u(n);
    u[0] = angle[0];
    for (std::size_t i = 1; i < lead; ++i)
        u[i] = u[i - 1] + wrapAngle(angle[i] - angle[i - 1]);
    Line line = fitLine(x, u, lead);
    std::size_t used = lead;
    for (std::size_t i = lead; i < n; ++i) {
        const double spread = line.sigmaSlope * x[i] + line.sigma;
        if (spread > 0.25)
            break;
        const double predicted = line.intercept + line.slope * x[i];
        const double unwrapped = angle[i] + kTwoPi * std::round((predicted - angle[i]) / kTwoPi);
        // A row far off the line (float32 angles drifting, a corrupted cell) ends the tracking.
        if (std::fabs(unwrapped - predicted) > 6.0 * spread + 1e-6)
            break;
        x[used] = x[i];
        u[used] = unwrapped;
        ++used;
        // Fitted again at the end of each run of rows: the next run is farther.
        if (i + 1 == n || x[i + 1] - x[i] > 2.0)
            line = fitLine(x, u, used);
    }
    track.ok = true;
    track.omega = line.slope;
    track.sigmaOmega = line.sigmaSlope;
    track.phase0 = line.intercept;
    return track;
}

std::optional<double> slopeThroughOrigin(const std::vector<double> &g, const std::vector<double> &w,
                                         const std::vector<double> &sigma)
{
    std::vector<double> ks;
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (g[i] > 0.0 && w[i] > 0.0 && sigma[i] < 1e-3 * w[i])
            ks.push_back(-std::log(w[i]) / g[i]);
    }
    if (ks.empty())
        return std::nullopt;
    std::nth_element(ks.begin(), ks.begin() + std::ptrdiff_t(ks.size() / 2), ks.end());
    const double median = ks[ks.size() / 2];
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (!(g[i] > 0.0 && w[i] > 0.0 && sigma[i] < 1e-3 * w[i]))
            continue;
        const double k = -std::log(w[i]) / g[i];
        if (std::fabs(k - median) > 1e-4 * std::fabs(median) + 1e-12)
            continue;
        // Var(k) = (sigma / w)^2 / g^2.
        const double weight = (w[i] * g[i] / sigma[i]) * (w[i] * g[i] / sigma[i]);
        num += weight * k;
        den += weight;
    }
    return den > 0.0 ? num / den : median;
}

std::vector<double> columnFrequencies(const TableSample &sample, const RowFraming &framing)
{
    std::vector<double> omega(std::size_t(sample.cols()), std::numeric_limits<double>::quiet_NaN());
    // The first run of at least three consecutive rows that are neither before firstRow nor padding.
    std::int64_t first = framing.firstRow;
    std::int64_t end = first;
    for (;;) {
        while (end < sample.leadingRows
               && !std::binary_search(framing.paddingRows.begin(), framing.paddingRows.end(), end))
            ++end;
        if (end - first >= 3 || end >= sample.leadingRows)
            break;
        first = ++end;
    }
    if (end - first < 3)
        return omega;
    for (std::int64_t c = 0; c < sample.cols(); ++c) {
        double num = 0.0, den = 0.0;
        for (std::int64_t r = first + 1; r + 1 < end; ++r) {
            const double v = sample.values(r, c);
            num += v * (sample.values(r - 1, c) + sample.values(r + 1, c));
            den += 2.0 * v * v;
        }
        if (den > 1e-6 * double(end - first))
            omega[std::size_t(c)] = std::acos(std::clamp(num / den, -1.0, 1.0));
    }
    return omega;
}

} // namespace posenc::SinusoidalPhases
