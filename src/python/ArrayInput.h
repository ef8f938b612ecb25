#pragma once

#include "io/ReadError.h"

#include <QString>

#include <pybind11/pybind11.h>

#include <memory>

namespace posenc {

class TableRows;

// A numpy array or a DLPack tensor (torch's on the CPU, bfloat16 included) as the rows `posenc
// check` reads, where the memory lies: strides as they are, each row converted to float32 as the
// check reaches it (docs/ARCHITECTURE.md, Python). The rows keep the object alive. Called with the
// GIL held; the rows are read without it.
namespace ArrayInput {

// The rows of `object`, named `name` in messages; a dtype, a device or a shape that is no table
// of numbers is refused (ReadError::Kind::Choice), naming it.
ReadResult<std::shared_ptr<const TableRows>> rows(pybind11::handle object, const QString &name);

} // namespace ArrayInput

} // namespace posenc
