#include "TableExport.h"

#include "io/CsvWriter.h"
#include "io/NpyWriter.h"
#include "io/SafetensorsWriter.h"

#include "core/ColumnStatistics.h"
#include "core/MemoryBudget.h"
#include "core/Statistics.h"
#include "core/TableAllocation.h"
#include "core/positions/DocumentDistance.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::TableExport {

namespace {

// Per position: the float32 outputs and the five double norms Statistics keeps.
constexpr std::uint64_t kNormCellsPerRow = 3 + 5 * 2;
constexpr std::uint64_t kRowNormCellsPerRow = 5 + 5 * 2;
// Per column: six float32 outputs and the six double statistics.
constexpr std::uint64_t kStatCellsPerColumn = 6 + 6 * 2;
// Cells of a table computed between two counts of progress: enough to keep every core busy.
constexpr std::int64_t kProgressRunCells = std::int64_t(1) << 24;
// Counts of progress over a narrow table at least, in runs of this many rows at least: a narrow
// table's rows may be dear (rope-score averages 256 pairs a row), and one run of them all left the
// progress line at 0 % until the end.
constexpr std::int64_t kProgressRuns = 256;
constexpr std::int64_t kMinRunRows = 1024;

} // namespace

std::int64_t progressRunRows(std::int64_t rows, std::int64_t cols)
{
    const std::int64_t byCells = kProgressRunCells / std::max<std::int64_t>(cols, 1);
    const std::int64_t byCount = std::max(kMinRunRows, (rows + kProgressRuns - 1) / kProgressRuns);
    return std::max<std::int64_t>(1, std::min(byCells, byCount));
}

std::optional<Format> formatOf(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"npy"_s)
        return Format::Npy;
    if (suffix == u"csv"_s)
        return Format::Csv;
    if (suffix == u"safetensors"_s)
        return Format::Safetensors;
    return std::nullopt;
}

std::optional<QString> check(const Engine &engine, const TableRequest &request)
{
    const Block &block = request.block;
    if (request.content == TableRequest::Cells) {
        for (const std::int64_t c : request.dims) {
            if (c < block.col0 || c >= block.colEnd())
                return u"column %1 is outside the block's columns [%2, %3)"_s.arg(c)
                    .arg(block.col0)
                    .arg(block.colEnd());
        }
        if (const auto refused = engine.check(request.quantity, block); refused || request.dims.empty())
            return refused;
        // The columns listed are copied out of the block: a list that repeats columns makes the
        // table larger than the block.
        const auto listed = static_cast<std::uint64_t>(request.dims.size());
        const std::uint64_t cells
            = static_cast<std::uint64_t>(block.rows) * (static_cast<std::uint64_t>(block.cols) + listed);
        return MemoryBudget::check(cells, engine.params().memoryBudget,
                                   u"%1 columns of %2 rows of %3 (and the %4 columns they are taken from)"_s.arg(listed)
                                       .arg(block.rows)
                                       .arg(Quantities::name(request.quantity))
                                       .arg(block.cols));
    }
    if (request.content == TableRequest::ColumnStats) {
        const std::int64_t d = engine.params().dModel;
        for (const std::int64_t c : request.dims) {
            if (c < 0 || c >= d)
                return u"column %1 is outside the model's columns [0, %2)"_s.arg(c).arg(d);
        }
        if (const auto refused = ColumnStatistics::check(engine))
            return refused;
        return MemoryBudget::check(static_cast<std::uint64_t>(d) * kStatCellsPerColumn, engine.params().memoryBudget,
                                   u"the statistics of %1 columns"_s.arg(d));
    }
    const std::int64_t rows = engine.params().maxLen;
    if (block.row0 < 0 || block.rows <= 0 || block.rowEnd() > rows)
        return u"positions [%1, %2) are outside [0, %3)"_s.arg(block.row0).arg(block.rowEnd()).arg(rows);
    const std::uint64_t perRow = request.content == TableRequest::RowNorms ? kRowNormCellsPerRow : kNormCellsPerRow;
    return MemoryBudget::check(static_cast<std::uint64_t>(block.rows) * perRow, engine.params().memoryBudget,
                               u"the norms of %1 positions"_s.arg(block.rows));
}

