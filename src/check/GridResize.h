#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>
#include <QStringList>

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
// instead: the mistake `resized-without-align-corners`. A port that lists the patches row-major
// (the merge permute forgotten) where h and w allow merge blocks of the declared spatial_merge_size
// (`merge`, --spatial-merge-size; undeclared, row-major is a variant and blocks of 2 Qwen3-VL's):
// `merge-blocks-lost`. A grid read
// with x and y exchanged (row y·n + x taken as x·n + y): `grid-axes-swapped`.
// A grid resized by another method to a size is that resize, read as a variant of the declared
// grid with its method named: F.interpolate(..., size=(h, w), mode="bicubic", align_corners=False)
// as transformers' interpolate_pos_encoding does it (models/dinov2/modeling_dinov2.py, the [CLS]
// row kept apart: a grid of 1 + n^2 rows whose first row the table keeps first), timm's resample_abs_pos_embed
// (timm/layers/pos_embed.py: mode="bicubic", antialias=True), mode="nearest", and a bicubic of A = -0.5 without
// antialias (a port's own kernel: mlx-vlm's bicubic_interpolate before mlx-vlm#1241). Where the method is declared
// (--resize-method), a resize by another is the mistake `resize-method`, streamed against the
// declared one, and one by the declared method correct. Not read: SigLIP's older scale_factor
// (h + 0.1) / n form, whose source positions are another scale's.
namespace posenc::GridResize {

inline const QString kWithoutAlignCorners = QStringLiteral("resized-without-align-corners");
inline const QString kMergeBlocksLost = QStringLiteral("merge-blocks-lost");
inline const QString kResizeMethod = QStringLiteral("resize-method");

// How the grid is resampled: bilinear (align_corners or not), bicubic (A = -0.75), bicubic with
// antialias (PIL's A = -0.5, normalised weights), nearest, bicubic of A = -0.5 without antialias.
enum class Method { Bilinear, Bicubic, BicubicAntialias, Nearest, BicubicKeys };

// A resize the reference declares (--resize-method): its method, and for bilinear its corners.
struct DeclaredResize
{
    Method method = Method::Bilinear;
    bool alignCorners = true;
};

// The declared resize of a word of resizeWords(), or nothing.
std::optional<DeclaredResize> resizeOf(const QString &word);
// The words --resize-method takes: bilinear, bilinear-align-corners, bicubic, bicubic-antialias, nearest.
QStringList resizeWords();

// How a table's rows come from the grid.
struct Layout
{
    std::int64_t n = 0; // the grid's side
    std::int64_t t = 1; // frames, each listing the patches again
    std::int64_t h = 1, w = 1; // the patch grid
    std::int64_t merge = 1; // spatial_merge_size of the patches' order (1: row-major)
    bool alignCorners = true;
    bool transposed = false; // the grid's row y·n + x read as x·n + y
    Method method = Method::Bilinear;
    std::int64_t prefix = 0; // rows before the grid's, in the table as in the grid ([CLS]), kept as they are
};

// The match of `table` against the resize of `grid` (n^2 rows, n >= 2, of the table's width) that
// explains its sample: correct for fast_pos_embed_interpolate's (align_corners), the mistake
// resized-without-align-corners for F.interpolate's default, streamed against the correct resize
// either way; row-major rows of an h x w that merge blocks of 2 fit: merge-blocks-lost (of an h or
// w that no merge block fits: a variant, spatial_merge_size 1, which no Qwen3-VL config has); the
// grid read transposed: grid-axes-swapped. A cell is compared within float32's rounding of the sum
// and within where a faithful float32 resize samples the grid: four units of n - 1 in each
// position (torch's linspace differs between versions: 1.13's vectorised kernel against today's
// scalar form), times the grid's largest step between neighbouring rows; a table whose values are
// bfloat16's or float16's within that format's rounding of each weight, product and sum (a model
// in bfloat16 computes the resize in its weight's dtype: weight_tensor = torch.tensor(weight_list,
// dtype=self.pos_embed.weight.dtype)), eight half units of the grid's largest value. Nothing when
// `grid` is no square grid of the table's width, or no resize of it to the table's rows explains
// the table; a message when a row cannot be read or the grid is past `maxGridCells` cells.
std::optional<std::variant<TableMatch, QString>> expect(const TableRows &table, const TableRows &grid,
                                                        std::int64_t maxGridCells = std::int64_t(1) << 26,
                                                        std::optional<std::int64_t> merge = std::nullopt,
                                                        std::optional<DeclaredResize> declared = std::nullopt);

// A table of the grid's own shape that differs from it cell by cell, read as expect reads it but
// never as the grid row for row (n x n patches row-major, one frame: that is the cell-by-cell
// comparison, whose verdict stands): the resize to n x n patches in merge blocks (a 384-pixel
// image at patch 16 of a 24 x 24 grid), or another patch grid of as many rows.
std::optional<TableMatch> expectSameShape(const TableRows &table, const TableRows &grid,
                                          std::optional<std::int64_t> merge = std::nullopt);

} // namespace posenc::GridResize
