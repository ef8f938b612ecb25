#include "TableRowShift.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::TableRowShift {

namespace {

constexpr std::int64_t kShiftFewestCompared = 8;
// The sampled rows whose copies are looked for in the reference's rows: a shift under half the
// table leaves at least one of them among the rows it moves into the reference.
constexpr std::int64_t kProbes = 8;
// The reference's cells read in the search: every row of a table of 2^28 cells (a 1M-row table of
// 256 columns); past it, the rows nearest the declared ones.
constexpr std::int64_t kMostCellsSearched = std::int64_t(1) << 28;
constexpr std::int64_t kRowsPerRead = 1024;
// The rows of the reference a probe may equal: past it, the probe is a row the reference repeats.
constexpr std::size_t kMostPerProbe = 4;

// The source's rows moved down by `by` (up where negative) from `from`, each row past its ends its
// nearest row, or its row from the other end where `rolled`.
class RowsShiftedBy final : public DerivedRows
{
public:
    RowsShiftedBy(std::shared_ptr<const TableRows> rows, std::int64_t from, std::int64_t count, std::int64_t by,
                  bool rolled)
        : DerivedRows(std::move(rows))
        , m_from(from)
        , m_count(count)
        , m_by(by)
        , m_rolled(rolled)
    { }
    std::int64_t rows() const override { return m_count; }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t n = m_rows->rows();
        const auto cols = std::size_t(m_rows->cols());
        for (std::int64_t r = 0; r < count; ++r) {
            const std::int64_t from = m_from + row0 + r - m_by;
            const std::int64_t at = m_rolled ? ((from % n) + n) % n : std::clamp(from, std::int64_t(0), n - 1);
            if (!m_rows->read(at, 1, out + std::size_t(r) * cols, error))
                return false;
        }
        return true;
    }

private:
    std::int64_t m_from, m_count, m_by;
    bool m_rolled;
};

bool rowEquals(const float *theirs, const TableSample &mine, std::int64_t k, const CellTolerance &tolerance)
{
    for (std::int64_t c = 0; c < mine.cols(); ++c) {
        const double want = theirs[c], got = mine.values(k, c);
        if (!(got == want || std::fabs(got - want) <= tolerance.limit(want, c, 0.0)))
            return false;
    }
    return true;
}

// The shifts that put a probed sampled row on a row of `source` equal to it: by = r - (q - from).
// The source's rows are read from those of the reference outward, `kMostCellsSearched` cells at most.
std::optional<std::vector<std::int64_t>> candidates(const TableRows &source, std::int64_t from, std::int64_t rows,
                                                    const TableSample &mine, const CellTolerance &tolerance)
{
    const std::int64_t n = source.rows(), cols = source.cols();
    std::vector<std::int64_t> probes;
    const std::int64_t sampled = mine.size();
    for (std::int64_t p = 0; p < std::min(kProbes, sampled); ++p)
        probes.push_back(sampled <= kProbes ? p : p * (sampled - 1) / (kProbes - 1));
    // Each probe's shifts; a probe equal to many rows (a padding row of zeros) says nothing.
    std::vector<std::vector<std::int64_t>> shifts(probes.size());
    std::vector<float> block;
    QString error;
    const std::int64_t most = std::max<std::int64_t>(kRowsPerRead, kMostCellsSearched / std::max<std::int64_t>(cols, 1));
    // Blocks alternately after and before the reference's rows, the nearest first.
    const std::int64_t centre = std::clamp(from + rows / 2, std::int64_t(0), n);
    std::int64_t after = centre, before = centre, read = 0;
    while ((after < n || before > 0) && read < most) {
        for (const bool forward : {true, false}) {
            std::int64_t row0 = 0, count = 0;
            if (forward && after < n) {
                row0 = after;
                count = std::min(kRowsPerRead, n - after);
                after += count;
            } else if (!forward && before > 0) {
                count = std::min(kRowsPerRead, before);
                row0 = before - count;
                before = row0;
            }
            if (count == 0)
                continue;
            block.resize(std::size_t(count * cols));
            if (!source.read(row0, count, block.data(), error))
                return std::nullopt;
            read += count;
            for (std::int64_t q = 0; q < count; ++q) {
                const float *theirs = block.data() + q * cols;
                for (std::size_t p = 0; p < probes.size(); ++p) {
                    if (shifts[p].size() > kMostPerProbe || !rowEquals(theirs, mine, probes[p], tolerance))
                        continue;
                    shifts[p].push_back(mine.rows[std::size_t(probes[p])] - (row0 + q - from));
                }
            }
        }
    }
    std::vector<std::int64_t> found;
    for (const auto &each : shifts) {
        if (each.size() > kMostPerProbe)
            continue;
        for (const std::int64_t by : each) {
            if (by != 0 && std::find(found.begin(), found.end(), by) == found.end())
                found.push_back(by);
        }
    }
    std::sort(found.begin(), found.end(), [](std::int64_t a, std::int64_t b) {
        return std::abs(a) != std::abs(b) ? std::abs(a) < std::abs(b) : a > b;
    });
    return found;
}

} // namespace

