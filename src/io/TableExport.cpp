#include "TableExport.h"

#include "io/CsvWriter.h"
#include "io/NpyWriter.h"

#include "core/MemoryBudget.h"
#include "core/Statistics.h"
#include "core/TableAllocation.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::TableExport {

namespace {

// Per position: three float32 outputs and the five double norms Statistics keeps.
constexpr std::uint64_t kNormCellsPerRow = 3 + 5 * 2;

} // namespace

std::optional<Format> formatOf(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"npy"_s)
        return Format::Npy;
    if (suffix == u"csv"_s)
        return Format::Csv;
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
        return engine.check(request.quantity, block);
    }
    const std::int64_t rows = engine.params().maxLen;
    if (block.row0 < 0 || block.rows <= 0 || block.rowEnd() > rows)
        return u"positions [%1, %2) are outside [0, %3)"_s.arg(block.row0).arg(block.rowEnd()).arg(rows);
    return MemoryBudget::check(static_cast<std::uint64_t>(block.rows) * kNormCellsPerRow, engine.params().memoryBudget,
                               u"the norms of %1 positions"_s.arg(block.rows));
}

std::optional<RowMatrixXf> compute(const Engine &engine, const TableRequest &request, const ComputeOptions &options)
{
    const Block &block = request.block;
    if (request.content == TableRequest::PositionNorms) {
        const auto norms = Statistics::positionNorms(engine, block.row0, block.rows, options);
        if (!norms)
            return std::nullopt;
        RowMatrixXf table(block.rows, 3);
        table.col(0) = norms->pe.cast<float>().matrix();
        table.col(1) = norms->embedding.cast<float>().matrix();
        table.col(2) = norms->ratio.cast<float>().matrix();
        return table;
    }
    RowMatrixXf table = allocateTable(block.rows, block.cols);
    if (!engine.compute(request.quantity, block, table, options))
        return std::nullopt;
    if (request.dims.empty())
        return table;
    RowMatrixXf selected(block.rows, static_cast<Eigen::Index>(request.dims.size()));
    for (std::size_t i = 0; i < request.dims.size(); ++i)
        selected.col(static_cast<Eigen::Index>(i)) = table.col(request.dims[i] - block.col0);
    return selected;
}

std::optional<WriteError> write(const QString &path, const ConstBlockRef &table)
{
    return formatOf(path) == Format::Csv ? writeCsv(path, table) : writeNpy(path, table);
}

} // namespace posenc::TableExport
