#pragma once

#include <cstdint>

namespace posenc {

// Box-Muller normals from Philox words, vectorised for the CPU's SIMD target (SimdTargets); every
// target gives the same bits. Pair k takes words[2k] (u1) and words[2k + 1] (u2), each's top 24
// bits as a uniform, and gives out[2k] = r cos(t), out[2k + 1] = r sin(t), where
// r = sigma sqrt(-2 log u1) and t = 2 pi u2. The logarithm, sine and cosine are Cephes' float
// polynomials (as Eigen evaluates them), each product and sum rounded on its own.
void normalPairs(const std::uint32_t *words, std::int64_t pairs, float sigma, float *out);

} // namespace posenc
