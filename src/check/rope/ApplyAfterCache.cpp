#include "check/rope/ApplyAfterCache.h"

#include "check/rope/ApplyAngles.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::ApplyAfterCache {

std::optional<std::int64_t> firstToldRow(const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
                                         double u)
{
    std::vector<double> angle(static_cast<std::size_t>(r.geometry.pairs())), unc(angle.size());
    for (std::int64_t p = 0; p < std::min<std::int64_t>(x.rows() - 1, 64); ++p) {
        ApplyPairs::rowAngles(x, y, p, r.geometry, u, angle.data(), nullptr, unc.data());
        if (std::all_of(angle.begin(), angle.end(), [](double a) { return std::isfinite(a); }))
            return p;
    }
    return std::nullopt;
}

bool placesMostRows(const ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y,
                    const ApplyPairs::Reading &r, double u)
{
    const FrequencySchedule schedule = RopeFrequencies::schedule(*result.params);
    const auto axis = ApplyPairs::AxisPairs::of(schedule.w, std::vector<bool>(schedule.w.size(), true));
    const std::int64_t rows = std::min<std::int64_t>(x.rows(), 64);
    const std::int64_t most
        = std::min<std::int64_t>(std::max<std::int64_t>(std::int64_t(1) << 20, 4 * x.rows()), std::int64_t(1) << 26);
    std::vector<double> angle(static_cast<std::size_t>(r.geometry.pairs())), unc(angle.size());
    for (const double sign : {1.0, -1.0}) {
        std::int64_t placed = 0, previous = -1;
        for (std::int64_t p = 0; p < rows; ++p) {
            ApplyPairs::rowAngles(x, y, p, r.geometry, u, angle.data(), nullptr, unc.data());
            for (double &a : angle)
                a *= sign;
            previous = ApplyPairs::readId(axis, angle.data(), unc.data(), u, {previous < 0 ? -1 : previous + 1}, most);
            placed += previous >= 0;
        }
        if (2 * placed > rows)
            return true;
    }
    return false;
}

std::int64_t leadingRun(const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r, double u,
                        std::int64_t origin)
{
    const std::int64_t reach = std::min<std::int64_t>(x.rows() - origin, 4096);
    const RowMatrixXf xr = x.middleRows(origin, reach), yr = y.middleRows(origin, reach);
    return ApplyCheck::AnglesRows(xr, yr, r, u, 0).leadingRun();
}

} // namespace posenc::ApplyAfterCache
