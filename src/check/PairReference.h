#pragma once

#include "check/TableReference.h"
#include "core/FrequencySchedule.h"
#include "core/Params.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace posenc {

class PositionalTable;

// What one column of a reference of sines and cosines holds: the amplitude times the sine or
// cosine of pair `pair`'s angle, or 0 where `pair` is -1 (a zero column).
struct ReferenceColumn
{
    std::int64_t pair = -1;
    bool isCos = false;
    friend bool operator==(const ReferenceColumn &, const ReferenceColumn &) = default;
};

// Positions rounded to a half-precision format before their angles are formed: what a table
// computed from fp16 or bf16 position ids holds (bf16 makes 8188..8191 all 8192).
enum class PositionRounding { None, Float16, BFloat16 };

// A table of sines and cosines that a checked table is compared with (docs/ARCHITECTURE.md,
// Checking a table): any schedule of frequencies and amplitude, any column of any pair, any
// first position. Row r >= firstRow holds position positionOffset + (r - firstRow); the rows
// before firstRow and the padding rows are not compared (their cells are 0 here).
struct PairReferenceSpec
{
    FrequencySchedule schedule;
    std::vector<ReferenceColumn> columns;
    // The columns are the kernel's own in this layout (PositionalTable's columns of the schedule),
    // which it then computes directly rather than gathered from its sines and cosines.
    std::optional<Layout> kernelLayout;
    std::int64_t firstRow = 0;
    std::int64_t positionOffset = 0; // >= 0
    std::vector<std::int64_t> paddingRows; // rows >= firstRow that hold zeros, sorted
    Angles angles = Angles::Exact;
    PositionRounding positionRounding = PositionRounding::None;
    // How closely the schedule's amplitude is known, relative: 0 where it is a parameter's value; a
    // fitted one's uncertainty where it was measured from the cells (a half-precision table pins its
    // amplitude only to its rounding), which each cell's tolerance takes in (cellTolerance).
    double amplitudeSlack = 0.0;

    // Where not empty, row r holds position rowPositions[r] (a table dumped at a batch's position
    // ids, which may repeat and jump): it replaces firstRow, positionOffset and the padding rows,
    // and rows past its end are not compared.
    std::vector<std::int64_t> rowPositions;

    std::int64_t cols() const { return static_cast<std::int64_t>(columns.size()); }
    bool isPadding(std::int64_t row) const;
    // Whether row `row` is compared: from firstRow on, padding rows left out.
    bool compared(std::int64_t row) const
    {
        if (!rowPositions.empty())
            return row >= 0 && row < std::int64_t(rowPositions.size());
        return row >= firstRow && !isPadding(row);
    }
    // The position row `row` holds, before any rounding.
    std::int64_t position(std::int64_t row) const
    {
        return rowPositions.empty() ? positionOffset + row - firstRow : rowPositions[std::size_t(row)];
    }
    // The angle's frequency of column j (0 for a zero column).
    double frequency(std::int64_t column) const;

    friend bool operator==(const PairReferenceSpec &, const PairReferenceSpec &) = default;
};

// A reference's values, computed by the exact anchored kernel of `posenc table`
// (PositionalTable) over the spec's schedule: in its own layout, or its sines and cosines
// gathered into the spec's columns.
class PairReference final : public TableReference
{
public:
    explicit PairReference(PairReferenceSpec spec);
    ~PairReference() override;

    const PairReferenceSpec &spec() const { return m_spec; }

    std::int64_t cols() const override { return m_spec.cols(); }
    bool compared(std::int64_t row) const override { return m_spec.compared(row); }
    std::int64_t position(std::int64_t row) const override { return m_spec.position(row); }
    void forEachTile(const Block &block, const TileSink &sink) const override;
    void forEachPiece(const Block &block, const TileSink &sink) const override;
    const PairReference *pairs() const override { return this; }

private:
    // `pieces`: the table's runs of columns handed out where the kernel's tile holds them
    // (forEachPiece), not gathered into whole rows.
    void forEachKernelRun(std::int64_t row0, std::int64_t rows, const Block &block, const TileSink &sink,
                          bool pieces) const;
    void forEachRun(const Block &block, const TileSink &sink, bool pieces) const;

    PairReferenceSpec m_spec;
    std::shared_ptr<const PositionalTable> m_kernel;
    // Without a kernel layout: the span of the kernel's columns the table reads, and each table
    // column's source in it (m_kernelCols for a zero column).
    std::int64_t m_kernelCol0 = 0;
    std::int64_t m_kernelCols = 0;
    std::vector<std::int32_t> m_source;
    // The same as runs of table columns whose sources follow one another, and whether they are
    // long enough to be copied run by run.
    struct Run
    {
        std::int64_t col = 0;
        std::int64_t source = 0;
        std::int64_t length = 0;
    };
    std::vector<Run> m_runs;
    bool m_gatherByRuns = false;
};

} // namespace posenc