std::optional<Shift> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                          const TableSample &mine, const CellTolerance &tolerance)
{
    const std::int64_t rows = table.rows(), cols = table.cols();
    if (rows != reference->rows() || cols != reference->cols() || mine.cols() != cols || mine.size() == 0)
        return std::nullopt;
    // A range of a longer table is searched whole: its rows read from another row of it.
    const auto *range = dynamic_cast<const RowRange *>(reference.get());
    const std::shared_ptr<const TableRows> source = range ? range->whole() : reference;
    const std::int64_t from = range ? range->first() : 0, n = source->rows();
    const auto shifts = candidates(*source, from, rows, mine, tolerance);
    if (!shifts)
        return std::nullopt;
    std::vector<float> theirs(std::size_t(cols), 0.0f);
    QString error;
    for (const std::int64_t by : *shifts) {
        // The table's rows that hold a row of the source: [first, end), more than half of them.
        const std::int64_t first = std::clamp(by - from, std::int64_t(0), rows);
        const std::int64_t end = std::clamp(n + by - from, std::int64_t(0), rows);
        if (2 * (end - first) <= rows)
            continue;
        std::int64_t compared = 0;
        bool equal = true;
        for (std::int64_t k = 0; k < mine.size() && equal; ++k) {
            const std::int64_t r = mine.rows[std::size_t(k)];
            if (r < first || r >= end)
                continue;
            if (!source->read(from + r - by, 1, theirs.data(), error))
                return std::nullopt;
            equal = rowEquals(theirs.data(), mine, k, tolerance);
            ++compared;
        }
        if (!equal || compared < std::min(kShiftFewestCompared, end - first))
            continue;
        // The rows past the end: the reference's from its other end (a roll), where every sampled one is.
        bool rolled = false;
        if (!range) {
            for (std::int64_t k = 0; k < mine.size(); ++k) {
                const std::int64_t r = mine.rows[std::size_t(k)];
                if (r >= first && r < end)
                    continue;
                if (!reference->read((((r - by) % rows) + rows) % rows, 1, theirs.data(), error))
                    return std::nullopt;
                rolled = rowEquals(theirs.data(), mine, k, tolerance);
                if (!rolled)
                    break;
            }
        }
        Shift s;
        s.by = by;
        s.shifted = std::make_shared<const RowsShiftedBy>(source, from, rows, by, rolled);
        s.first = rolled ? 0 : first;
        s.end = rolled ? rows : end;
        s.rolled = rolled;
        if (range) {
            s.whole = source;
            s.declaredFrom = from;
        }
        return s;
    }
    return std::nullopt;
}

} // namespace posenc::TableRowShift
