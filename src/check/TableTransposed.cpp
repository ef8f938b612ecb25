#include "TableTransposed.h"

#include <cmath>
#include <map>
#include <vector>

namespace posenc::TableTransposed {

namespace {

// The reference held whole, read by its columns: row r is the reference's column r.
class ColumnsAsRows final : public DerivedRows
{
public:
    ColumnsAsRows(std::shared_ptr<const TableRows> rows, std::vector<float> cells)
        : DerivedRows(std::move(rows))
        , m_cells(std::move(cells))
    { }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &) const override
    {
        const std::int64_t n = m_rows->cols();
        for (std::int64_t r = 0; r < count; ++r) {
            for (std::int64_t c = 0; c < n; ++c)
                out[r * n + c] = m_cells[std::size_t(c * n + row0 + r)];
        }
        return true;
    }

private:
    std::vector<float> m_cells;
};

bool same(double got, double want, const CellTolerance &tolerance, std::int64_t column)
{
    return got == want || std::fabs(got - want) <= tolerance.limit(want, column, 0.0);
}

// Whether every sampled row's cells agree along each diagonal: one value per offset c − r.
bool dependsOnOffset(const std::vector<float> &cells, std::int64_t n, const TableSample &sample,
                     const CellTolerance &tolerance)
{
    std::map<std::int64_t, double> byOffset;
    for (const std::int64_t r : sample.rows) {
        for (std::int64_t c = 0; c < n; ++c) {
            const double v = cells[std::size_t(r * n + c)];
            const auto [at, fresh] = byOffset.emplace(c - r, v);
            if (!fresh && !same(v, at->second, tolerance, c))
                return false;
        }
    }
    return true;
}

} // namespace

std::optional<Transposed> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                               const TableSample &mine, const CellTolerance &tolerance)
{
    const std::int64_t n = table.rows();
    if (n < 2 || table.cols() != n || reference->rows() != n || reference->cols() != n || n * n > kMostCells
        || mine.cols() != n)
        return std::nullopt;
    std::vector<float> cells(std::size_t(n * n));
    QString error;
    if (!reference->read(0, n, cells.data(), error))
        return std::nullopt;
    std::int64_t notOwn = 0;
    for (std::int64_t k = 0; k < mine.size(); ++k) {
        const std::int64_t r = mine.rows[std::size_t(k)];
        for (std::int64_t c = 0; c < n; ++c) {
            const double got = mine.values(k, c);
            const double want = cells[std::size_t(c * n + r)];
            if (!same(got, want, tolerance, c))
                return std::nullopt;
            if (!same(got, cells[std::size_t(r * n + c)], tolerance, c))
                ++notOwn;
        }
    }
    if (notOwn == 0)
        return std::nullopt;
    Transposed t;
    t.ofOffset = dependsOnOffset(cells, n, mine, tolerance);
    t.rows = std::make_shared<const ColumnsAsRows>(reference, std::move(cells));
    return t;
}

} // namespace posenc::TableTransposed
