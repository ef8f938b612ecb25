#pragma once

#include "core/Block.h"
#include "io/ByteSource.h"
#include "io/ElementType.h"
#include "io/ReadError.h"
#include "io/TensorInfo.h"

#include <cstdint>
#include <optional>

namespace posenc {

// Where the elements of a 2-D array lie in a source; checked against the source's size by the
// format's reader before it is used.
struct ArrayLayout
{
    qint64 dataOffset = 0;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    ElementType element;
    bool fortranOrder = false; // column-major, as numpy writes arrays with fortran_order True
};

// A 2-D array of a file, checked against the file, as a tensor picker shows it and as it is read.
struct MatrixInFile
{
    TensorInfo info;
    ArrayLayout layout;
};

// Why `selection` cannot be taken from a matrix of `rows` rows, or nothing when it can.
std::optional<QString> checkSelection(const RowSelection &selection, std::int64_t rows);

// Reads the selected rows as float32, in bounded chunks: besides the returned matrix, memory
// stays within a fixed buffer of at most a few MiB, and only the bytes of the selected rows are
// read (in Fortran order, the span of each column from the first to the last selected row).
ReadResult<RowMatrixXf> readArrayRows(ByteSource &source, const ArrayLayout &layout, const RowSelection &selection);

} // namespace posenc
