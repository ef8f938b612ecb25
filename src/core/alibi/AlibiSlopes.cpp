#include "AlibiSlopes.h"

#include <cmath>
#include <limits>

namespace posenc::AlibiSlopes {

namespace {

// get_slopes_power_of_2(n): start * ratio**i with start = ratio = 2**(-2**-(log2(n) - 3)),
// each operation as Python's floats do it.
void appendPowerOfTwo(std::int64_t n, std::vector<double> &to, std::int64_t count)
{
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3.0)));
    const double ratio = start;
    for (std::int64_t i = 0; i < count; ++i)
        to.push_back(start * std::pow(ratio, static_cast<double>(i)));
}

} // namespace

std::int64_t geometricHeads(std::int64_t heads)
{
    std::int64_t power = 1;
    while (power * 2 <= heads)
        power *= 2;
    return power;
}

std::vector<double> all(std::int64_t heads)
{
    std::vector<double> slopes;
    if (heads < 1)
        return slopes;
    slopes.reserve(static_cast<std::size_t>(heads));
    const std::int64_t closest = geometricHeads(heads);
    appendPowerOfTwo(closest, slopes, closest);
    if (closest == heads)
        return slopes;
    // get_slopes(2 * closest)[0::2][:heads - closest]: twice the power is a power of two itself.
    std::vector<double> twice;
    appendPowerOfTwo(2 * closest, twice, 2 * closest);
    for (std::int64_t i = 0; i < heads - closest; ++i)
        slopes.push_back(twice[static_cast<std::size_t>(2 * i)]);
    return slopes;
}

double of(std::int64_t heads, std::int64_t head)
{
    const std::int64_t closest = geometricHeads(heads);
    std::vector<double> one;
    if (head <= closest) {
        appendPowerOfTwo(closest, one, head);
        return one.back();
    }
    appendPowerOfTwo(2 * closest, one, 2 * (head - closest) - 1);
    return one.back();
}

double bias(double slope, std::int64_t query, std::int64_t key, AlibiMask mask)
{
    const double distance = static_cast<double>(query - key);
    if (mask == AlibiMask::Symmetric)
        return -slope * std::abs(distance);
    if (key > query)
        return -std::numeric_limits<double>::infinity();
    return -slope * distance;
}

} // namespace posenc::AlibiSlopes
