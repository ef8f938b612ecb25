#include "FitNumbers.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace posenc::FitNumbers {

std::vector<double> roundings(double value, int maxDigits)
{
    std::vector<double> out;
    if (!(value > 0.0 && std::isfinite(value)))
        return out;
    for (int digits = 1; digits <= maxDigits; ++digits) {
        // The double nearest the decimal of `digits` digits, as the text reads back: 3.16228, not
        // 316228 * 1e-5 = 3.1622800000000004.
        std::array<char, 40> text {};
        const auto written
            = std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::scientific, digits - 1);
        double rounded = 0.0;
        std::from_chars(text.data(), written.ptr, rounded);
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

std::optional<std::pair<std::int64_t, std::int64_t>> allowedRange(std::int64_t least, std::int64_t most,
                                                                  const std::function<bool(std::int64_t)> &below,
                                                                  const std::function<bool(std::int64_t)> &above)
{
    if (least > most)
        return std::nullopt;
    // The first x not too small, and the last not too large.
    std::int64_t lo = least, hi = most + 1;
    while (lo < hi) {
        const std::int64_t x = lo + (hi - lo) / 2;
        if (below(x))
            lo = x + 1;
        else
            hi = x;
    }
    const std::int64_t first = lo;
    lo = least - 1;
    hi = most;
    while (lo < hi) {
        const std::int64_t x = hi - (hi - lo) / 2;
        if (above(x))
            hi = x - 1;
        else
            lo = x;
    }
    const std::int64_t last = lo;
    if (first > last || first > most || last < least)
        return std::nullopt;
    return std::pair {first, last};
}

std::int64_t roundest(std::int64_t lo, std::int64_t hi)
{
    for (std::int64_t p = 1; p > 0 && p <= hi; p *= 2) {
        if (p >= lo)
            return p;
    }
    for (std::int64_t unit = std::int64_t(1e15); unit >= 1; unit /= 10) {
        const std::int64_t first = (lo + unit - 1) / unit * unit;
        if (first <= hi)
            return first;
    }
    return lo;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2), values.end());
    return values[values.size() / 2];
}

} // namespace posenc::FitNumbers
