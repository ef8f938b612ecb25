#include "TableRequest.h"

#include <algorithm>
#include <cmath>

namespace posenc::TableView {

namespace {

std::optional<std::pair<std::int64_t, std::int64_t>> clamped(double first, double last, std::int64_t count)
{
    if (!std::isfinite(first) || !std::isfinite(last) || count <= 0)
        return std::nullopt;
    const double lo = std::max(first, 0.0);
    const double hi = std::min(last, static_cast<double>(count - 1));
    if (lo > hi)
        return std::nullopt;
    return std::pair {static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi) + 1};
}

} // namespace

Block blockCovering(std::int64_t first, std::int64_t end, const std::vector<std::int64_t> &columns)
{
    const auto [lo, hi] = std::minmax_element(columns.begin(), columns.end());
    return {first, end - first, *lo, *hi - *lo + 1};
}

std::optional<std::pair<std::int64_t, std::int64_t>> cellsInView(double lower, double upper, std::int64_t count)
{
    // Cell i is in view when i + 0.5 > lower and i - 0.5 < upper.
    return clamped(std::floor(lower - 0.5) + 1.0, std::ceil(upper + 0.5) - 1.0, count);
}

std::optional<std::pair<std::int64_t, std::int64_t>> integersInView(double lower, double upper, std::int64_t count)
{
    return clamped(std::ceil(lower), std::floor(upper), count);
}

} // namespace posenc::TableView
