#include "PeWindowMeans.h"

#include "Frequencies.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <numbers>

namespace posenc {

namespace {

// float32 resolution: a mean this small relative to 1 rounds to nothing visible.
constexpr double kNegligible = 1.0 / (1 << 24);

// exp(i w x) with the product carried exactly, as GaussianSum does.
std::complex<double> phase(double omega, double x)
{
    const double hi = omega * x;
    const double lo = std::fma(omega, x, -hi);
    const double s = std::sin(hi), c = std::cos(hi);
    return {c - s * lo, s + c * lo};
}

} // namespace

PeWindowMeans::PeWindowMeans(std::int64_t dModel, const SinusoidalParams &params, const RowWindows &windows,
                             Moment moment)
    : m_dModel(dModel)
    , m_layout(params.layout)
    , m_cosFirst(params.flipSinToCos)
    , m_windows(windows)
    , m_moment(moment)
{
    const double harmonic = moment == Moment::Square ? 2.0 : 1.0;
    const std::int64_t pairs = Frequencies::pairCount(dModel);
    m_omega.resize(static_cast<std::size_t>(pairs));
    m_attenuation.resize(static_cast<std::size_t>(pairs));
    m_firstLive = pairs;
    for (std::int64_t i = pairs - 1; i >= 0; --i) {
        const double w = harmonic * Frequencies::angular(i, dModel, params);
        const double v = w * windows.sigma;
        m_omega[static_cast<std::size_t>(i)] = w;
        m_attenuation[static_cast<std::size_t>(i)] = std::exp(-0.5 * v * v);
        if (m_attenuation[static_cast<std::size_t>(i)] >= kNegligible) // w falls with i
            m_firstLive = i;
    }
}

bool PeWindowMeans::meetsEdge(std::int64_t a) const
{
    const double c = m_windows.centre(a);
    const double reach = GaussianSum::kReach * m_windows.sigma;
    const double peEnd = static_cast<double>(std::min(m_windows.last, m_windows.peLast));
    return c - reach < static_cast<double>(m_windows.first) || c + reach > peEnd;
}

GaussianWindow PeWindowMeans::weightWindow(double centre) const
{
    const double reach = GaussianSum::kReach * m_windows.sigma;
    const double first = static_cast<double>(m_windows.first);
    const double last = static_cast<double>(m_windows.last);
    return {centre, m_windows.sigma, centre - reach < first ? first : -GaussianWindow::kOpen,
            centre + reach > last ? last : GaussianWindow::kOpen};
}

GaussianWindow PeWindowMeans::peWindow(double centre) const
{
    GaussianWindow window = weightWindow(centre);
    const double peLast = static_cast<double>(std::min(m_windows.last, m_windows.peLast));
    if (centre + GaussianSum::kReach * m_windows.sigma > peLast)
        window.last = peLast;
    return window;
}

double PeWindowMeans::peShare(std::int64_t a) const
{
    const double centre = m_windows.centre(a);
    const GaussianSum weights(0.0, m_windows.sigma);
    const double total = weights(weightWindow(centre)).real();
    return total > 0.0 ? weights(peWindow(centre)).real() / total : 0.0;
}

namespace {

// Beyond this v = w sigma / sqrt(2) an edge's sum is its boundary series alone.
constexpr double kAsymptotic = 12.0;
// Edge windows computed together, pair by pair, so that a pair's coefficients serve them all.
constexpr std::int64_t kEdgeChunk = 4;

// Terms of the boundary series at v: term j is about sqrt(j!) / (sqrt(2) v)^j of the edge's.
int boundaryTerms(double v)
{
    return GaussianSum::seriesTerms(std::log(std::numbers::sqrt2 * v));
}

// d^j/dx^j of exp(-(x - c)^2 / (2 sigma^2)) at u = (x - c) / sigma, j < count.
void weightDerivatives(double u, double sigma, int count, double *out)
{
    double previous = 0.0, current = std::exp(-0.5 * u * u), scale = 1.0;
    for (int j = 0; j < count; ++j) {
        out[j] = scale * current;
        const double next = u * current - j * previous;
        previous = current;
        current = next;
        scale /= -sigma;
    }
}

} // namespace

void PeWindowMeans::edgeMeans(std::int64_t a0, std::int64_t count, std::int64_t lo, std::int64_t hi,
                              std::vector<std::complex<double>> &means) const
{
    // Far from the pole of its frequency (v >= kAsymptotic) an edge x contributes the boundary
    // series sum_{n >= x} weight(n) e^{i w n} = e^{i w x} sum_j weight^(j)(x) q_j(w), where
    // q_j = (d/dt)^j / j! of 1 / (1 - e^t) at t = i w (the Euler-Maclaurin series and the
    // asymptotic expansion of the half-line integral combined; the Gaussian's own part,
    // exp(-v^2), vanishes). Its terms depend on the window only through the weight's
    // derivatives: each pair's q_j serve every window of the chunk.
    const std::size_t span = static_cast<std::size_t>(hi - lo + 1);
    const int maxTerms = boundaryTerms(kAsymptotic);
    const double first = static_cast<double>(m_windows.first);
    const double after = static_cast<double>(std::min(m_windows.last, m_windows.peLast) + 1);
    const GaussianSum weights(0.0, m_windows.sigma);
    struct Edge
    {
        GaussianWindow pe;
        double total = 0.0;
        std::vector<double> atFirst, atAfter; // the weight's derivatives at the two edges
    };
    std::vector<Edge> edges(static_cast<std::size_t>(count));
    for (std::int64_t k = 0; k < count; ++k) {
        Edge &e = edges[static_cast<std::size_t>(k)];
        const double centre = m_windows.centre(a0 + k);
        e.pe = peWindow(centre);
        e.total = weights(weightWindow(centre)).real();
        e.atFirst.resize(static_cast<std::size_t>(maxTerms));
        e.atAfter.resize(static_cast<std::size_t>(maxTerms));
        weightDerivatives((first - centre) / m_windows.sigma, m_windows.sigma, maxTerms, e.atFirst.data());
        weightDerivatives((after - centre) / m_windows.sigma, m_windows.sigma, maxTerms, e.atAfter.data());
    }
    means.assign(static_cast<std::size_t>(count) * span, 0.0);
    std::array<std::complex<double>, GaussianSum::kMaxEdgeTerms> q;
    for (std::int64_t i = lo; i <= hi; ++i) {
        const double w = m_omega[static_cast<std::size_t>(i)];
        const double v = w * m_windows.sigma / std::numbers::sqrt2;
        if (v < kAsymptotic) {
            const GaussianSum sum(w, m_windows.sigma);
            for (std::int64_t k = 0; k < count; ++k) {
                const Edge &e = edges[static_cast<std::size_t>(k)];
                means[static_cast<std::size_t>(k) * span + static_cast<std::size_t>(i - lo)] = sum(e.pe) / e.total;
            }
            continue;
        }
        // q_0 = 1 / (1 - e^{iw}); Q' = Q^2 - Q gives (j + 1) q_{j+1} = sum_m q_m q_{j-m} - q_j.
        const int terms = std::min(maxTerms, boundaryTerms(v));
        q[0] = 1.0 / (1.0 - phase(w, 1.0));
        for (int j = 0; j + 1 < terms; ++j) {
            std::complex<double> convolution = 0.0;
            for (int m = 0; m <= j; ++m)
                convolution += q[static_cast<std::size_t>(m)] * q[static_cast<std::size_t>(j - m)];
            q[static_cast<std::size_t>(j + 1)] = (convolution - q[static_cast<std::size_t>(j)]) / (j + 1.0);
        }
        const std::complex<double> atFirst = phase(w, first);
        const std::complex<double> atAfter = phase(w, after);
        for (std::int64_t k = 0; k < count; ++k) {
            const Edge &e = edges[static_cast<std::size_t>(k)];
            std::complex<double> sum = 0.0;
            if (e.pe.first <= e.pe.last) {
                const auto series = [&](const std::vector<double> &g) {
                    std::complex<double> s = 0.0;
                    for (int j = 0; j < terms; ++j)
                        s += g[static_cast<std::size_t>(j)] * q[static_cast<std::size_t>(j)];
                    return s;
                };
                if (std::isfinite(e.pe.first))
                    sum += atFirst * series(e.atFirst);
                if (std::isfinite(e.pe.last))
                    sum -= atAfter * series(e.atAfter);
            }
            means[static_cast<std::size_t>(k) * span + static_cast<std::size_t>(i - lo)] = sum / e.total;
        }
    }
}

void PeWindowMeans::forEachWindow(std::int64_t a0, std::int64_t count, std::int64_t col0, std::int64_t cols,
                                  const WindowSink &sink) const
{
    // Each asked column's pair and whether it holds the cosine; the pairs they span.
    std::vector<std::int64_t> pairOf(static_cast<std::size_t>(cols));
    std::vector<char> isCos(static_cast<std::size_t>(cols));
    std::int64_t lo = Frequencies::pairCount(m_dModel), hi = -1;
    for (std::int64_t c = 0; c < cols; ++c) {
        const ColumnRole role = Frequencies::role(col0 + c, m_dModel, m_layout, m_cosFirst);
        pairOf[static_cast<std::size_t>(c)] = role.pair;
        isCos[static_cast<std::size_t>(c)] = role.isCos ? 1 : 0;
        lo = std::min(lo, role.pair);
        hi = std::max(hi, role.pair);
    }
    if (hi < lo)
        return;
    std::vector<double> values(static_cast<std::size_t>(cols));
    const std::size_t span = static_cast<std::size_t>(hi - lo + 1);
    const bool interleaved = m_layout == Layout::Interleaved;
    const auto deliver = [&](std::int64_t a, const std::complex<double> *mean) {
        if (m_moment == Moment::Square) {
            // sin^2 = (1 - cos 2x) / 2 and cos^2 = (1 + cos 2x) / 2, over the PE rows' share.
            const double share = meetsEdge(a) ? peShare(a) : 1.0;
            for (std::int64_t c = 0; c < cols; ++c) {
                const double cos2 = mean[pairOf[static_cast<std::size_t>(c)] - lo].real();
                values[static_cast<std::size_t>(c)]
                    = 0.5 * (share + (isCos[static_cast<std::size_t>(c)] ? cos2 : -cos2));
            }
        } else if (interleaved) { // column c holds (sin, cos) of pair c / 2: a pair's mean is (cos, sin)
            const auto *parts = reinterpret_cast<const double *>(mean); // (re, im) pairs, as the standard allows
            for (std::int64_t c = col0; c < col0 + cols; ++c)
                values[static_cast<std::size_t>(c - col0)] = parts[(c ^ 1) - 2 * lo];
        } else {
            for (std::int64_t c = 0; c < cols; ++c) {
                const std::complex<double> m = mean[pairOf[static_cast<std::size_t>(c)] - lo];
                values[static_cast<std::size_t>(c)] = isCos[static_cast<std::size_t>(c)] ? m.real() : m.imag();
            }
        }
        sink(a, values.data());
    };
    // Away from the edges: the live pairs' phase at the current centre and its step.
    const std::int64_t live = std::max(lo, m_firstLive);
    std::vector<std::complex<double>> state, step, interior, edges;
    bool anchored = false;
    for (std::int64_t a = a0; a < a0 + count;) {
        if (meetsEdge(a)) {
            std::int64_t end = a + 1;
            while (end < a0 + count && end - a < kEdgeChunk && meetsEdge(end))
                ++end;
            edgeMeans(a, end - a, lo, hi, edges);
            for (std::int64_t k = a; k < end; ++k)
                deliver(k, edges.data() + static_cast<std::size_t>(k - a) * span);
            anchored = false;
            a = end;
            continue;
        }
        if (interior.empty()) {
            state.resize(span);
            step.resize(span);
            interior.assign(span, 0.0);
            for (std::int64_t i = live; i <= hi; ++i)
                step[static_cast<std::size_t>(i - lo)] = phase(m_omega[static_cast<std::size_t>(i)], m_windows.spacing);
        }
        const double centre = m_windows.centre(a);
        const bool anchor = !anchored || a % kAnchorWindows == 0;
        for (std::int64_t i = live; i <= hi; ++i) {
            const std::size_t k = static_cast<std::size_t>(i - lo);
            state[k] = anchor ? phase(m_omega[static_cast<std::size_t>(i)], centre) : state[k] * step[k];
            interior[k] = m_attenuation[static_cast<std::size_t>(i)] * state[k];
        }
        anchored = true;
        deliver(a, interior.data());
        ++a;
    }
}

} // namespace posenc
