#pragma once

#include <cstdint>

namespace posenc {

// Up to four rows of a checked table against their reference, vectorised for the CPU's SIMD target
// (SimdTargets): |table - reference| folded into the columns' maxima, each column's loaded and
// stored once for all the rows, and each row's largest error and whether a cell is beyond
// relative |reference| + absolute (+ extra[c]), or is not a number.
struct RowsComparison
{
    static constexpr int kMaxRows = 4;
    float rowMax[kMaxRows] = {};
    bool over[kMaxRows] = {};
};

// A limit that grows with the row (float32 angles' allowance, docs/ARCHITECTURE.md, Tolerance):
// perColumn[c] * rowScale[r] more for cell c of row r, one product a cell rather than a limit read
// from memory.
struct GrowingLimit
{
    const float *perColumn = nullptr;
    float rowScale[RowsComparison::kMaxRows] = {};
};

// Of an exact reference (CellTolerance::heldFormat): a cell whose reference is the format's own
// value (its float32 bits under `mask` 0, |reference| from `least` to `greatest`: formatHolds) is
// held to `relative` |reference| in place of the comparison's relative.
struct HeldValues
{
    std::uint32_t mask = 0;
    float least = 0.0f;
    float greatest = 0.0f;
    float relative = 0.0f;
};

// Row r of the table at table + r * tableStride, of the reference at reference + r * referenceStride;
// `extra` (may be null) is per row too, at extra + r * count; `growing` (may be null) adds its
// limit; `held` (may be null) holds a format's own values closer. With `infinities` (a reference
// that holds a mask's -inf), equal cells agree and an infinite reference allows only itself.
RowsComparison compareRows(const float *table, std::int64_t tableStride, const float *reference,
                           std::int64_t referenceStride, int rows, float *columnMax, std::int64_t count, float relative,
                           float absolute, const float *extra, const GrowingLimit *growing = nullptr,
                           bool infinities = false, const HeldValues *held = nullptr);

// Of a table matched as float32 angles, one row's probe for exact values (TableStream's probe,
// docs/ARCHITECTURE.md, Streaming): of the `count` cells of the `tested` columns (1 tested, 0 not),
// those the angle's rounding moves, !(rounding[c] * position * slope < factor * limit) with the
// cosine's slope sqrt(max(0, 1 - (reference / amplitude)^2)) and the exact limit relative
// |reference| + absolute, and where the float32 number nearest the exact angle p w (w = rounding 2^24
// / amplitude) would move it too, !(amplitude * slope * |p w - float(p w)| <= kFloat32AngleHeld *
// limit): a cell that even that float32 angle leaves at the exact value is no evidence of exact
// angles (p w an integer, as p / 3 is at every third p). Of them, those within the limit of the
// reference. Computed in double as the scalar formula is, operation for operation, so that the
// counts are the same on every target.
// The nearest float32 angle moves a cell by amplitude * slope * |p w - float(p w)| to first order;
// the cosine's own rounding and the reference's add up to twice the limit: past three limits no
// float32 angle leaves the cell within one.
constexpr double kFloat32AngleHeld = 3.0;
struct ExactProbe
{
    std::int64_t moved = 0;
    std::int64_t exact = 0;

    ExactProbe &operator+=(const ExactProbe &other)
    {
        moved += other.moved;
        exact += other.exact;
        return *this;
    }
};
void probeExactValues(const float *table, const float *reference, std::int64_t count, const double *rounding,
                      const double *tested, double position, double relative, double absolute, double amplitude,
                      double factor, ExactProbe &out);

} // namespace posenc
