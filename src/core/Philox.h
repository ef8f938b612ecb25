#pragma once

#include <Random123/philox.h>

#include "PhiloxSimd.h"

#include <array>
#include <cstdint>

namespace posenc {

// Counter-based random streams from Random123's Philox4x32-10. A draw is a pure function of
// (seed, stream, position, group of four columns): the same seed gives the same numbers
// whatever the thread count, the block computed or the window shown.
enum class RandomStream : std::uint32_t {
    Embedding = 0x454d4244u,
    Dropout = 0x44524f50u,
    DropoutLowBits = 0x44524f4cu,
    RopeScore = 0x524f5045u, // the random query and key pairs of the rope-score table
};

class CellRandom
{
public:
    CellRandom(std::uint64_t seed, RandomStream stream)
        : m_key {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}}
        , m_stream(static_cast<std::uint32_t>(stream))
    { }

    // Four 32-bit words for columns 4*group .. 4*group + 3 of row `position`.
    std::array<std::uint32_t, 4> words(std::int64_t position, std::int64_t group) const
    {
        const r123::Philox4x32::ctr_type counter {{static_cast<std::uint32_t>(position),
                                                   static_cast<std::uint32_t>(position >> 32),
                                                   static_cast<std::uint32_t>(group), m_stream}};
        const auto out = r123::Philox4x32()(counter, m_key);
        return {out[0], out[1], out[2], out[3]};
    }

    // The words of `count` consecutive groups from `group0`, 4 per group, into `out`, many
    // counters at once on the CPU's SIMD target (tst_philox and tst_simdtargetsrandom check them
    // against Random123's own philox4x32 on every target).
    void fill(std::int64_t position, std::int64_t group0, std::int64_t count, std::uint32_t *out) const
    {
        philoxFill(stream(), position, static_cast<std::uint32_t>(group0), count, out);
    }

    // The words of `count` arbitrary groups of one row, groups[k] -> out[4k .. 4k + 3].
    void gather(std::int64_t position, const std::uint32_t *groups, std::int64_t count, std::uint32_t *out) const
    {
        philoxGather(stream(), position, groups, count, out);
    }

private:
    PhiloxStream stream() const { return {m_key[0], m_key[1], m_stream}; }

    r123::Philox4x32::key_type m_key;
    std::uint32_t m_stream;
};

} // namespace posenc
