#pragma once

#include <algorithm>
#include <cstdint>

namespace posenc::SimilarityOffsets {

// The offsets the similarity figure draws S(k) over at first, 0 .. lastOffset: enough to see S
// fall from its peak and ripple. The lessons quote S(k) only where the figure draws it.
inline std::int64_t lastOffset(std::int64_t maxLen)
{
    return std::clamp<std::int64_t>(maxLen - 1, 0, 200);
}

// The second row whose dot products the figure measures against the offsets 0 .. `last`: the
// middle position, moved up so that p + last stays in the table; 0 where there is no such row
// (the offsets reach the table's end), and the figure measures at p = 0 alone.
inline std::int64_t middleRow(std::int64_t maxLen, std::int64_t last)
{
    return std::max<std::int64_t>(0, std::min((maxLen - 1) / 2, maxLen - 1 - last));
}

} // namespace posenc::SimilarityOffsets
