#pragma once

#include "core/Params.h"

#include <cstdint>
#include <vector>

// ALiBi's slopes and biases (docs/ARCHITECTURE.md, Encoding families), as the paper's reference
// code computes them (ofirpress/attention_with_linear_biases, `get_slopes`), in double as its
// Python does.
namespace posenc::AlibiSlopes {

// The slopes of `heads` heads, head k (1..H) at index k - 1. For H a power of two,
// m_k = r^k with r = 2^(-2^-(log2 H - 3)) = 2^(-8/H). Otherwise the 2^floor(log2 H) slopes of
// the power of two below H come first, then every other slope of twice that power, from its
// first, until there are H (12 heads end 0.707, 0.354, 0.177, 0.088). MPT's gen_slopes with
// alibi_bias_max 8 gives the same values. Precondition: heads >= 1.
std::vector<double> all(std::int64_t heads);
// Head k's slope, k in 1..heads.
double of(std::int64_t heads, std::int64_t head);
// The largest power of two that is at most `heads`: the heads whose slopes are a geometric
// series; the heads after it take theirs from the interleave of twice that power.
std::int64_t geometricHeads(std::int64_t heads);
// The bias head slope `slope` adds to query i's score of key j: -m|i - j| (symmetric), or
// -m(i - j) for j <= i and -inf for j > i (causal).
double bias(double slope, std::int64_t query, std::int64_t key, AlibiMask mask);

} // namespace posenc::AlibiSlopes
