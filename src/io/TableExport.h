#pragma once

#include "io/AtomicFile.h"
#include "io/ConstBlockRef.h"

#include "core/Engine.h"
#include "core/TableRequest.h"

#include <QIODevice>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace posenc {

// Computes and writes tables: the one path behind `posenc table` and the window's Export data.
namespace TableExport {

// .npy (float32, C order), .csv (a header line naming the columns) or .safetensors (one F32
// tensor).
enum class Format { Npy, Csv, Safetensors };

// .npy, .csv or .safetensors (any case), from the file name's extension.
std::optional<Format> formatOf(const QString &path);

// The error that refuses the request: outside the table, or over the memory budget (cells, GiB).
std::optional<QString> check(const Engine &engine, const TableRequest &request);
// The table, float32, rows x columns; nothing when cancelled. Precondition: check() passed.
std::optional<RowMatrixXf> compute(const Engine &engine, const TableRequest &request,
                                   const ComputeOptions &options = {});
// A cell of a computed table that holds no number: its row and column in the table, and the value.
struct NonFinite
{
    std::int64_t row = 0;
    std::int64_t column = 0;
    float value = 0.0f;
};
// The first cell of `table`, computed for `request` under `params`, that is NaN or infinite where the
// quantity documents no such cell (ALiBi's causal bias is -inf above the diagonal, as the reference's
// mask is; the wavelength of a RoPE frequency of 0 is +inf; a query-key distance the mask hides is
// NaN): a table posenc writes holds numbers.
std::optional<NonFinite> undocumentedNonFinite(const Params &params, const TableRequest &request,
                                               const RowMatrixXf &table);
// The rows of a table of `rows` x `cols` computed between two counts of progress: a few million
// cells, and at most a 256th of the rows (but 1024) where rows are narrow.
std::int64_t progressRunRows(std::int64_t rows, std::int64_t cols);
// The names of the request's columns, for a CSV file's header line: "pe_0", "pe_1", ... for the
// cells of a quantity (its column indices, those of `dims` when given), "pe_mean", ... for the
// statistics.
QStringList columnNames(const TableRequest &request);
// Writes `table` to `device` in `format` (CSV with a header line naming `columns`, safetensors
// as one tensor named `tensor`), each row counted in `progress`; false when the device refused
// it, or when `cancel` was set.
bool writeTo(QIODevice &device, const ConstBlockRef &table, Format format, const QStringList &columns,
             WorkProgress *progress = nullptr, const std::atomic<bool> *cancel = nullptr,
             const QString &tensor = QStringLiteral("table"));
// writeTo's two parts, for a table written in runs of rows (docs/ARCHITECTURE.md, Command line:
// a table over the memory budget): the preamble of a table of rows x columns.size(), then runs of
// its rows, in order.
bool writeHeader(QIODevice &device, Format format, std::int64_t rows, const QStringList &columns,
                 const QString &tensor);
bool writeRows(QIODevice &device, const ConstBlockRef &rows, Format format, const std::atomic<bool> *cancel = nullptr);
// Writes `table` atomically in `format`.
std::optional<WriteError> write(const QString &path, const ConstBlockRef &table, Format format,
                                const QStringList &columns, WorkProgress *progress = nullptr);
// Writes `table` atomically in the format of `path`'s extension (.csv, else .npy).
std::optional<WriteError> write(const QString &path, const ConstBlockRef &table, const QStringList &columns);

} // namespace TableExport

} // namespace posenc
