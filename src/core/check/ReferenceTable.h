#pragma once

#include "core/Block.h"
#include "core/FrequencySchedule.h"
#include "core/Params.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace posenc {

class PositionalTable;

// What one column of a reference holds: the amplitude times the sine or cosine of pair `pair`'s
// angle, or 0 where `pair` is -1 (fairseq's zero column of an odd width).
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
struct ReferenceSpec
{
    FrequencySchedule schedule;
    std::vector<ReferenceColumn> columns;
    std::int64_t firstRow = 0;
    std::int64_t positionOffset = 0; // >= 0
    std::vector<std::int64_t> paddingRows; // rows >= firstRow that hold zeros (fairseq's padding_idx), sorted
    Angles angles = Angles::Exact;
    PositionRounding positionRounding = PositionRounding::None;

    std::int64_t cols() const { return static_cast<std::int64_t>(columns.size()); }
    bool isPadding(std::int64_t row) const;
    // Whether row `row` is compared: from firstRow on, padding rows left out.
    bool compared(std::int64_t row) const { return row >= firstRow && !isPadding(row); }
    // The position row `row` holds, before any rounding.
    std::int64_t position(std::int64_t row) const { return positionOffset + row - firstRow; }
    // The angle's frequency of column j (0 for a zero column).
    double frequency(std::int64_t column) const;

    friend bool operator==(const ReferenceSpec &, const ReferenceSpec &) = default;
};

// The columns of the sinusoidal table of `dModel` columns over `pairs` pairs in `layout`: as
// Frequencies lays them out (paper), or fairseq's [sin | cos | 0] of half_dim = d / 2 pairs.
std::vector<ReferenceColumn> sinusoidalColumns(std::int64_t dModel, std::int64_t pairs, Layout layout,
                                               bool swapped = false);

// A reference's values, computed by the exact anchored kernel of `posenc table`
// (PositionalTable). Immutable once built: one serves any number of threads.
class ReferenceTable
{
public:
    explicit ReferenceTable(ReferenceSpec spec);
    ~ReferenceTable();

    const ReferenceSpec &spec() const { return m_spec; }

    // Rows row0 .. row0 + rows - 1 of columns col0 .. col0 + cols - 1: row r's values start at
    // values + r * stride. Rows are table rows.
    struct Tile
    {
        std::int64_t row0;
        std::int64_t rows;
        std::int64_t col0;
        std::int64_t cols;
        const float *values;
        std::int64_t stride;
    };
    using TileSink = std::function<void(const Tile &tile)>;

    // Hands every cell of the block's compared rows to `sink` once, in tiles of a few rows, the
    // rows in order; the values live until the sink returns.
    void forEachTile(const Block &block, const TileSink &sink) const;
    // Fills `out` with the block: rows that are not compared hold 0.
    void fill(const Block &block, BlockRef out) const;

private:
    void forEachKernelRun(std::int64_t row0, std::int64_t rows, const Block &block, const TileSink &sink) const;

    ReferenceSpec m_spec;
    std::optional<Layout> m_direct; // the columns are the kernel's own, in this layout
    std::shared_ptr<const PositionalTable> m_kernel;
    // Otherwise: the span of the kernel's columns the table reads, and each table column's source
    // in it (m_kernelCols for a zero column).
    std::int64_t m_kernelCol0 = 0;
    std::int64_t m_kernelCols = 0;
    std::vector<std::int32_t> m_source;
};

} // namespace posenc
