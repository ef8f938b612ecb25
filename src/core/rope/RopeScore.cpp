#include "RopeScore.h"

#include "core/Philox.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <mutex>
#include <numbers>

namespace posenc {

namespace {

// Rows of the score computed together: their sines and cosines and their kSamples products.
constexpr std::int64_t kScoreRows = 256;

// sin and cos of the exact product k * w: the double product plus its rounding error (fma).
void exactSinCos(double k, double w, double &s, double &c)
{
    const double angle = k * w;
    const double rest = std::fma(k, w, -angle);
    const double s0 = std::sin(angle);
    const double c0 = std::cos(angle);
    s = s0 + c0 * rest;
    c = c0 - s0 * rest;
}

} // namespace

std::vector<double> RopeScore::unitVector(std::uint64_t seed, std::int64_t index, std::int64_t headDim)
{
    const CellRandom random(seed, RandomStream::RopeScore);
    std::vector<double> v(static_cast<std::size_t>(headDim));
    constexpr double kTwoTo32 = 4294967296.0;
    for (std::int64_t group = 0; 4 * group < headDim; ++group) {
        const auto words = random.words(index, group);
        // Two Box-Muller draws from the group's four words: u1 in (0, 1], u2 in [0, 1).
        for (int pair = 0; pair < 2; ++pair) {
            const double u1 = (static_cast<double>(words[2 * pair]) + 1.0) / kTwoTo32;
            const double u2 = static_cast<double>(words[2 * pair + 1]) / kTwoTo32;
            const double radius = std::sqrt(-2.0 * std::log(u1));
            const double angle = 2.0 * std::numbers::pi * u2;
            for (int k = 0; k < 2; ++k) {
                const std::int64_t j = 4 * group + 2 * pair + k;
                if (j < headDim)
                    v[static_cast<std::size_t>(j)] = radius * (k == 0 ? std::cos(angle) : std::sin(angle));
            }
        }
    }
    double norm = 0.0;
    for (const double x : v)
        norm += x * x;
    norm = std::sqrt(norm);
    for (double &x : v)
        x /= norm;
    return v;
}

namespace {

// The samples' coefficients for h pairs of head_dim columns.
std::shared_ptr<const RopeScore::Samples> drawSamples(std::uint64_t seed, std::int64_t headDim, std::int64_t h)
{
    auto samples = std::make_shared<RopeScore::Samples>();
    samples->coefficients.resize(RopeScore::kSamples, 2 * h);
    samples->tail.resize(RopeScore::kSamples);
    for (std::int64_t n = 0; n < RopeScore::kSamples; ++n) {
        const std::vector<double> q = RopeScore::unitVector(seed, 2 * n, headDim);
        const std::vector<double> k = RopeScore::unitVector(seed, 2 * n + 1, headDim);
        for (std::int64_t i = 0; i < h; ++i) {
            const auto x = static_cast<std::size_t>(2 * i);
            const auto y = x + 1;
            samples->coefficients(n, i) = q[x] * k[x] + q[y] * k[y];
            samples->coefficients(n, h + i) = q[y] * k[x] - q[x] * k[y];
        }
        double tail = 0.0;
        for (auto j = static_cast<std::size_t>(2 * h); j < q.size(); ++j)
            tail += q[j] * k[j];
        samples->tail[n] = tail;
    }
    return samples;
}

// The last samples drawn: a change of the frequencies (theta, a scaling), which makes a new
// table, keeps them, and drawing them again cost a millisecond or two of each change's preview.
std::shared_ptr<const RopeScore::Samples> samplesFor(std::uint64_t seed, std::int64_t headDim, std::int64_t h)
{
    struct Last
    {
        std::uint64_t seed = 0;
        std::int64_t headDim = -1, h = -1;
        std::shared_ptr<const RopeScore::Samples> samples;
    };
    static std::mutex mutex;
    static Last last;
    {
        const std::lock_guard lock(mutex);
        if (last.samples && last.seed == seed && last.headDim == headDim && last.h == h)
            return last.samples;
    }
    auto samples = drawSamples(seed, headDim, h);
    const std::lock_guard lock(mutex);
    last = {seed, headDim, h, samples};
    return samples;
}

} // namespace

RopeScore::RopeScore(const Params &params)
    : m_w(RopeFrequencies::schedule(params).w)
    , m_headDim(params.rope.headDim)
    , m_samples(samplesFor(params.seed, m_headDim, static_cast<std::int64_t>(m_w.size())))
{ }

void RopeScore::fill(const Block &block, BlockRef out) const
{
    const auto h = static_cast<std::int64_t>(m_w.size());
    const auto headDim = static_cast<double>(m_headDim);
    const double unrotated = static_cast<double>(m_headDim - 2 * h);
    for (std::int64_t r0 = 0; r0 < block.rows; r0 += kScoreRows) {
        const std::int64_t rows = std::min(kScoreRows, block.rows - r0);
        // cos(k theta_i) in the first h columns, sin in the next h, a row per distance k.
        RowMatrixXd angles(rows, 2 * h);
        Eigen::ArrayXd onesScore(rows), bound(rows);
        for (std::int64_t r = 0; r < rows; ++r) {
            const auto k = static_cast<double>(block.row0 + r0 + r);
            double cosines = 0.0;
            double boundSum = 0.0;
            std::complex<double> partial(0.0, 0.0); // S_j
            for (std::int64_t i = 0; i < h; ++i) {
                double s = 0.0;
                double c = 0.0;
                exactSinCos(k, m_w[static_cast<std::size_t>(i)], s, c);
                angles(r, i) = c;
                angles(r, h + i) = s;
                cosines += c;
                partial += std::complex<double>(c, s);
                boundSum += std::abs(partial);
            }
            onesScore[r] = (2.0 * cosines + unrotated) / headDim;
            bound[r] = h > 0 ? boundSum / static_cast<double>(h) : 0.0;
        }
        // Each distance's score for every sample: rows x kSamples.
        RowMatrixXd scores = angles * m_samples->coefficients.transpose();
        scores.rowwise() += m_samples->tail.transpose();
        for (std::int64_t r = 0; r < rows; ++r) {
            const double mean = scores.row(r).mean();
            const double variance = (scores.row(r).array() - mean).square().mean();
            const std::int64_t outRow = r0 + r;
            const double values[kColumns] = {onesScore[r], mean, std::sqrt(variance), bound[r]};
            for (std::int64_t c = block.col0; c < block.colEnd(); ++c)
                out(outRow, c - block.col0) = static_cast<float>(values[c]);
        }
    }
}

} // namespace posenc