std::optional<RowMatrixXf> compute(const Engine &engine, const TableRequest &request, const ComputeOptions &options)
{
    const Block &block = request.block;
    if (request.content == TableRequest::PositionNorms || request.content == TableRequest::RowNorms) {
        const auto norms = Statistics::positionNorms(engine, block.row0, block.rows, options);
        if (!norms)
            return std::nullopt;
        const bool all = request.content == TableRequest::RowNorms;
        RowMatrixXf table(block.rows, all ? 5 : 3);
        table.col(0) = norms->pe.cast<float>().matrix();
        table.col(1) = norms->embedding.cast<float>().matrix();
        table.col(2) = norms->ratio.cast<float>().matrix();
        if (all) {
            table.col(3) = norms->input.cast<float>().matrix();
            table.col(4) = norms->output.cast<float>().matrix();
        }
        return table;
    }
    if (request.content == TableRequest::ColumnStats) {
        const auto stats = ColumnStatistics::compute(engine, options);
        if (!stats)
            return std::nullopt;
        std::vector<std::int64_t> columns = request.dims;
        if (columns.empty())
            for (std::int64_t j = 0; j < engine.params().dModel; ++j)
                columns.push_back(j);
        RowMatrixXf table(static_cast<Eigen::Index>(columns.size()), 6);
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const auto j = static_cast<Eigen::Index>(columns[i]);
            const auto r = static_cast<Eigen::Index>(i);
            table.row(r) << static_cast<float>(stats->peMean[j]), static_cast<float>(stats->peStd[j]),
                static_cast<float>(stats->peRms[j]), static_cast<float>(stats->embeddingMean[j]),
                static_cast<float>(stats->embeddingStd[j]), static_cast<float>(stats->embeddingRms[j]);
        }
        return table;
    }
    RowMatrixXf table = allocateTable(block.rows, block.cols);
    if (options.progress) {
        // In runs of rows, so that the rows done can be counted: each run is the same cells of
        // the whole table (docs/ARCHITECTURE.md, Layers).
        const std::int64_t runRows = progressRunRows(block.rows, block.cols);
        options.progress->expect(block.rows);
        for (std::int64_t r = 0; r < block.rows; r += runRows) {
            const std::int64_t rows = std::min(runRows, block.rows - r);
            if (!engine.compute(request.quantity, {block.row0 + r, rows, block.col0, block.cols},
                                table.middleRows(r, rows), options))
                return std::nullopt;
            options.progress->advance(rows);
        }
    } else if (!engine.compute(request.quantity, block, table, options)) {
        return std::nullopt;
    }
    if (request.dims.empty())
        return table;
    RowMatrixXf selected(block.rows, static_cast<Eigen::Index>(request.dims.size()));
    for (std::size_t i = 0; i < request.dims.size(); ++i)
        selected.col(static_cast<Eigen::Index>(i)) = table.col(request.dims[i] - block.col0);
    return selected;
}

namespace {

// Whether `value` at (row, col) of the whole table of `request`'s quantity is a documented infinity or
// NaN; `batch` is the batch's layout for the query-key distances.
bool documentedNonFinite(const Params &params, const TableRequest &request, std::int64_t row, std::int64_t col,
                         float value, const BatchLayout *batch)
{
    if (request.content != TableRequest::Cells)
        return false;
    constexpr float kInf = std::numeric_limits<float>::infinity();
    if (request.quantity == Quantity::AlibiBias)
        return value == -kInf && params.alibi.mask == AlibiMask::Causal && col > row;
    if (request.quantity == Quantity::RopeFrequencies)
        return value == kInf && (col == 2 || col == 3); // the wavelengths 2 pi / theta of a theta of 0
    if (request.quantity == Quantity::DocumentDistance && batch) // a pair the mask hides, row b·L + q
        return std::isnan(value)
            && !DocumentDistance::attended(*batch, params.batch.ids, row / params.maxLen, row % params.maxLen, col);
    return false;
}

} // namespace

