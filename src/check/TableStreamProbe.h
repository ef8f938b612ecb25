#pragma once

// TableCheck's stream, of a table matched as float32 angles: the probe of its rows for exact values
// (docs/ARCHITECTURE.md, Checking a table: Streaming). A table that holds the exact angles' values
// where float32 angles would move its cells is not float32 angles, however wide their tolerance at
// far positions.

#include "check/CompareSimd.h"
#include "check/TableReference.h"

#include <cstdint>
#include <vector>

namespace posenc {

struct CellTolerance;

namespace TableCheck {

class ExactValuesProbe
{
public:
    // The probe of a match's tolerance over `cols` columns (0: none probed).
    ExactValuesProbe(const CellTolerance &tolerance, std::int64_t cols);

    // Whether the tile from table row `row0` on is probed: the first of every kProbeRows rows'
    // (a sixteenth of the tiles).
    static bool probes(std::int64_t row0) { return row0 % kProbeRows == 0; }

    // Of the tile's rows (table row r at rows + (r - row0) * cols), the cells whose float32-angle
    // allowance is wide, and those of them that hold the exact value all the same.
    ExactProbe count(const TableReference::Tile &t, const float *rows, std::int64_t row0, std::int64_t cols,
                     const TableReference &reference) const;

private:
    static constexpr std::int64_t kProbeRows = 64;

    const CellTolerance &m_tolerance;
    // Of a tolerance with a rounding per column (a PairReference's), laid out for CompareSimd: each
    // column's rounding per unit of position, and whether it is judged (1) or not (0: at frequency
    // 1, exact in float32 angles too). Empty: the cells are judged one by one.
    std::vector<double> m_rounding;
    std::vector<double> m_tested;
};

} // namespace TableCheck
} // namespace posenc
