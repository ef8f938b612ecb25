#pragma once

#include "core/HeadBias.h"
#include "core/Params.h"

#include <QList>
#include <QString>

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
// -m(i - j) for j <= i and -inf for j > i (causal); 0 (not -0) on the diagonal.
double bias(double slope, std::int64_t query, std::int64_t key, AlibiMask mask);
// The biases at the key offsets t = j - i = first .. first + count - 1, as float32: bias()'s
// values rounded once, in a loop the compiler vectorises (a row of the bias is affine in j).
// Precondition: |first| and |first + count| below 2^31.
void biases(double slope, std::int64_t first, std::int64_t count, AlibiMask mask, float *out);

// What `posenc describe` prints for ALiBi's parameters: what a port checks its slopes against.
// The heads a figure draws: every head up to kMaxDrawnHeads, else an even choice of that many from
// 1 to H, with head K among them.
constexpr std::int64_t kMaxDrawnHeads = 64;
QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head);
// The mask in words: "causal mask", "symmetric (bidirectional)".
QString maskText(AlibiMask mask);

struct Description
{
    std::int64_t heads = 0;
    std::int64_t head = 0; // K, 1..heads
    double slope = 0.0; // m_K
    std::vector<double> slopes; // m_1 .. m_H
    std::int64_t geometricHeads = 0; // 2^floor(log2 H): the heads of the geometric series
    std::int64_t interleavedHeads = 0; // H - geometricHeads, from the interleave of twice that power
    // ln 2 / m_K: the key distance at which head K's bias reaches -ln 2, halving the key's softmax
    // weight against the query's own (all else equal).
    double halfWeightDistance = 0.0;
    double farthestBias = 0.0; // -m_K (max_len - 1): the bias of the farthest key a query sees
};
// Precondition: params valid.
Description describe(const Params &params);

// ALiBi as a per-head bias (HeadBias): H, K, and head K's bias, −m_K (i − j).
const HeadBias::Family &biasFamily();

} // namespace posenc::AlibiSlopes
