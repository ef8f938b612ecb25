#pragma once

#include "io/AtomicFile.h"
#include "io/ConstBlockRef.h"

#include "core/WorkProgress.h"

#include <QIODevice>
#include <QString>
#include <QStringList>

#include <atomic>
#include <optional>

namespace posenc {

// Writes `table` as CSV, atomically and in bounded chunks: a header line of the column names
// joined by ',' (pandas' read_csv names the columns by it; numpy's loadtxt reads the rows with
// skiprows=1, CsvReader skips it), then one line per row ending in
// '\n', values separated by ','. Each value is the shortest text that reads back to the same
// float32; non-finite values are written 'nan', 'inf' and '-inf'. Precondition: one name per
// column, none holding ',' or a line break.
std::optional<WriteError> writeCsv(const QString &path, const ConstBlockRef &table, const QStringList &columns);
// The same text to `device`, each row counted in `progress`; false when the device refused it, or
// when `cancel` was set (it is polled between chunks).
bool writeCsvTo(QIODevice &device, const ConstBlockRef &table, const QStringList &columns,
                WorkProgress *progress = nullptr, const std::atomic<bool> *cancel = nullptr);
// Its two parts, for a table written in runs of rows: the header line, then rows.
bool writeCsvHeader(QIODevice &device, const QStringList &columns);
bool writeCsvRows(QIODevice &device, const ConstBlockRef &table, WorkProgress *progress = nullptr,
                  const std::atomic<bool> *cancel = nullptr);

} // namespace posenc
