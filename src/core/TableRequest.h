#pragma once

#include "Block.h"
#include "Quantity.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace posenc {

// A table to write, as `posenc table` and the window's Export data describe it: the cells of a
// quantity, or statistics computed from them.
struct TableRequest
{
    enum Content {
        Cells, // the cells of `quantity` in `block`, only the columns `dims` when it is not empty
        PositionNorms, // one row per position of `block`: ||PE_p||, ||s*E_p||, ||s*E_p|| / ||PE_p||
        // One row per position of `block`: ||PE_p||, ||s*E_p||, their ratio, ||X_p||, ||Y_p||.
        RowNorms,
        // One row per column of X (those of `dims` when it is not empty), each over all L
        // positions: PE mean, PE std, PE RMS, s*E mean, s*E std, s*E RMS (population std).
        ColumnStats,
    };
    Content content = Cells;
    Quantity quantity = Quantity::Pe;
    Block block; // columns covering `dims` when given; the norms use its rows only, ColumnStats neither
    std::vector<std::int64_t> dims;
};

// Which cells of a table a view shows, for the table of what a figure shows.
namespace TableView {

// The block of `columns`' lowest to highest, over rows [first, end).
Block blockCovering(std::int64_t first, std::int64_t end, const std::vector<std::int64_t> &columns);

// The whole cells of a table of `count` cells that a continuous view [lower, upper] touches
// (cell i spans i - 0.5 .. i + 0.5), as [first, end), clamped to the table; nothing when
// none is in view.
std::optional<std::pair<std::int64_t, std::int64_t>> cellsInView(double lower, double upper, std::int64_t count);
// The integers within [lower, upper], as [first, end), clamped to [0, count); nothing when none.
std::optional<std::pair<std::int64_t, std::int64_t>> integersInView(double lower, double upper, std::int64_t count);

} // namespace TableView

} // namespace posenc
