#pragma once

#include <cstdint>

namespace posenc {

// Weighted sums of float rows into double rows, vectorised for the CPU's SIMD target
// (SimdTargets): into[j] += w * double(from[j]), each element a product and a sum rounded alone (no
// fused multiply-add), so every target computes the same bits as the scalar loop. A heatmap's grid
// rows are such sums of its table's rows (HeatmapResampler's addDirect).
namespace AccumulateSimd {

void addWeighted(double *into, const float *from, double w, std::int64_t n);

} // namespace AccumulateSimd

} // namespace posenc
