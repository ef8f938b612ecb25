#pragma once

// The parts of DETR's map reading (Sincos2dDetrMap.h): the forms' coordinates, channels and words
// (Sincos2dDetrForms.cpp), and the map's cells read an image at a time within a fixed block, each
// cell's tolerance that of the format the map was computed in (Sincos2dDetrImages.cpp).
#include "check/CellTolerance.h"
#include "check/sincos2d/Sincos2dDetrMap.h"

#include <QList>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace posenc::Sincos2dDetrMap::parts {

// The coordinate of index i of n along an axis: the cumsum i + 1, normalised by n + 1e-6 as float32
// holds it (the cumsum's dtype).
double coordinateAt(Coordinate c, std::int64_t i, std::int64_t n);
// The coordinate where the cumsum is 0 (a cell past the other axis's valid region), as a computation
// in `computed` gives it: 0 but for Deformable DETR's (0 - 0.5) / (0 + 1e-6) * 2π, -3141592.75 in
// float32 (and bfloat16, whose range is float32's), -inf in float16, whose largest is 65504: the
// sin and cos of it NaN, the faithful output's in those cells.
double paddedCoordinate(Coordinate c, ValueFormat computed);
QString coordinateWords(Coordinate c);
QString formWords(const Form &f);
// The parameters in which `read` differs from `declared`: each mistake with both values.
QList<std::pair<QString, QString>> differences(const Form &read, const Form &declared);
// The published form nearest `f`: the fewest parameters differing, the list's order after.
const Published &nearest(const Form &f);
const Published *publishedAs(const Form &f);
const Published *byWord(const QString &word);

// Channel `channel`'s wave: dim_t = temperature^exponent, sin or cos.
struct Wave
{
    double exponent = 0.0, dimT = 1.0;
    bool isSin = true;
};
Wave waveOf(const Form &form, std::int64_t channel, std::int64_t channels);

// How far a faithful computation's cell may be from the float64 formula, on a channel whose
// coordinate reaches `largest` in magnitude: the map computed in `computed` (the narrowest format
// its values are exact in: a map computed in bfloat16 and stored as float32 is bfloat16's), its
// coordinate rounded to it (two units of the coordinate's own place) and the angle's steps (the
// division, dim_t's power with its exponent's rounding magnified by ln temperature), then the value's
// rounding to that format and to the stored one.
double cellTolerance(const Form &form, std::int64_t channel, std::int64_t channels, double largest,
                     ValueFormat computed, StoredType stored);

// An image's valid region, rows 0 .. height - 1 and columns 0 .. width - 1 of the map: the mask's
// not-masked cells, DETR's NestedTensor padding the bottom and the right.
struct Valid
{
    std::int64_t height = 0, width = 0;
    friend bool operator==(const Valid &, const Valid &) = default;
};

// The map's cells an image at a time in the file's order, a fixed block of rows held at once: from
// a channel-first map (B·C·H rows of W) or a flattened one (B·H·W rows of C: [B, C, H, W].flatten(2)
// .permute(0, 2, 1), row-major over H then W). The first pass keeps each image's edges (row 0 and
// column 0 of every channel) and the narrowest format of all its values.
class Images
{
public:
    Images(const TableRows &rows, const std::vector<std::int64_t> &dims, bool flattened);
    const std::vector<std::int64_t> &dims() const { return m_dims; }
    const TableRows &rows() const { return m_rows; }
    // Reads every image's edges and format; false where the file cannot be read.
    bool scan();
    ValueFormat computed() const { return m_format; }
    bool hasNaN() const { return m_nan; }
    // Image b's cell (row y, column x) of channel c on its edges (y or x 0).
    float edge(std::int64_t b, std::int64_t c, std::int64_t y, std::int64_t x) const;
    // Image b's valid region under the halves' order `rowFirst` (see Sincos2dDetrImages.cpp).
    Valid validOf(std::int64_t b, bool rowFirst) const;
    // The same with each padded axis one shorter: the first cell of the constant tail taken for
    // padding, which a padding the mask does not give (zeros, a constant) starts with.
    Valid shrunk(std::int64_t b, bool rowFirst) const;
    // Calls f(c, y, x, value) for every cell of image b; false where the file cannot be read.
    template <class F>
    bool visit(std::int64_t b, F &&f) const
    {
        const std::int64_t channels = m_dims[1], height = m_dims[2], width = m_dims[3], cols = m_rows.cols();
        const std::int64_t count = m_flattened ? height * width : channels * height;
        const std::int64_t first = b * count, block = std::clamp<std::int64_t>(kBlockCells / cols, 1, count);
        std::vector<float> cells(std::size_t(block * cols));
        QString error;
        for (std::int64_t r0 = 0; r0 < count; r0 += block) {
            const std::int64_t n = std::min(block, count - r0);
            if (!m_rows.read(first + r0, n, cells.data(), error))
                return false;
            for (std::int64_t r = 0; r < n; ++r) {
                const float *row = cells.data() + r * cols;
                const std::int64_t at = r0 + r;
                for (std::int64_t i = 0; i < cols; ++i) {
                    if (m_flattened)
                        f(i, at / width, at % width, row[i]);
                    else
                        f(at / height, at % height, i, row[i]);
                }
            }
        }
        return true;
    }

private:
    static constexpr std::int64_t kBlockCells = 1 << 16;
    const TableRows &m_rows;
    std::vector<std::int64_t> m_dims;
    bool m_flattened;
    ValueFormat m_format = ValueFormat::BFloat16;
    bool m_nan = false;
    // Per image, channel by channel: column 0's H cells then row 0's W cells.
    std::vector<float> m_edges;
};

} // namespace posenc::Sincos2dDetrMap::parts
