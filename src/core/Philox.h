#pragma once

#include <Random123/philox.h>

#include <array>
#include <cstdint>

namespace posenc {

// Counter-based random streams from Random123's Philox4x32-10. A draw is a pure function of
// (seed, stream, position, group of four columns): the same seed gives the same numbers
// whatever the thread count, the block computed or the window shown.
enum class RandomStream : std::uint32_t { Embedding = 0x454d4244u, Dropout = 0x44524f50u };

class CellRandom
{
public:
    CellRandom(std::uint64_t seed, RandomStream stream)
        : m_key{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}}
        , m_stream(static_cast<std::uint32_t>(stream))
    {
    }

    // Four 32-bit words for columns 4*group .. 4*group + 3 of row `position`.
    std::array<std::uint32_t, 4> words(std::int64_t position, std::int64_t group) const
    {
        const r123::Philox4x32::ctr_type counter{{static_cast<std::uint32_t>(position),
                                                 static_cast<std::uint32_t>(position >> 32),
                                                 static_cast<std::uint32_t>(group), m_stream}};
        const auto out = r123::Philox4x32()(counter, m_key);
        return {out[0], out[1], out[2], out[3]};
    }

private:
    r123::Philox4x32::key_type m_key;
    std::uint32_t m_stream;
};

} // namespace posenc
