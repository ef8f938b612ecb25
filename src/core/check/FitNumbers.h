#pragma once

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
// The median of the values (the upper one of an even count); 0 for none.
double median(std::vector<double> values);

} // namespace posenc::FitNumbers
