#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// DETR's 2-D sine map as its module returns it (docs/ARCHITECTURE.md, Checking a table, "Shapes"):
// facebookresearch/detr models/position_encoding.py, PositionEmbeddingSine.forward, a [B, C, H, W]
// map (C = 2 num_pos_feats; [C, H, W] as pos[0]). A padded batch's image (NestedTensor's mask, the
// bottom and the right padded) is the form on its own valid region h x w: past it the cumsum stops
// (the last valid row's y, column's x) and is 0 where the other axis is padded; the region is read
// from the map (Sincos2dDetrMap.cpp, validOf) and said. The row's
// coordinate y and the column's x are mask.cumsum (1 .. n), normalised (normalize=True) to
// y / (H + 1e-6) * scale, scale 2π; Deformable DETR's (fundamentalvision/Deformable-DETR
// models/position_encoding.py) subtracts 0.5 first. dim_t = temperature^(2 (j // 2) / num_pos_feats),
// channel j of each half sin(coordinate / dim_t) for even j and cos for odd (stack of the two and
// flatten: interleaved), the row's half first (cat((pos_y, pos_x))). Every cell is compared with
// the formula in float64 within the error of a computation in the format its values are exact in
// (float32, float16 or bfloat16, whatever the file stores), each channel's own: its coordinate's
// rounding over dim_t. A padded cell too: where the other axis's cumsum is 0 the coordinate is 0,
// or Deformable DETR's (0 - 0.5) / (0 + 1e-6) * 2π, -3141592.75 in float32.
namespace posenc::Sincos2dDetrMap {

// How a coordinate is formed from the cumsum c = 1 .. n along its axis.
enum class Coordinate {
    Count, // c (normalize=False)
    Normalized, // c / (n + 1e-6) * scale (DETR's normalize=True)
    NormalizedHalf, // (c - 0.5) / (n + 1e-6) * scale (Deformable DETR's)
};

// One computation of the map: its coordinates, temperature, halves' order and sin/cos layout.
struct Form
{
    Coordinate coordinate = Coordinate::Normalized;
    double temperature = 10000.0;
    bool rowFirst = true; // cat((pos_y, pos_x))
    bool interleaved = true; // stack((sin, cos)).flatten; else cat((sin, cos)) per half
    friend bool operator==(const Form &, const Form &) = default;
};

// A published form: its word (--map-form), its name and the code it cites.
struct Published
{
    QString word;
    QString name;
    QString source;
    Form form;
};
const std::vector<Published> &published();
// The words --map-form takes, DETR's forms' and LoFTR's (Sincos2dChannelsFirst).
QStringList formWords();
inline const QString kLoftrWord = QStringLiteral("loftr");

// The mistakes a declared form's map names, each the form's parameter that differs.
inline const QString kAxesSwapped = QStringLiteral("map-axes-swapped");
inline const QString kNormalization = QStringLiteral("map-normalization");
inline const QString kTemperature = QStringLiteral("map-temperature");
inline const QString kSinCosSplit = QStringLiteral("map-sin-cos-split");
// The valid regions a form's, the padding past them not what the pixel mask gives it.
inline const QString kPadding = QStringLiteral("map-padding");
inline const QStringList kMistakes {kAxesSwapped, kNormalization, kTemperature, kSinCosSplit, kPadding};

// The map read as DETR's: undeclared, a published form correct and another form of the formula a
// variant naming the nearest; declared (`--expect sincos-2d`), a published form correct unless
// --map-form names another, then the parameters that differ are the mistakes; nothing where the
// shape is not [C, H, W] or [B, C, H, W] (C a multiple of 4, H and W from 2) or, undeclared, no
// form holds most of the cells. A form holding each image's valid region but not its padding is the
// mistake map-padding; a map most of whose cells a form holds, but not all, is unknown, the nearest
// form and the farthest cell said (a mistake where --map-form declares a DETR form).
std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows, const Params *declared,
                                const QString &form = QString());

// A flattened map, [H·W, C] (DETR's pos[0].flatten(1).T), or `images` of them one after the other (a
// [B, H·W, C] batch), row k of each the cell at row k / W, column k mod W of the declared H x W grid,
// read as `read` reads [C, H, W]: the same forms, the same padding, `form` the one --map-form declares.
std::optional<TableMatch> readFlattened(const TableRows &rows, std::int64_t height, std::int64_t width,
                                        const Params *declared, const QString &form = QString(),
                                        std::int64_t images = 1);

// The map's dimensions [B, C, H, W] (B 1 for [C, H, W], dimensions of 1 before them aside), or
// nothing where the shape is no such map's.
std::optional<std::vector<std::int64_t>> mapDims(const std::vector<std::int64_t> &shape, const TableRows &rows);

// Channel `channel`'s values along its axis of `n` cells, of a map of `channels` channels.
void channelValues(const Form &form, std::int64_t channel, std::int64_t channels, std::int64_t n,
                   std::vector<double> &out);
// Whether channel `channel` of the form varies along the rows (y) rather than the columns.
bool alongRows(const Form &form, std::int64_t channel, std::int64_t channels);

} // namespace posenc::Sincos2dDetrMap
