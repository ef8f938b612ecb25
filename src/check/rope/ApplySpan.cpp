// Which columns --apply's rotation turns (ApplySpan.h).
#include "check/rope/ApplySpan.h"

#include <algorithm>

namespace posenc::ApplySpan {

// The rotary width 2h of a half-layout part (rotate_half: columns i and i + h) whose slowest pairs
// Y's format leaves as they were: the pairs that turn (either column moved) are the first k of the
// h, the rest of [0, 2h) and everything after it pass. A pair turned by less than the format's
// rounding over these positions (theta^(-2i/r) at a large theta, in bfloat16) is no pass column;
// its frequency is read with the others. h is where the second half's first column turns after
// the first half's run. Nothing for another pattern.
std::optional<std::int64_t> slowPairsWidth(const std::vector<bool> &pass)
{
    const auto d = std::int64_t(pass.size());
    const auto moved = [&](std::int64_t j) { return !pass[std::size_t(j)]; };
    std::int64_t k = 0;
    while (k < d && moved(k))
        ++k;
    std::int64_t h = k;
    while (h < d && !moved(h))
        ++h;
    if (k == 0 || h == k || h == d || 2 * h > d)
        return std::nullopt;
    bool turning = true;
    for (std::int64_t i = 0; i < h; ++i) {
        const bool turned = moved(i) || moved(i + h);
        if (turned && !turning)
            return std::nullopt;
        turning = turned;
    }
    for (std::int64_t j = 2 * h; j < d; ++j) {
        if (moved(j))
            return std::nullopt;
    }
    return 2 * h;
}

// HF's partial rotary turns the first rotary_dim columns and passes the rest; the pass columns
// first are the rotated part misplaced; pass columns elsewhere are pairs of frequency 0
// (proportional RoPE's), read with the whole head.
Span spanOf(const std::vector<bool> &pass)
{
    const auto d = std::int64_t(pass.size());
    const auto passing = std::int64_t(std::count(pass.begin(), pass.end(), true));
    if (passing == 0)
        return {Placement::Whole, 0, d};
    if (passing == d)
        return {Placement::None, 0, d};
    const std::int64_t r = d - passing;
    const bool tail = std::all_of(pass.begin() + r, pass.end(), [](bool b) { return b; });
    const bool head = std::all_of(pass.begin(), pass.begin() + passing, [](bool b) { return b; });
    if (r % 2 == 0 && tail)
        return {Placement::First, 0, r};
    if (r % 2 == 0 && head)
        return {Placement::Last, passing, r};
    if (const auto width = slowPairsWidth(pass); width && *width < d)
        return {Placement::First, 0, *width};
    return {Placement::Scattered, 0, d};
}

} // namespace posenc::ApplySpan
