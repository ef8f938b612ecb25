#pragma once

#include <cstdint>
#include <vector>

namespace posenc {

// What the exact anchored kernel (PositionalTable) turns: pair i's angle at position p is
// p * w[i], and its sine and cosine are multiplied by `amplitude`. The sinusoid's schedule is the
// paper's w_i = b^(-2i/d) with amplitude 1; another family gives its own frequencies (scaled,
// zeroed) and amplitude, and the kernel computes them as exactly.
struct FrequencySchedule
{
    std::vector<double> w;
    double amplitude = 1.0;

    std::int64_t pairs() const { return static_cast<std::int64_t>(w.size()); }
    friend bool operator==(const FrequencySchedule &, const FrequencySchedule &) = default;
};

} // namespace posenc
