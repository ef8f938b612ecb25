#pragma once

#include "core/Params.h"

#include <cstdint>

// What ALiBi's bias alone does to attention (docs/ARCHITECTURE.md, Encoding families): with every
// content score zero, the softmax weight a query gives a key at distance d is e^(-m d) / Z, Z the
// sum over the keys it sees, so each head's weights are a normalised geometric series of ratio
// e^(-m). In closed form at any length.
namespace posenc::AlibiAttention {

// The keys a query sees, by their distance to it: 0 (itself), 1..before on one side and 1..after
// on the other (after is 0 under the causal mask).
struct Keys
{
    std::int64_t before = 0;
    std::int64_t after = 0;

    std::int64_t farthest() const { return before > after ? before : after; }
};

// One head's weights at one query: Z and the series' denominator e^(-m) - 1 taken once for every
// distance asked (a figure asks for a few per pixel, 16 heads at a time; the functions below take
// Z again at each call). Bit for bit the functions' values.
class Head
{
public:
    Head(double slope, Keys keys);

    double weight(std::int64_t distance) const;
    double within(std::int64_t distance) const;
    std::int64_t span(double share) const;

private:
    double geometric(std::int64_t n) const;
    double mass(std::int64_t distance) const;

    double m_slope;
    Keys m_keys;
    double m_denominator;
    double m_normaliser;
};

// The keys of query `query` (0..maxLen - 1) under `mask`.
Keys keysOf(std::int64_t maxLen, std::int64_t query, AlibiMask mask);
// The weight of one key at distance `distance` (either side), or 0 past the keys.
double weight(double slope, Keys keys, std::int64_t distance);
// The share of the weight on the keys within `distance` of the query, both sides: 1 from the
// farthest key on.
double within(double slope, Keys keys, std::int64_t distance);
// The least distance D whose keys within D hold at least `share` of the weight (0 < share <= 1):
// the head's span.
std::int64_t span(double slope, Keys keys, double share);

} // namespace posenc::AlibiAttention
