#pragma once

#include "DropoutSimd.h"

#include <cstdint>

namespace posenc {

// What turns the PE values of a run's rows into the model's input X = s E + PE, or its output
// after inverted dropout, cell by cell as applyDropout() and addScaled() compute them, before
// they are stored: the loads of E and the stores then go along with the rotation's arithmetic.
struct PairCombine
{
    static constexpr int kMaxRows = 4;

    float scale;
    float keep; // 1 - p as float32
    DropoutTarget target; // what dropout acts on: X, s E alone or the PE alone (dropoutValue())
    // Per row: where the row's destinations are counted from (its column 0), the embedding at that
    // column, and the keep bits from that column on (bit c % 64 of word c / 64, readable 8 bytes
    // past the row's last bit); null bits: X, every cell kept and none divided.
    const float *origin[kMaxRows];
    const float *embedding[kMaxRows];
    const std::uint64_t *kept[kMaxRows];
};

// The exact sinusoidal recurrence of PositionalTable for a run of consecutive rows, vectorised
// for the CPU's SIMD target (SimdTargets); every target gives the same bits.
struct PairRun
{
    static constexpr int kMaxRows = 4;

    // The double state of `pairs` pairs at the run's first row, sin and cos of p w_i, advanced
    // in place by the rotation (cos w_i, sin w_i) after each row but the last, and after the
    // last too when `advancePast`. Each step is s' = s cos + c sin, c' = c cos - s sin, every
    // product and sum rounded on its own.
    double *sines;
    double *cosines;
    const double *rotCos;
    const double *rotSin;
    std::int64_t pairs;
    int rows;
    bool advancePast;
    // Where row r's values go, rounded to float32: with `interleaved`, pair i's sine and
    // cosine to interleaved[r][2i] and [2i + 1]; otherwise its sine to sines[r][i] and its
    // cosine to cosines[r][i], where those rows are not null.
    bool interleaved;
    float *interleavedRows[kMaxRows];
    float *sineRows[kMaxRows];
    float *cosineRows[kMaxRows];
    // Non-temporal stores to the rows that start on a vector-aligned address.
    bool streaming;
    // Stores the model's input or output instead of the PE, where set.
    const PairCombine *combine = nullptr;
};

void rotatePairs(const PairRun &run);

// One step of the recurrence for `pairs` pairs, in place, with PairRun's roundings: the state
// (sines, cosines) rotated by (rotCos, rotSin), and copied to (copySines, copyCosines) where
// those are not null.
void rotateState(double *sines, double *cosines, const double *rotCos, const double *rotSin, std::int64_t pairs,
                 double *copySines = nullptr, double *copyCosines = nullptr);

// What a pair's two columns hold: its sine and its cosine (the PE), or one of the two in both
// (RoPE's sin and cos tables as HF returns them).
enum class PairValues { SineCosine, Sines, Cosines };

// PairRun's recurrence through any number of rows from one pass over the state, each row's
// destinations `stride` floats after the row before's: a table of narrow rows pays a pass's fixed
// costs once for a whole hop of rows (docs/PERFORMANCE.md, Narrow tables), and RoPE's tables store
// the one value a pair has in both of its columns straight from the registers.
struct PairRows
{
    // As PairRun's: the state at the run's first row, advanced after each row but the last, and
    // after the last too when `advancePast`.
    double *sines;
    double *cosines;
    const double *rotCos;
    const double *rotSin;
    std::int64_t pairs;
    int rows;
    bool advancePast;
    // Row 0's destinations, rounded to float32: with `interleaved`, pair i's first and second
    // values to interleavedRow[2i] and [2i + 1]; otherwise its first value to firstRow[i] and
    // its second to secondRow[i], where those are not null. Row r's are r * stride floats on.
    bool interleaved;
    float *interleavedRow;
    float *firstRow;
    float *secondRow;
    std::int64_t stride;
    // The first value is the sine and the second the cosine, unless one of them is in both.
    PairValues values;
    // Non-temporal stores to the rows that start on a vector-aligned address.
    bool streaming;
};

void rotatePairRows(const PairRows &rows);

} // namespace posenc
