#include "check/rope/RopeInvFreqPairs.h"

#include "check/CellTolerance.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

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
            c.worstRatio = worstRatio;
            c.worstExpected = reference[i];
            c.worstFound = v[i];
        }
    }
    return c;
}

// The pair worst against its tolerance, which is relative (a small inv_freq's tolerance is small),
// and the pair of the largest absolute error, which the max |error| line gives: each named by its
// measure, as the two are often different pairs.
QString words(const Comparison &c)
{
    const QString largest = c.maxAt == c.worst
        ? u"; it is also the largest absolute error (max |error|)"_s
        : u"; the largest absolute error (max |error|) is inv_freq[%1]'s, %2"_s.arg(c.maxAt).arg(
            NumberText::compact(c.maxAbs, 3));
    return u"%1 of the pairs deviate; the worst relative to its tolerance is inv_freq[%2] = %3 where %4 "
           "(|error| %5, %6 times its tolerance)%7"_s.arg(c.beyond)
               .arg(c.worst)
               .arg(NumberText::compact(c.worstFound, 7), NumberText::compact(c.worstExpected, 7),
                    NumberText::compact(c.worstError, 3), NumberText::compact(c.worstRatio, 3), largest);
}

} // namespace posenc::RopeInvFreqPairs
