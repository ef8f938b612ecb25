#pragma once

#include "check/CellTolerance.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

// A 2-D table (its rows the patches of an H x W grid, h·W + w) sampled with its x and y axes
// exchanged (docs/ARCHITECTURE.md, Checking a table, "A declared reference"; issue 56): torchtitan's
// _vision_pos_embed passed grid_sample `stack(meshgrid(ys, xs, indexing="xy"))`, y where x goes,
// on a non-square grid (pytorch/torchtitan#4244; fixed with indexing="ij" and (x, y) stacked).
// A resample of a learned grid at other points cannot be computed from the reference's rows, but
// where a point of the swapped sampling is one of the reference's own, the two rows are one value:
// the rows the swap predicts equal the reference's there, and on a square grid every row is the
// reference's row of the transposed grid. No faithful sampling moves a patch's row to another
// patch: a mistake (CheckMistakes::kGridAxesSwapped), the grid and the rows named. The grid is each H x W the rows factor into.
namespace posenc::TableAxesSwapped {

struct Swap
{
    std::int64_t height = 0, width = 0; // the reference's grid: row h·W + w
    bool corners = false; // the coordinates of align_corners=True (k / (n - 1)), else cell centres
    bool widthMajor = false; // the table's rows W x H (meshgrid "xy"), else in the reference's order
    std::int64_t shared = 0; // the table's rows at a point of the reference's, each equal to its row
    std::int64_t firstRow = 0, firstReferenceRow = 0; // one of them
    // Where every row is at a point of the reference's (a square grid): the reference's rows in the
    // table's order, which every row is then streamed against.
    std::shared_ptr<const TableRows> reordered;
    // The grid made with its sizes exchanged: the table lists a W x H grid (row a·H + b at the
    // point (a, b)) where the reference lists H x W (row h·W + w), each point's row the same.
    bool exchanged = false;
};

// The swap `table`'s rows show against `reference` (of the same shape), where at least four of the
// table's rows that the swap puts at another patch's point equal the reference's row of that patch
// and differ from their own, those reference rows not all one, and no such row differs; the grid
// with the most such rows.
std::optional<Swap> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                         const CellTolerance &tolerance);

// A table made as the reference with its grid's two sizes exchanged (OpenPCDet#1587: TransFusion's
// bev_pos built by create_2D_grid(x_size, y_size) where (y_size, x_size) was meant): for the H x W
// the rows factor into (H != W) with the most such rows, every row a·H + b of a point (a, b) the
// reference's grid has too (a, b < min(H, W)) equals the reference's row a·W + b, at least four of
// them differ from the reference's own row there, and those reference rows are not all one. The
// table's other rows are points past the reference's grid: not compared. No faithful computation
// lists a point's row at another point's index: a mistake (grid-axes-swapped).
std::optional<Swap> readExchanged(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                                  const CellTolerance &tolerance);

// The swap in words, for the diagnosis.
QString words(const Swap &swap, std::int64_t rows);

} // namespace posenc::TableAxesSwapped
