#include "BatchTables.h"

#include <cmath>

namespace posenc::BatchTables {

BatchTable fromMatrix(const RowMatrixXf &values, bool zeroOrOne, const QString &source)
{
    BatchTable table;
    table.rows = values.rows();
    table.cols = values.cols();
    table.source = source;
    table.rowFirstRun.push_back(0);
    for (std::int64_t b = 0; b < table.rows; ++b) {
        for (std::int64_t c = 0; c < table.cols; ++c) {
            const double v = values(b, c);
            const bool fits = zeroOrOne ? (v == 0.0 || v == 1.0) : (std::isfinite(v) && v == std::floor(v));
            if (!fits && !table.badCell) {
                table.badCell = std::pair {b, c};
                table.badValue = v;
            }
            const auto value = fits ? static_cast<std::int64_t>(v) : 0;
            const std::size_t first = std::size_t(table.rowFirstRun.back());
            if (c > 0 && table.runs.size() > first && table.runs.back().value == value)
                ++table.runs.back().length;
            else
                table.runs.push_back({c, 1, value});
        }
        table.rowFirstRun.push_back(std::int64_t(table.runs.size()));
    }
    return table;
}

} // namespace posenc::BatchTables
