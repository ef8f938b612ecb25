#pragma once

#include "check/PairReference.h"
#include "check/TableRows.h"

#include <bit>
#include <cstdint>
#include <vector>

namespace posenc {

// The format a table's values were rounded to: float32 (or wider, which the check compares at
// float32), float16 or bfloat16, whether stored so or stored wider after rounding.
enum class ValueFormat { Float32, Float16, BFloat16 };

// The narrowest of the three formats every value is exactly representable in.
ValueFormat representableFormat(const float *values, std::int64_t count);
// The format a stored type rounds to.
ValueFormat storedFormat(StoredType stored);
// Half a unit in the last place of `format` at 1: its relative rounding.
double halfUnit(ValueFormat format);

// A half format's own normal values as float32 bits: those under `mask` 0, |value| from `least` to
// `greatest`. Float16's subnormals are left out (held to the format's rounding as other values).
struct FormatBits
{
    std::uint32_t mask;
    float least;
    float greatest;
};
inline FormatBits formatBits(ValueFormat format)
{
    return format == ValueFormat::Float16 ? FormatBits {0x1fffu, 0x1p-14f, 65504.0f}
                                          : FormatBits {0xffffu, 0x1p-126f, 0x1.fep127f};
}

// Whether `reference` (a float32 reference's value) is one of `format`'s own normal values
// (float32: never).
inline bool formatHolds(float reference, ValueFormat format)
{
    if (format == ValueFormat::Float32)
        return false;
    const FormatBits bits = formatBits(format);
    const float a = reference < 0.0f ? -reference : reference;
    return (std::bit_cast<std::uint32_t>(reference) & bits.mask) == 0 && a >= bits.least && a <= bits.greatest;
}

// How far a correct cell may be from the exact reference (docs/ARCHITECTURE.md, Checking a
// table): the rounding of its values, relative and absolute, and with float32 angles the
// angle's own rounding, which grows with the position.
struct CellTolerance
{
    double relative = 0.0; // times |reference|
    double absolute = 0.0;
    // Per column: the allowed |error| per unit of position, for float32 angles; empty otherwise.
    std::vector<double> perPosition;
    // Per column, with float32 angles: whether float32's angle is the exact one (a frequency of a
    // power of two, 1 or a linear factor's 1/2, 1/4, ...).
    std::vector<bool> exactAngle;
    // Per column, with float32 angles of a PairReference: A w 2^-24, the angle's own float32 rounding
    // per unit of position times the amplitude A, which moves a cell by that times its slope
    // sqrt(1 - (v / A)^2) (a cell at a crest does not move); empty for other references.
    std::vector<double> angleRounding;
    double amplitude = 1.0;
    // Float32 angles declared (--angles float32): their tolerance around the exact angles is kept
    // whatever the table's values show. A declaration widens what faithful computations give, never
    // narrows it: a float64 table rounded to float32 is within it too, and float32 code that forms
    // its angles another way than posenc's (PyTorch's PositionalEncoding: exp of a product) as well.
    bool anglesDeclared = false;
    // Of a reference whose values are exact and which a faithful computation forms exactly (whole
    // numbers: buckets; a slope 2^-k times whole distances: ALiBi's biases), the format the table's
    // values are rounded to: a cell whose reference that format holds (`formatHolds`) is the format's
    // own value, which every rounding to it (to nearest, toward zero, down, up) leaves as it is. The
    // stream holds such a cell to `heldRelative` |reference| + absolute, float32's part, in place of
    // the format's half unit: a bucket one off is a deviation however wide the format's units are
    // there (a bfloat16 unit is 1 from 128 to 256), and no rounding is read from it. Float32: none.
    ValueFormat heldFormat = ValueFormat::Float32;
    double heldRelative = 0.0;

    // Relative |reference|'s factor at `reference`: `heldRelative` where the format holds it.
    double relativeAt(double reference) const
    {
        return formatHolds(float(reference), heldFormat) && double(float(reference)) == reference ? heldRelative
                                                                                                  : relative;
    }

    // An infinite reference (a mask) allows only itself: |error| 0.
    double limit(double reference, std::int64_t column, double position) const
    {
        if (!(reference - reference == 0.0))
            return 0.0;
        double l = relative * (reference < 0 ? -reference : reference) + absolute;
        if (!perPosition.empty())
            l += perPosition[static_cast<std::size_t>(column)] * (position < 0 ? -position : position);
        return l;
    }
};

// The tolerance of a table whose values are rounded to `format` (and stored as `stored`, text
// with `textRounding`), its angles formed exactly or in float32 (`float32Angles`): float(p) times
// a frequency computed in float32, each off by a few units of 2^-24 of the angle, |ln w| of them
// where the frequency comes from exp(-i ln(b) c) in float32.
CellTolerance cellTolerance(ValueFormat format, bool float32Angles, StoredType stored, double textRounding,
                            const PairReferenceSpec &reference);
// The tolerance of a table of values of size up to `scale` computed without angles (a bias, a
// bucket): the rounding of `format` and of the text, `ulps` units of float32 relative to the value
// (1 for a value rounded once from an exact one).
CellTolerance cellTolerance(ValueFormat format, StoredType stored, double textRounding, double scale,
                            double ulps = 1.0);

} // namespace posenc
