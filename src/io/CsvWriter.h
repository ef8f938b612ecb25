#pragma once

#include "io/AtomicFile.h"
#include "io/ConstBlockRef.h"

#include <QString>

#include <optional>

namespace posenc {

// Writes `table` as CSV, atomically and in bounded chunks: one line per row ending in '\n',
// values separated by ',', no header. Each value is the shortest text that reads back to the
// same float32; non-finite values are written 'nan', 'inf' and '-inf'.
std::optional<WriteError> writeCsv(const QString &path, const ConstBlockRef &table);

} // namespace posenc
