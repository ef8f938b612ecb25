#include "RopeScore.h"

#include "core/Philox.h"
#include "core/rope/RopeFrequencies.h"

#include <Eigen/Cholesky>
#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <bit>
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
        if (cholesky.info() == Eigen::Success) {
            samples->lower = cholesky.matrixL();
            samples->gram = c.transpose() * c / count;
        }
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
    const RowMatrixXd &g = m_samples->gram;
    if (g.size() == 0)
        return;
    // x^T G x with x = (cos k theta, sin k theta): cos a cos b = (cos(a - b) + cos(a + b)) / 2,
    // sin a sin b = (cos(a - b) - cos(a + b)) / 2, cos a sin b = (sin(a + b) - sin(a - b)) / 2, and
    // a cos + b sin = Re((a - i b) e^{i k phi}); the pairs (i, j) and (j, i) of one frequency summed.
    // The linear part 2 x . cross is h exponentials more, at theta_i alone.
    const auto theta = [this](std::int64_t i) { return m_w[static_cast<std::size_t>(i)]; };
    const auto wrapped = [](double phase) {
        constexpr double kTurn = 2.0 * std::numbers::pi;
        return phase - kTurn * std::floor(phase / kTurn);
    };
    const Eigen::VectorXd &cross = m_samples->cross;
    m_constant = m_samples->meanTail2;
    for (std::int64_t i = 0; i < h; ++i) {
        const auto ii = static_cast<std::int32_t>(i);
        m_constant += 0.5 * (g(i, i) + g(h + i, h + i));
        m_exponentials.push_back({wrapped(theta(i)), {2.0 * cross[i], -2.0 * cross[h + i]}, ii, ii, 0});
        for (std::int64_t j = i; j < h; ++j) {
            const auto jj = static_cast<std::int32_t>(j);
            const double p = g(i, j), s = g(h + i, h + j), rij = g(i, h + j), rji = g(j, h + i);
            const double half = i == j ? 0.5 : 1.0;
            m_exponentials.push_back({wrapped(theta(i) + theta(j)), {half * (p - s), -half * (rij + rji)}, ii, jj, 1});
            if (i != j)
                m_exponentials.push_back({wrapped(theta(i) - theta(j)), {p + s, rij - rji}, ii, jj, -1});
        }
    }
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

namespace {

// Greengard & Lee's Gaussian gridding: an oversampling of 2 and 16 grid points on each side of
// a position leave an error near 3e-15 of the coefficients' sum.
constexpr int kOversampling = 2;
constexpr int kSpread = 16;

// a[m] <- sum_p a[p] e^{2 pi i m p / n}: Eigen's FFT (its unsupported module, KISS FFT underneath)
// backwards, unscaled.
void inverseFft(std::vector<std::complex<double>> &a)
{
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::Unscaled);
    std::vector<std::complex<double>> sums;
    fft.inv(sums, a);
    a.swap(sums);
}

// out[r] = Re sum_f c_f e^{i x_f (r - n/2)} for r in [0, rows), rows <= n, n a power of two of at
// least 2 kSpread: the type-1 non-uniform FFT (Greengard & Lee, "Accelerating the nonuniform fast
// Fourier transform", SIAM Review 2004): each x_f spread on a grid of kOversampling n points by a
// periodic Gaussian, the grid's Fourier sums by an FFT, each divided by the Gaussian's coefficient.
void exponentialSums(const std::vector<double> &x, const std::vector<std::complex<double>> &c, std::int64_t n,
                     std::int64_t rows, double *out)
{
    const std::int64_t grid = kOversampling * n;
    const double r = kOversampling;
    const double tau = std::numbers::pi * kSpread / (double(n) * double(n) * r * (r - 0.5));
    const double spacing = 2.0 * std::numbers::pi / double(grid);
    std::vector<double> e3(kSpread + 1);
    for (int l = 0; l <= kSpread; ++l)
        e3[static_cast<std::size_t>(l)] = std::exp(-(l * spacing) * (l * spacing) / (4.0 * tau));
    std::vector<std::complex<double>> a(static_cast<std::size_t>(grid));
    const std::int64_t mask = grid - 1;
    for (std::size_t f = 0; f < x.size(); ++f) {
        // exp(-(l h - d)^2 / 4 tau) = e3[|l|] E2^l E1 for the grid points p0 + l around x = p0 h + d.
        const double p = std::floor(x[f] / spacing);
        const double d = x[f] - p * spacing;
        const auto p0 = static_cast<std::int64_t>(p);
        const std::complex<double> weighted = c[f] * std::exp(-d * d / (4.0 * tau));
        const double e2 = std::exp(d * spacing / (2.0 * tau));
        double up = 1.0, down = 1.0;
        a[static_cast<std::size_t>(p0 & mask)] += weighted;
        for (int l = 1; l <= kSpread; ++l) {
            up *= e2;
            a[static_cast<std::size_t>((p0 + l) & mask)] += weighted * (e3[static_cast<std::size_t>(l)] * up);
            if (l < kSpread) {
                down /= e2;
                a[static_cast<std::size_t>((p0 - l) & mask)] += weighted * (e3[static_cast<std::size_t>(l)] * down);
            }
        }
    }
    inverseFft(a);
    const double scale = std::sqrt(std::numbers::pi / tau) / double(grid);
    for (std::int64_t row = 0; row < rows; ++row) {
        const double m = double(row - n / 2);
        out[row] = scale * std::exp(m * m * tau) * a[static_cast<std::size_t>((row - n / 2) & mask)].real();
    }
}

} // namespace

