#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <variant>

// A learned n x n grid of position embeddings resized to a patch grid, as Qwen3-VL's vision model
// does it (docs/ARCHITECTURE.md, Checking a table): huggingface/transformers,
// models/qwen3_vl/modeling_qwen3_vl.py, Qwen3VLVisionModel.fast_pos_embed_interpolate, bilinear
// between the four nearest grid rows at h_idxs = torch.linspace(0, n - 1, h) (align_corners=True:
// the grid's corners on the patches' corners), in float32, each image's patches then listed t times
// in merge blocks (view(t, h/m, m, w/m, m).permute(0, 1, 3, 2, 4)). A port that resizes with
// F.interpolate(..., mode="bilinear", align_corners=False) samples at (i + 0.5) n / h - 0.5
// instead: the mistake `resized-without-align-corners`.
namespace posenc::GridResize {

inline const QString kWithoutAlignCorners = QStringLiteral("resized-without-align-corners");

// How a table's rows come from the grid.
struct Layout
{
    std::int64_t n = 0; // the grid's side
    std::int64_t t = 1; // frames, each listing the patches again
    std::int64_t h = 1, w = 1; // the patch grid
    std::int64_t merge = 1; // spatial_merge_size of the patches' order (1: row-major)
    bool alignCorners = true;
};

// The match of `table` against the resize of `grid` (n^2 rows, n >= 2, of the table's width) that
// explains its sample: correct for fast_pos_embed_interpolate's (align_corners), the mistake
// resized-without-align-corners for F.interpolate's default, streamed against the correct resize
// either way. A cell is compared within float32's rounding of the sum and within where a
// faithful float32 resize samples the grid: four units of n - 1 in each position (torch's linspace
// differs between versions: 1.13's vectorised kernel against today's scalar form), times the
// grid's largest step between neighbouring rows. Nothing when `grid` is no square grid of the
// table's width, or no resize of it to the table's rows explains the table; a message when a row
// cannot be read or the grid is past `maxGridCells` cells.
std::optional<std::variant<TableMatch, QString>> expect(const TableRows &table, const TableRows &grid,
                                                        std::int64_t maxGridCells = std::int64_t(1) << 26);

} // namespace posenc::GridResize
