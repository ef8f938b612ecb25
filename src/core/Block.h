#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace posenc {

// Every table is float32, row-major: row = position (or token), column = model dimension.
using RowMatrixXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// A caller-owned destination: a whole matrix, a block of one, or a Map over foreign memory.
using BlockRef = Eigen::Ref<RowMatrixXf, 0, Eigen::OuterStride<>>;

// A rectangle of a table: rows [row0, row0 + rows) and columns [col0, col0 + cols).
struct Block
{
    std::int64_t row0 = 0;
    std::int64_t rows = 0;
    std::int64_t col0 = 0;
    std::int64_t cols = 0;

    std::int64_t rowEnd() const { return row0 + rows; }
    std::int64_t colEnd() const { return col0 + cols; }
    std::int64_t cells() const { return rows * cols; }
    bool isEmpty() const { return rows <= 0 || cols <= 0; }
    friend bool operator==(const Block &, const Block &) = default;
};

} // namespace posenc
