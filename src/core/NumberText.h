#pragma once

#include <QString>

#include <cstdint>

// How the program prints a number (docs/ARCHITECTURE.md, "Numbers in text"): one home, so that
// a lesson, its figure, a tooltip and the readout print the same value alike.
namespace posenc::NumberText {

// Compact, for legends, titles, tooltips and the readout: `digits` significant digits, an
// exponent without its '+' and leading zeros where one is needed ("6.03e4", "1.04e-4").
QString compact(double value, int digits = 4);

// For prose (lessons): three significant digits, trailing zeros dropped, a true minus sign, the
// thousands of a whole number grouped as count() groups them ("2,560"), and powers of ten written
// out past [1e-3, 1e7) ("3.8·10⁻²⁴"); "∞" and "NaN" spelled. A value other than ±1 never reads
// "1": it takes the decimals that tell it from 1 ("0.9997"). `digits` significant digits where three
// would not tell two values apart (digitsApart).
QString prose(double value, int digits = 3);

// The fewest significant digits, three or more, at which prose() tells `a` from `b`: a sentence
// that sets one value against another ("−1.002 in this layout but −1.003 in the other") must not
// read "−1 but −1". Three where they are equal; at most kMostDigits.
constexpr int kMostDigits = 15;
int digitsApart(double a, double b);

// A factor compact but in enough digits to tell it from 1: "1.0000005", "0.99999", "1.4142".
QString factor(double value);
// The significant digits factor() writes `value` in: five, or those that tell it from 1. A lesson
// writes a factor in prose at as many (LessonNumbers::factor: "1.5241·10⁸", where factor() gives
// the legend's "1.5241e8").
int factorDigits(double value);

// A whole number with its thousands grouped: 8192 -> "8,192".
QString count(std::int64_t value);

// The shortest text that reads back as the same double, for values the user types and the
// files and help texts that hold them ("0.1", "10000"); a whole number in its digits ("500000").
QString exact(double value);

} // namespace posenc::NumberText
