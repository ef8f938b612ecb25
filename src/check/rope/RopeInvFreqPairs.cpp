#include "check/rope/RopeInvFreqPairs.h"

#include "check/CellTolerance.h"

#include <algorithm>
#include <cmath>

namespace posenc::RopeInvFreqPairs {

double tolerance(double exact, StoredType stored)
{
    const double float32 = (std::fabs(std::log(std::max(exact, 1e-300))) + 8.0) * std::ldexp(1.0, -24) * exact;
    double rounding = 0.0;
    if (stored == StoredType::Float16)
        rounding = std::max(halfUnit(ValueFormat::Float16) * exact, std::ldexp(1.0, -25));
    else if (stored == StoredType::BFloat16)
        rounding = halfUnit(ValueFormat::BFloat16) * exact;
    return float32 + rounding + 1e-300;
}

Comparison compare(const std::vector<double> &v, const std::vector<double> &reference, StoredType stored)
{
    Comparison c;
    double worstRatio = -1.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double error = std::fabs(v[i] - reference[i]);
        const double allowed = tolerance(reference[i], stored);
        if (c.maxAt < 0 || error > c.maxAbs) {
            c.maxAbs = error;
            c.maxAt = std::int64_t(i);
            c.maxRelative = allowed / std::max(std::fabs(reference[i]), 1e-300);
        }
        if (error > allowed)
            ++c.beyond;
        if (error / allowed > worstRatio) {
            worstRatio = error / allowed;
            c.worst = std::int64_t(i);
            c.worstError = error;
            c.worstExpected = reference[i];
            c.worstFound = v[i];
        }
    }
    return c;
}

} // namespace posenc::RopeInvFreqPairs
