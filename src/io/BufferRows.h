#pragma once

#include "check/TableRows.h"
#include "io/ElementType.h"
#include "io/ReadError.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// An array in memory that `posenc check` reads where it lies, as it reads a file's rows
// (docs/ARCHITECTURE.md, Python): a numpy array or a tensor given to the Python module, of any
// strides (a transposed or sliced view), its elements converted to float32 a row at a time as the
// check reaches them. Nothing is copied but the rows in flight.
namespace posenc::BufferRows {

// Where the elements lie: the first one at `data`, element (i0, i1, ...) at data + sum(ik *
// strides[k]) bytes; strides may be negative or 0.
struct ArrayView
{
    const char *data = nullptr;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;
    ElementType element;
    StoredType stored = StoredType::Float32;
};

// The array's rows, named `name` in messages; `owner` keeps the memory alive for as long as the
// rows are read. A table (two dimensions, or more of which all but two are 1, as a file's) is its
// rows; any other array is read as a file's is by TableFile::openTensor, rows of its last dimension
// (a vector one row, [B, H, L, L] B·H·L rows of L), its shape kept (arrayShape), where its leading
// dimensions lie as one run of rows; one whose do not is refused (ReadError::Kind::Choice), naming it.
ReadResult<std::shared_ptr<const TableRows>> open(const ArrayView &view, const QString &name,
                                                  std::shared_ptr<const void> owner);

// A shape as numpy writes it: (3,), (2, 4).
QString shapeText(const std::vector<std::int64_t> &shape);

// The shape of the array `rows` were opened from, where it is no table (open); nothing for a table
// or rows of another kind. TableFile::openTensor reads it, TableFile::open refuses such rows.
std::optional<std::vector<std::int64_t>> arrayShape(const TableRows &rows);

} // namespace posenc::BufferRows