void RopeScore::secondMoments(std::int64_t k0, std::int64_t rows, bool bySpectrum, double *out) const
{
    const auto h = static_cast<std::int64_t>(m_w.size());
    const Samples &samples = *m_samples;
    if (!bySpectrum || m_exponentials.empty()) {
        RowMatrixXd x;
        for (std::int64_t r0 = 0; r0 < rows; r0 += kScoreRows) {
            const std::int64_t count = std::min(kScoreRows, rows - r0);
            angles(k0 + r0, count, x);
            Eigen::Map<Eigen::ArrayXd> second(out + r0, count);
            if (samples.lower.size() > 0) {
                const RowMatrixXd y = x * samples.lower.triangularView<Eigen::Lower>();
                second = y.rowwise().squaredNorm().array() + 2.0 * (x * samples.cross).array() + samples.meanTail2;
            } else {
                RowMatrixXd scores = x * samples.coefficients.transpose();
                scores.rowwise() += samples.tail.transpose();
                second = scores.array().square().rowwise().mean();
            }
        }
        return;
    }
    std::vector<double> x(m_exponentials.size());
    for (std::size_t f = 0; f < x.size(); ++f)
        x[f] = m_exponentials[f].position;
    std::vector<std::complex<double>> c(m_exponentials.size()), turn(static_cast<std::size_t>(h));
    for (std::int64_t t0 = 0; t0 < rows; t0 += kSpectrumTile) {
        const std::int64_t count = std::min(kSpectrumTile, rows - t0);
        const auto n = std::max<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(count)), 2 * kSpread);
        // The tile's middle distance K: each coefficient turned by e^{i K (theta_i +- theta_j)}, from
        // the exact angles of each theta_i, so that only the tile's own offsets use the rounded positions.
        const std::int64_t middle = k0 + t0 + n / 2;
        for (std::int64_t i = 0; i < h; ++i) {
            double sine = 0.0, cosine = 0.0;
            exactSinCos(static_cast<double>(middle), m_w[static_cast<std::size_t>(i)], sine, cosine);
            turn[static_cast<std::size_t>(i)] = {cosine, sine};
        }
        for (std::size_t f = 0; f < c.size(); ++f) {
            const Exponential &e = m_exponentials[f];
            const std::complex<double> zi = turn[static_cast<std::size_t>(e.i)],
                                       zj = turn[static_cast<std::size_t>(e.j)];
            c[f] = e.coefficient * (e.sign == 0 ? zi : e.sign > 0 ? zi * zj : zi * std::conj(zj));
        }
        exponentialSums(x, c, n, count, out + t0);
        for (std::int64_t r = 0; r < count; ++r)
            out[t0 + r] += m_constant;
    }
}

void RopeScore::fill(const Block &block, BlockRef out) const
{
    const auto h = static_cast<std::int64_t>(m_w.size());
    const auto headDim = static_cast<double>(m_headDim);
    const double unrotated = static_cast<double>(m_headDim - 2 * h);
    const Samples &samples = *m_samples;
    // A long block's second moments all at once, by the spectrum.
    std::vector<double> spectral;
    if (!m_exponentials.empty() && block.rows >= kSpectrumRows) {
        spectral.resize(static_cast<std::size_t>(block.rows));
        secondMoments(block.row0, block.rows, true, spectral.data());
    }
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
            Eigen::ArrayXd second(rows);
            if (spectral.empty()) {
                const RowMatrixXd y = x * samples.lower.triangularView<Eigen::Lower>();
                second = y.rowwise().squaredNorm().array() + 2.0 * (x * samples.cross).array() + samples.meanTail2;
            } else {
                second = Eigen::Map<const Eigen::ArrayXd>(spectral.data() + r0, rows);
            }
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
