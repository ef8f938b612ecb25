#pragma once

#include "core/HeadBias.h"
#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <vector>

// KERPLE's log kernel (docs/ARCHITECTURE.md, Encoding families), as the authors' reference code
// computes it: chijames/KERPLE, megatron/mpu/layers.py, ParallelKerpleLog.forward,
//   diff = torch.tril(arange(L).view(L, 1).repeat(1, L) + arange(0, -L, -1)).to(x.dtype)
//   bias_p, bias_a = bias_p.clamp(min=eps), bias_a.clamp(min=eps)       (eps = 1e-2)
//   bias = -bias_p * torch.log(1 + bias_a * diff)
// with r1 = bias_p and r2 = bias_a of head h, in the dtype of the scores x. Its quirks are kept:
// diff[i, j] = i − j for keys j ≤ i and 0 after the query (tril), so those keys take the bias of
// distance 0, log 1 = 0, not −inf (the attention mask hides them elsewhere); r1 and r2 below eps
// are taken as eps; the distances are cast to the dtype (bfloat16 holds the integers exactly to
// 256, float16 to 2048 and none past 65504, which becomes inf) and each operation rounds to it:
// the product, the sum with 1, the logarithm and the product with −r1.
namespace posenc::KerpleBias {

// `x` rounded to the dtype as torch's CPU operations round a result: to float32, then (16-bit
// dtypes) to the dtype, to nearest with ties to even, float16 past its largest value to ±inf.
double rounded(double x, KerpleDtype dtype);
// Head `head`'s value (1..H) of a list of one value for every head or one per head.
double ofHead(const std::vector<double> &list, std::int64_t head);
// A parameter as the reference uses it: stored in the dtype, then clamped to eps in the dtype.
double used(double r, KerpleDtype dtype);
// The distance the reference's diff holds for the key offset t = j − i: −t, and 0 after the query.
std::int64_t distance(std::int64_t offset);
// The bias at distance r of parameters r1 and r2 as used: −r1·log(1 + r2·r), each operation in the
// dtype.
double atDistance(double r1, double r2, std::int64_t r, KerpleDtype dtype);
// Head K's bias at the key offset t = j − i under the parameters. Precondition: valid.
double bias(const KerpleParams &params, std::int64_t offset);
// Head `head`'s r1 and r2 as used.
double r1(const KerpleParams &params, std::int64_t head);
double r2(const KerpleParams &params, std::int64_t head);
// The heads whose r1 or r2 lies below eps and is taken as eps.
std::int64_t clampedHeads(const KerpleParams &params);
// The dtype's word: "float32".
QString dtypeWord(KerpleDtype dtype);

// The heads a figure draws: every head up to kMaxDrawnHeads, else an even choice of that many from
// 1 to H, with head K among them.
constexpr std::int64_t kMaxDrawnHeads = 16;
QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head);

// KERPLE as a per-head bias (HeadBias): H, K, and head K's bias at distance i − j.
const HeadBias::Family &biasFamily();

} // namespace posenc::KerpleBias
