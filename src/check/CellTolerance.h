#pragma once

#include "check/PairReference.h"
#include "check/TableRows.h"

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
