#include "RowSampling.h"

#include <algorithm>
#include <cmath>

namespace posenc {

namespace {

constexpr double kGrowth = 8.0;

std::uint64_t splitmix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

RowSampling::RowSampling(std::int64_t row0, std::int64_t rows, std::int64_t cols, double spacing, std::int64_t budget)
    : m_row0(row0)
    , m_rows(rows)
    , m_spacing(std::max(1.0, spacing))
{
    const double cells = static_cast<double>(rows) * static_cast<double>(std::max<std::int64_t>(cols, 1));
    m_first = std::clamp(static_cast<double>(std::max<std::int64_t>(budget, 1)) / cells, 1.0 / m_spacing, 1.0);
    m_passes = 1;
    while (fraction(m_passes - 1) < 1.0)
        ++m_passes;
}

double RowSampling::fraction(int pass) const
{
    return std::min(1.0, m_first * std::pow(kGrowth, pass));
}

std::vector<RowRun> RowSampling::runs(int pass) const
{
    pass = std::clamp(pass, 0, m_passes - 1);
    const double f = fraction(pass);
    if (f >= 1.0)
        return {{m_row0, m_rows}};
    const std::int64_t run
        = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::llround(f * m_spacing)), 1, kMaxRun);
    const double stratum = static_cast<double>(run) / f;
    std::vector<RowRun> runs;
    for (std::int64_t s = 0;; ++s) {
        const auto lo = static_cast<std::int64_t>(std::llround(static_cast<double>(s) * stratum));
        if (lo >= m_rows)
            break;
        const auto hi = std::min(m_rows, static_cast<std::int64_t>(std::llround(static_cast<double>(s + 1) * stratum)));
        const std::int64_t length = std::min(run, hi - lo);
        const std::uint64_t room = static_cast<std::uint64_t>(hi - lo - length + 1);
        const auto offset = static_cast<std::int64_t>(
            splitmix(static_cast<std::uint64_t>(s) * 0x100000001b3ULL + static_cast<std::uint64_t>(pass)) % room);
        runs.push_back({m_row0 + lo + offset, length});
    }
    return runs;
}

} // namespace posenc
