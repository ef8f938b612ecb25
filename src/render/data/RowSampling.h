#pragma once

#include <cstdint>
#include <vector>

namespace posenc {

// Consecutive rows of a table: [row0, row0 + rows).
struct RowRun
{
    std::int64_t row0 = 0;
    std::int64_t rows = 0;
};

// The rows each pass of a progressive heatmap computes cell by cell, coarse to fine. Pass k
// takes a fraction min(1, f0 8^k) of the block's rows, the last pass all of them. A pass
// below 1 cuts the rows into strata and takes one run of consecutive rows from each, at an
// offset drawn from a hash of (stratum, pass): jittered, so that no stride can resonate with
// a period of the data, and spread evenly, so that every grid row has samples near it.
class RowSampling
{
public:
    static constexpr std::int64_t kMaxRun = 32; // rows: a run long enough to amortise a row's set-up

    // The block's rows [row0, row0 + rows) of `cols` columns, `spacing` rows per grid row;
    // the first pass computes about `budget` cells, but at least one row per grid row.
    RowSampling(std::int64_t row0, std::int64_t rows, std::int64_t cols, double spacing, std::int64_t budget);

    int passCount() const { return m_passes; }
    // The runs of pass `pass` (clamped to the last), in order.
    std::vector<RowRun> runs(int pass) const;

private:
    double fraction(int pass) const;

    std::int64_t m_row0;
    std::int64_t m_rows;
    double m_spacing;
    double m_first; // f0
    int m_passes;
};

} // namespace posenc
