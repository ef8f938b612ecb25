#pragma once

#include "check/TableRows.h"
#include "io/ElementType.h"
#include "io/ReadError.h"

#include <QString>

#include <cstdint>
#include <memory>
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

// The array's rows as a table (two dimensions, or more of which all but two are 1, as a file's),
// named `name` in messages; `owner` keeps the memory alive for as long as the rows are read. A
// shape that is no table is refused (ReadError::Kind::Choice), naming it.
ReadResult<std::shared_ptr<const TableRows>> open(const ArrayView &view, const QString &name,
                                                  std::shared_ptr<const void> owner);

} // namespace posenc::BufferRows
