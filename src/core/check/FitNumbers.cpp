#include "FitNumbers.h"

#include <algorithm>
#include <cmath>

namespace posenc::FitNumbers {

std::vector<double> roundings(double value, int maxDigits)
{
    std::vector<double> out;
    if (!(value > 0.0 && std::isfinite(value)))
        return out;
    const int exponent = int(std::floor(std::log10(value)));
    for (int digits = 1; digits <= maxDigits; ++digits) {
        const double unit = std::pow(10.0, exponent - digits + 1);
        const double rounded = std::round(value / unit) * unit;
        if (rounded > 0.0 && std::find(out.begin(), out.end(), rounded) == out.end())
            out.push_back(rounded);
    }
    if (std::find(out.begin(), out.end(), value) == out.end())
        out.push_back(value);
    return out;
}

int digitsOf(double value)
{
    const std::vector<double> r = roundings(value, 15);
    const auto it = std::find(r.begin(), r.end(), value);
    return it == r.end() ? 17 : int(it - r.begin()) + 1;
}

int significantDigits(double value)
{
    if (!(value > 0.0 && std::isfinite(value)))
        return 17;
    const int exponent = int(std::floor(std::log10(value)));
    for (int digits = 1; digits < 17; ++digits) {
        const double unit = std::pow(10.0, exponent - digits + 1);
        if (std::fabs(std::round(value / unit) * unit - value) <= 1e-12 * value)
            return digits;
    }
    return 17;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2), values.end());
    return values[values.size() / 2];
}

} // namespace posenc::FitNumbers
