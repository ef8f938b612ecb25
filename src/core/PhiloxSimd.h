#pragma once

#include <cstdint>

namespace posenc {

// Philox4x32-10 (Random123) over many counters at once, vectorised for the CPU's SIMD target
// (SimdTargets). Counter i is (position low, position high, group i, stream), keyed by the
// seed's two halves: the layout CellRandom documents.
struct PhiloxStream
{
    std::uint32_t seedLow;
    std::uint32_t seedHigh;
    std::uint32_t stream;
};

// The four words of groups group0 .. group0 + count - 1 (modulo 2^32) into out[4i .. 4i + 3].
void philoxFill(const PhiloxStream &key, std::int64_t position, std::uint32_t group0, std::int64_t count,
                std::uint32_t *out);
// The four words of groups[k] into out[4k .. 4k + 3], k < count.
void philoxGather(const PhiloxStream &key, std::int64_t position, const std::uint32_t *groups, std::int64_t count,
                  std::uint32_t *out);

} // namespace posenc