std::optional<NonFinite> undocumentedNonFinite(const Params &params, const TableRequest &request,
                                               const RowMatrixXf &table)
{
    if (table.allFinite())
        return std::nullopt;
    const bool cells = request.content == TableRequest::Cells;
    std::optional<BatchLayout> batch;
    if (cells && request.quantity == Quantity::DocumentDistance)
        batch.emplace(params);
    for (Eigen::Index r = 0; r < table.rows(); ++r) {
        for (Eigen::Index c = 0; c < table.cols(); ++c) {
            const float v = table(r, c);
            if (std::isfinite(v))
                continue;
            const std::int64_t row = request.block.row0 + r;
            const std::int64_t col = !cells ? c
                : request.dims.empty()      ? request.block.col0 + c
                                            : request.dims[std::size_t(c)];
            if (!documentedNonFinite(params, request, row, col, v, batch ? &*batch : nullptr))
                return NonFinite {r, c, v};
        }
    }
    return std::nullopt;
}

QStringList columnNames(const TableRequest &request)
{
    switch (request.content) {
    case TableRequest::PositionNorms:
        return {u"pe_norm"_s, u"embedding_norm"_s, u"embedding_over_pe"_s};
    case TableRequest::RowNorms:
        return {u"pe_norm"_s, u"embedding_norm"_s, u"embedding_over_pe"_s, u"input_norm"_s, u"output_norm"_s};
    case TableRequest::ColumnStats:
        return {u"pe_mean"_s, u"pe_std"_s, u"pe_rms"_s, u"embedding_mean"_s, u"embedding_std"_s, u"embedding_rms"_s};
    case TableRequest::Cells:
        break;
    }
    const QStringList &fixed = Quantities::spec(request.quantity).columnNames;
    const QString prefix = Quantities::name(request.quantity) + u'_';
    const auto columnName = [&](std::int64_t c) {
        return c < fixed.size() ? fixed[static_cast<qsizetype>(c)] : prefix + QString::number(c);
    };
    QStringList names;
    if (!request.dims.empty()) {
        for (const std::int64_t c : request.dims)
            names.append(columnName(c));
        return names;
    }
    for (std::int64_t c = request.block.col0; c < request.block.colEnd(); ++c)
        names.append(columnName(c));
    return names;
}

bool writeTo(QIODevice &device, const ConstBlockRef &table, Format format, const QStringList &columns,
             WorkProgress *progress, const std::atomic<bool> *cancel, const QString &tensor)
{
    switch (format) {
    case Format::Npy:
        return writeNpyTo(device, table, progress, cancel);
    case Format::Csv:
        return writeCsvTo(device, table, columns, progress, cancel);
    case Format::Safetensors:
        return writeSafetensorsTo(device, table, tensor, progress, cancel);
    }
    return false;
}

bool writeHeader(QIODevice &device, Format format, std::int64_t rows, const QStringList &columns, const QString &tensor)
{
    const auto cols = std::int64_t(columns.size());
    switch (format) {
    case Format::Npy: {
        const QByteArray header = npyHeader(rows, cols);
        return device.write(header) == header.size();
    }
    case Format::Csv:
        return writeCsvHeader(device, columns);
    case Format::Safetensors: {
        const QByteArray header = safetensorsHeader(tensor, rows, cols);
        return device.write(header) == header.size();
    }
    }
    return false;
}

bool writeRows(QIODevice &device, const ConstBlockRef &rows, Format format, const std::atomic<bool> *cancel)
{
    return format == Format::Csv ? writeCsvRows(device, rows, nullptr, cancel)
                                 : writeLittleEndianRows(device, rows, nullptr, cancel);
}

std::optional<WriteError> write(const QString &path, const ConstBlockRef &table, Format format,
                                const QStringList &columns, WorkProgress *progress)
{
    return writeAtomically(path, [&](QIODevice &device) { return writeTo(device, table, format, columns, progress); });
}

std::optional<WriteError> write(const QString &path, const ConstBlockRef &table, const QStringList &columns)
{
    return write(path, table, formatOf(path).value_or(Format::Npy), columns);
}

} // namespace posenc::TableExport
