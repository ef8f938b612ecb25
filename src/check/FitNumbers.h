#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

// Numbers a fit rounds what it measured to (docs/ARCHITECTURE.md, Checking a table): a parameter
// of a published table is written with few digits, so a fit tries the fewest first and keeps the
// first that the sample agrees with.
namespace posenc::FitNumbers {

// `value` rounded to 1 .. maxDigits significant digits, the fewest first, each once, then `value`
// itself; empty for a value that is not positive and finite.
std::vector<double> roundings(double value, int maxDigits);
// The fewest significant digits (1 .. 15) that write `value` as roundings() gives it; 17 for a
// value no rounding gives.
int digitsOf(double value);
// The fewest significant digits that write `value` within a part in 10^12 (10000: 1, 12345.6: 6).
int significantDigits(double value);
// The integers x in [least, most] that a set of monotone conditions allows: `below(x)` says x is
// too small (true up to some x, false after), `above(x)` that it is too large (false up to some x,
// true after). Nothing when no x is neither.
std::optional<std::pair<std::int64_t, std::int64_t>> allowedRange(std::int64_t least, std::int64_t most,
                                                                  const std::function<bool(std::int64_t)> &below,
                                                                  const std::function<bool(std::int64_t)> &above);
// The roundest integer of [lo, hi]: a power of two, else the fewest significant digits, the
// least of those.
std::int64_t roundest(std::int64_t lo, std::int64_t hi);

// The median of the values (the upper one of an even count); 0 for none.
double median(std::vector<double> values);

} // namespace posenc::FitNumbers
