// TableCheck's error blocks: |table - reference| over any block, for the window's heatmap
// (docs/ARCHITECTURE.md, Checking a table: For the window).
#include "TableCheck.h"

#include "check/TableReference.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

std::variant<ErrorBlock, QString> errorBlock(const TableMatch &match, const TableRows &table, const Block &block,
                                             const std::atomic<bool> *cancel)
{
    if (block.row0 < 0 || block.col0 < 0 || block.rowEnd() > table.rows() || block.colEnd() > table.cols())
        return u"rows %1..%2, columns %3..%4 are outside the table (%5 x %6)"_s.arg(block.row0)
            .arg(block.rowEnd() - 1)
            .arg(block.col0)
            .arg(block.colEnd() - 1)
            .arg(table.rows())
            .arg(table.cols());
    if (!match.reference)
        return u"this table has no reference to compare with"_s;
    ErrorBlock out;
    out.block = block;
    out.error.setZero(block.rows, block.cols);
    out.columnMax.assign(std::size_t(block.cols), 0.0f);
    const TableReference &reference = *match.reference;
    constexpr std::int64_t kRows = 256;
    std::vector<float> rows;
    for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += kRows) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return u"cancelled"_s;
        const std::int64_t count = std::min(kRows, block.rowEnd() - r0);
        rows.resize(std::size_t(count * table.cols()));
        QString error;
        if (!table.read(r0, count, rows.data(), error))
            return error;
        reference.forEachTile({r0, count, block.col0, block.cols}, [&](const TableReference::Tile &t) {
            for (std::int64_t r = 0; r < t.rows; ++r) {
                const float *cells = rows.data() + (t.row0 - r0 + r) * table.cols() + t.col0;
                const float *ref = t.values + r * t.stride;
                for (std::int64_t c = 0; c < t.cols; ++c) {
                    const float e = cells[c] == ref[c] ? 0.0f : std::fabs(cells[c] - ref[c]);
                    const std::int64_t column = t.col0 + c - block.col0;
                    out.error(t.row0 + r - block.row0, column) = e;
                    out.columnMax[std::size_t(column)] = std::max(out.columnMax[std::size_t(column)], e);
                }
            }
        });
    }
    return out;
}

QFuture<std::variant<ErrorBlock, QString>> errorBlockAsync(std::shared_ptr<const TableRows> table, TableMatch match,
                                                           Block block, std::shared_ptr<std::atomic<bool>> cancel)
{
    return QtConcurrent::run([table = std::move(table), match = std::move(match), block, cancel = std::move(cancel)] {
        return errorBlock(match, *table, block, cancel.get());
    });
}

} // namespace posenc::TableCheck
