#include "TableSample.h"

#include "check/MaskFill.h"
#include "check/OffsetProfile.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace Qt::StringLiterals;

namespace posenc {

std::int64_t TableSample::indexOf(std::int64_t row) const
{
    const auto it = std::lower_bound(rows.begin(), rows.end(), row);
    return it != rows.end() && *it == row ? static_cast<std::int64_t>(it - rows.begin()) : -1;
}

TableSample TableSample::withColumns(const std::vector<std::int64_t> &columns) const
{
    TableSample out = *this;
    const auto count = std::int64_t(columns.size());
    out.values.resize(values.rows(), count);
    for (std::int64_t j = 0; j < count; ++j)
        out.values.col(j) = values.col(columns[std::size_t(j)]);
    if (cellRounding.size() != 0) {
        out.cellRounding.resize(values.rows(), count);
        for (std::int64_t j = 0; j < count; ++j)
            out.cellRounding.col(j) = cellRounding.col(columns[std::size_t(j)]);
    }
    return out;
}

std::vector<std::int64_t> sampleRows(std::int64_t rows, std::int64_t cols, std::int64_t maxCells)
{
    const std::int64_t budget = std::min(
        rows, std::clamp<std::int64_t>(maxCells / std::max<std::int64_t>(cols, 1), 16, TableSample::kMaxRows));
    const std::int64_t leading
        = std::min(budget, std::min(TableSample::kMaxLeadingRows, std::max<std::int64_t>(budget / 2, 8)));
    std::set<std::int64_t> chosen;
    for (std::int64_t r = 0; r < leading; ++r)
        chosen.insert(r);
    // Run starts: the last rows, doubling distances (they unwrap the slow pairs' phases one
    // step at a time), a position just below a power of two where bf16 merges rows, and even steps.
    std::vector<std::int64_t> starts {rows - TableSample::kRunRows};
    for (std::int64_t a = 2 * TableSample::kMaxLeadingRows; a < rows; a *= 2)
        starts.push_back(a - 2);
    if (rows > 8192)
        starts.push_back(8188);
    constexpr int kSteps = 24;
    for (int k = 1; k < kSteps; ++k)
        starts.push_back(rows * k / kSteps);
    for (const std::int64_t start : starts) {
        for (std::int64_t r = std::max<std::int64_t>(start, 0);
             r < std::min(rows, start + TableSample::kRunRows) && std::int64_t(chosen.size()) < budget; ++r)
            chosen.insert(r);
    }
    return {chosen.begin(), chosen.end()};
}

std::optional<TableSample> readSample(const TableRows &table, std::int64_t maxCells, QString &error,
                                      std::optional<std::int64_t> firstQuery)
{
    TableSample sample;
    sample.tableRows = table.rows();
    sample.rows = sampleRows(table.rows(), table.cols(), maxCells);
    sample.values.resize(sample.size(), table.cols());
    while (sample.leadingRows < sample.size() && sample.rows[std::size_t(sample.leadingRows)] == sample.leadingRows)
        ++sample.leadingRows;
    for (std::int64_t i = 0; i < sample.size();) {
        std::int64_t j = i + 1;
        while (j < sample.size() && sample.rows[std::size_t(j)] == sample.rows[std::size_t(j - 1)] + 1)
            ++j;
        if (!table.read(sample.rows[std::size_t(i)], j - i, sample.values.row(i).data(), error))
            return std::nullopt;
        i = j;
    }
    // The cells' own rounding, as the stream allows it (TableStream's extraLimits): the sample is
    // scored with the tolerance every row is then compared with.
    if (table.hasCellRounding()) {
        sample.cellRounding = RowMatrixXf::Zero(sample.size(), table.cols());
        for (std::int64_t i = 0; i < sample.size(); ++i)
            table.addCellRounding(sample.rows[std::size_t(i)], 1, 0, table.cols(), sample.cellRounding.row(i).data());
    }
    // A causal mask hides the keys after each row's query, the last queries of the keys with a cache.
    sample.queryStart = firstQuery.value_or(queryStart(sample.tableRows, sample.cols()));
    const std::int64_t start = sample.queryStart;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        for (std::int64_t c = 0; c < sample.cols(); ++c) {
            const float v = sample.values(i, c);
            if (std::isnan(v)) {
                error = u"row %1, column %2 holds NaN; a table of positions holds numbers"_s
                            .arg(sample.rows[std::size_t(i)])
                            .arg(c);
                return std::nullopt;
            }
            const bool afterQuery = c > sample.rows[std::size_t(i)] + start;
            sample.causalMask = sample.causalMask && (afterQuery ? double(v) <= MaskFill::kBelow : !std::isinf(v));
            if (std::isinf(v) && sample.infiniteRow < 0) {
                sample.infiniteRow = sample.rows[std::size_t(i)];
                sample.infiniteColumn = c;
            }
        }
    }
    return sample;
}

} // namespace posenc
