#include "RopeScore.h"

#include "core/Philox.h"
#include "core/rope/RopeFrequencies.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numbers>

namespace posenc {

namespace {

// Rows of the score computed together: their sines and cosines and their kSamples products.
constexpr std::int64_t kScoreRows = 256;
// A row's angles are those of the multiple of kAnchor below it, exact, turned by its offset's:
// one sin and cos a pair every kAnchor rows, each row's still a pure function of its distance.
constexpr std::int64_t kAnchor = 64;

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
    // The moments: the std needs E[s^2], a quadratic form in x whose Cholesky factor takes (2h)^2 / 2
    // products a row instead of the kSamples x 2h of every sample's score.
    const RowMatrixXd &c = samples->coefficients;
    const auto count = static_cast<double>(RopeScore::kSamples);
    samples->mean = c.colwise().mean().transpose();
    samples->cross = c.transpose() * samples->tail / count;
    samples->meanTail = samples->tail.mean();
    samples->meanTail2 = samples->tail.squaredNorm() / count;
    if (2 * h <= RopeScore::kSamples && h > 0) {
        const Eigen::LLT<Eigen::MatrixXd> cholesky((c.transpose() * c / count).eval());
        if (cholesky.info() == Eigen::Success)
            samples->lower = cholesky.matrixL();
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
{
    const auto h = static_cast<std::int64_t>(m_w.size());
    m_offsets.resize(kAnchor, 2 * h);
    for (std::int64_t j = 0; j < kAnchor; ++j)
        for (std::int64_t i = 0; i < h; ++i)
            exactSinCos(static_cast<double>(j), m_w[static_cast<std::size_t>(i)], m_offsets(j, h + i), m_offsets(j, i));
}

void RopeScore::angles(std::int64_t k0, std::int64_t rows, RowMatrixXd &out) const
{
    const auto h = static_cast<std::int64_t>(m_w.size());
    out.resize(rows, 2 * h);
    std::vector<double> anchorCos(static_cast<std::size_t>(h)), anchorSin(static_cast<std::size_t>(h));
    std::int64_t anchor = -1;
    for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t k = k0 + r;
        const std::int64_t j = k % kAnchor;
        if (k - j != anchor) {
            anchor = k - j;
            for (std::int64_t i = 0; i < h; ++i)
                exactSinCos(static_cast<double>(anchor), m_w[static_cast<std::size_t>(i)],
                            anchorSin[static_cast<std::size_t>(i)], anchorCos[static_cast<std::size_t>(i)]);
        }
        // e^{i k theta} = e^{i anchor theta} e^{i j theta}: each factor within an ulp or two.
        for (std::int64_t i = 0; i < h; ++i) {
            const double ca = anchorCos[static_cast<std::size_t>(i)], sa = anchorSin[static_cast<std::size_t>(i)];
            const double cj = m_offsets(j, i), sj = m_offsets(j, h + i);
            out(r, i) = ca * cj - sa * sj;
            out(r, h + i) = sa * cj + ca * sj;
        }
    }
}

void RopeScore::fill(const Block &block, BlockRef out) const
{
    const auto h = static_cast<std::int64_t>(m_w.size());
    const auto headDim = static_cast<double>(m_headDim);
    const double unrotated = static_cast<double>(m_headDim - 2 * h);
    const Samples &samples = *m_samples;
    RowMatrixXd x;
    for (std::int64_t r0 = 0; r0 < block.rows; r0 += kScoreRows) {
        const std::int64_t rows = std::min(kScoreRows, block.rows - r0);
        // cos(k theta_i) in the first h columns, sin in the next h, a row per distance k.
        angles(block.row0 + r0, rows, x);
        Eigen::ArrayXd onesScore(rows), bound(rows);
        for (std::int64_t r = 0; r < rows; ++r) {
            double cosines = 0.0;
            double boundSum = 0.0;
            double re = 0.0, im = 0.0; // S_j
            for (std::int64_t i = 0; i < h; ++i) {
                cosines += x(r, i);
                re += x(r, i);
                im += x(r, h + i);
                boundSum += std::sqrt(re * re + im * im);
            }
            onesScore[r] = (2.0 * cosines + unrotated) / headDim;
            bound[r] = h > 0 ? boundSum / static_cast<double>(h) : 0.0;
        }
        Eigen::ArrayXd mean(rows), spread(rows);
        if (samples.lower.size() > 0) {
            mean = (x * samples.mean).array() + samples.meanTail;
            const RowMatrixXd y = x * samples.lower.triangularView<Eigen::Lower>();
            const Eigen::ArrayXd second
                = y.rowwise().squaredNorm().array() + 2.0 * (x * samples.cross).array() + samples.meanTail2;
            spread = (second - mean.square()).max(0.0).sqrt();
        } else {
            // Each distance's score for every sample: rows x kSamples.
            RowMatrixXd scores = x * samples.coefficients.transpose();
            scores.rowwise() += samples.tail.transpose();
            mean = scores.rowwise().mean().array();
            spread = ((scores.colwise() - mean.matrix()).array().square().rowwise().mean()).sqrt();
        }
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::int64_t outRow = r0 + r;
            const double values[kColumns] = {onesScore[r], mean[r], spread[r], bound[r]};
            for (std::int64_t c = block.col0; c < block.colEnd(); ++c)
                out(outRow, c - block.col0) = static_cast<float>(values[c]);
        }
    }
}

} // namespace posenc
