#include "HeatmapFilter.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace posenc {

AxisFilter::AxisFilter(std::int64_t first, std::int64_t size, int cells)
    : m_first(first)
    , m_size(size)
    , m_cells(cells)
    , m_spacing(static_cast<double>(size) / cells)
    , m_sigma(kSigma * m_spacing)
    , m_centre0(static_cast<double>(first) + 0.5 * m_spacing - 0.5)
    , m_reach(GaussianSum::kReach * m_sigma)
{ }

std::pair<int, int> AxisFilter::cellsOf(std::int64_t n) const
{
    if (isIdentity()) {
        const int g = static_cast<int>(n - m_first);
        return {g, g};
    }
    const double x = static_cast<double>(n);
    const auto lo = static_cast<std::int64_t>(std::ceil((x - m_reach - m_centre0) / m_spacing));
    const auto hi = static_cast<std::int64_t>(std::floor((x + m_reach - m_centre0) / m_spacing));
    return {static_cast<int>(std::max<std::int64_t>(lo, 0)), static_cast<int>(std::min<std::int64_t>(hi, m_cells - 1))};
}

double AxisFilter::weight(std::int64_t n, int g) const
{
    if (isIdentity())
        return n - m_first == g ? 1.0 : 0.0;
    const double u = (static_cast<double>(n) - centre(g)) / m_sigma;
    return std::exp(-0.5 * u * u);
}

RowWindows AxisFilter::windows(std::int64_t peLast) const
{
    return {m_centre0, m_spacing, m_sigma, m_cells, m_first, m_first + m_size - 1, peLast};
}

ColumnWeights::ColumnWeights(const AxisFilter &filter)
{
    const int cells = filter.cells();
    m_lo.resize(static_cast<std::size_t>(cells));
    m_hi.resize(static_cast<std::size_t>(cells));
    m_offset.assign(static_cast<std::size_t>(cells) + 1, 0);
    const double reach = GaussianSum::kReach * filter.sigma();
    const std::int64_t size = filter.size();
    for (int b = 0; b < cells; ++b) {
        std::int64_t lo = b, hi = b;
        if (!filter.isIdentity()) {
            const double c = filter.centre(b) - static_cast<double>(filter.first());
            lo = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil(c - reach)));
            hi = std::min<std::int64_t>(size - 1, static_cast<std::int64_t>(std::floor(c + reach)));
        }
        m_lo[static_cast<std::size_t>(b)] = lo;
        m_hi[static_cast<std::size_t>(b)] = hi;
        m_offset[static_cast<std::size_t>(b) + 1]
            = m_offset[static_cast<std::size_t>(b)] + static_cast<std::size_t>(hi - lo + 1);
    }
    m_weights.resize(m_offset.back());
    // exp(-u^2 / 2) from one column to the next by two products: with u_j = (j - c) / sigma,
    // w_{j+1} = w_j g_j and g_{j+1} = g_j exp(-1 / sigma^2), re-anchored on an exp every
    // kAnchor columns so that the rounding of the products stays near 1e-15 over a wide filter.
    constexpr std::int64_t kAnchor = 64;
    const double step = filter.isIdentity() ? 1.0 : std::exp(-1.0 / (filter.sigma() * filter.sigma()));
    for (int b = 0; b < cells; ++b) {
        double *w = m_weights.data() + m_offset[static_cast<std::size_t>(b)];
        const std::int64_t lo = m_lo[static_cast<std::size_t>(b)];
        double total = 0.0, weight = 0.0, growth = 0.0;
        for (std::int64_t j = lo; j <= m_hi[static_cast<std::size_t>(b)]; ++j) {
            if ((j - lo) % kAnchor == 0) {
                weight = filter.weight(filter.first() + j, b);
                const double u = (static_cast<double>(filter.first() + j) - filter.centre(b)) / filter.sigma();
                growth = filter.isIdentity() ? 1.0 : std::exp(-(u + 0.5 / filter.sigma()) / filter.sigma());
            } else {
                weight *= growth;
                growth *= step;
            }
            total += w[j - lo] = weight;
        }
        for (std::int64_t j = lo; j <= m_hi[static_cast<std::size_t>(b)]; ++j)
            w[j - lo] /= total;
    }
}

void ColumnWeights::reduceRows(const RowMatrixXd &rows, RowMatrixXd &out) const
{
    out.resize(rows.rows(), static_cast<Eigen::Index>(m_lo.size()));
    for (std::size_t b = 0; b < m_lo.size(); ++b) {
        const Eigen::Index n = m_hi[b] - m_lo[b] + 1;
        const Eigen::Map<const Eigen::VectorXd> w(m_weights.data() + m_offset[b], n);
        out.col(static_cast<Eigen::Index>(b)).noalias() = rows.middleCols(m_lo[b], n) * w;
    }
}

void ColumnWeights::addReduced(const double *values, std::int64_t from, std::int64_t to, double *out) const
{
    addReduced(values, to - from, 1, from, to, out, 0);
}

void ColumnWeights::addReduced(const double *values, std::int64_t stride, int count, std::int64_t from, std::int64_t to,
                               double *out, std::int64_t outStride) const
{
    using Rows = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
                            Eigen::OuterStride<>>;
    // Grid columns are in order of their ranges: start at the first that reaches `from`.
    const auto firstB = std::lower_bound(m_hi.begin(), m_hi.end(), from) - m_hi.begin();
    Eigen::VectorXd result(count);
    for (std::size_t b = static_cast<std::size_t>(firstB); b < m_lo.size() && m_lo[b] < to; ++b) {
        const std::int64_t lo = std::max(m_lo[b], from);
        const std::int64_t hi = std::min(m_hi[b], to - 1);
        const Eigen::Index n = hi - lo + 1;
        const Eigen::Map<const Eigen::VectorXd> w(m_weights.data() + m_offset[b] + (lo - m_lo[b]), n);
        const Rows v(values + (lo - from), count, n, Eigen::OuterStride<>(stride));
        result.noalias() = v * w;
        for (int r = 0; r < count; ++r)
            out[static_cast<std::size_t>(r * outStride) + b] += result[r];
    }
}

} // namespace posenc
