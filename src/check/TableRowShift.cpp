#include "TableRowShift.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::TableRowShift {

namespace {

constexpr std::int64_t kShiftMostRows = 16;
constexpr std::int64_t kShiftFewestCompared = 8;

// The reference's rows moved down by `by` (up where negative), each row past its ends its nearest row.
class RowsShiftedBy final : public DerivedRows
{
public:
    RowsShiftedBy(std::shared_ptr<const TableRows> rows, std::int64_t by, bool rolled)
        : DerivedRows(std::move(rows))
        , m_by(by)
        , m_rolled(rolled)
    { }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t n = m_rows->rows();
        const auto cols = std::size_t(m_rows->cols());
        for (std::int64_t r = 0; r < count; ++r) {
            const std::int64_t from = row0 + r - m_by;
            const std::int64_t at = m_rolled ? ((from % n) + n) % n : std::clamp(from, std::int64_t(0), n - 1);
            if (!m_rows->read(at, 1, out + std::size_t(r) * cols, error))
                return false;
        }
        return true;
    }

private:
    std::int64_t m_by;
    bool m_rolled;
};

} // namespace

std::optional<Shift> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                          const TableSample &mine, const CellTolerance &tolerance)
{
    const std::int64_t rows = table.rows(), cols = table.cols();
    if (rows != reference->rows() || cols != reference->cols() || mine.cols() != cols)
        return std::nullopt;
    std::vector<float> theirs(std::size_t(cols), 0.0f);
    QString error;
    for (std::int64_t step = 1; step <= kShiftMostRows && 2 * step < rows; ++step) {
        for (const std::int64_t by : {step, -step}) {
            std::int64_t compared = 0;
            bool equal = true;
            for (std::int64_t k = 0; k < mine.size() && equal; ++k) {
                const std::int64_t source = mine.rows[std::size_t(k)] - by;
                if (source < 0 || source >= rows)
                    continue;
                if (!reference->read(source, 1, theirs.data(), error))
                    return std::nullopt;
                for (std::int64_t c = 0; c < cols && equal; ++c) {
                    const double want = theirs[std::size_t(c)], got = mine.values(k, c);
                    equal = got == want || std::fabs(got - want) <= tolerance.limit(want, c, 0.0);
                }
                ++compared;
            }
            if (!equal || compared < std::min(kShiftFewestCompared, rows - step))
                continue;
            // The rows past the end: the reference's from its other end (a roll), where every sampled one is.
            bool rolled = false;
            for (std::int64_t k = 0; k < mine.size(); ++k) {
                const std::int64_t source = mine.rows[std::size_t(k)] - by;
                if (source >= 0 && source < rows)
                    continue;
                if (!reference->read(((source % rows) + rows) % rows, 1, theirs.data(), error))
                    return std::nullopt;
                rolled = true;
                for (std::int64_t c = 0; c < cols && rolled; ++c) {
                    const double want = theirs[std::size_t(c)], got = mine.values(k, c);
                    rolled = got == want || std::fabs(got - want) <= tolerance.limit(want, c, 0.0);
                }
                if (!rolled)
                    break;
            }
            return Shift {by, std::make_shared<const RowsShiftedBy>(reference, by, rolled),
                          rolled ? 0 : std::max<std::int64_t>(by, 0), rolled ? rows : std::min(rows, rows + by), rolled};
        }
    }
    return std::nullopt;
}

} // namespace posenc::TableRowShift
