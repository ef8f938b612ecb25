#pragma once

#include "io/ElementType.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

// The most dimensions a shape may have in either format: numpy's own limit (NPY_MAXDIMS).
constexpr int kMaxRank = 64;

// One array a file holds, as a tensor picker lists it.
struct TensorInfo
{
    QString name; // the safetensors name; empty for the single array of a .npy file
    QString dtype; // as the file spells it: "<f4", "F32", "BF16", ...
    std::vector<std::int64_t> shape;
    // How the elements convert to float32; unset when this reader cannot load the dtype.
    std::optional<ElementType> element;
    // Whether the file's elements are complex, read as their real and imaginary parts: the last
    // dimension of `shape`, of 2, is theirs (NpyReader).
    bool complex = false;

    bool isMatrix() const { return shape.size() == 2; }
    // "(3, 4)" for .npy files, "[3, 4]" for safetensors: how each format writes shapes, a complex
    // array's as the file has it (without the last dimension of 2 it is read with). Only the
    // first kShownDims dimensions are written, then "… (N dims)", so that a message stays a line.
    QString shapeText(bool tuple) const;
    static constexpr std::size_t kShownDims = 8;
};

// Which rows of a matrix to load, and in which order.
struct RowSelection
{
    enum class Mode { All, First, Listed };

    static RowSelection all() { return {Mode::All, 0, {}}; }
    static RowSelection first(std::int64_t count) { return {Mode::First, count, {}}; }
    static RowSelection listed(std::vector<std::int64_t> rows) { return {Mode::Listed, 0, std::move(rows)}; }

    Mode mode = Mode::All;
    std::int64_t count = 0; // Mode::First
    std::vector<std::int64_t> rows; // Mode::Listed; a row may appear more than once

    // The number of rows loaded from a matrix of `matrixRows` rows.
    std::int64_t rowCount(std::int64_t matrixRows) const;
};

} // namespace posenc
