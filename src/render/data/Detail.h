#pragma once

#include <cstdint>

namespace posenc {

// Level of detail of a figure's data. A preview is computed within a small budget so that
// the screen follows a moving control at once; the full pass refines it when the control
// rests (the latest request wins, so a preview is never followed by a stale refinement).
enum class Detail { Preview, Full };

namespace Budget {
// Most table cells one figure computes at each level.
constexpr std::int64_t cells(Detail detail)
{
    return detail == Detail::Preview ? std::int64_t(1) << 19 : std::int64_t(64) << 20;
}
} // namespace Budget

} // namespace posenc
