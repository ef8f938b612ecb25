#include "TableSignFlip.h"

#include "check/DeviationRegion.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableSignFlip {

namespace {

// The rows read at once in the pass that finds the block's rows.
constexpr std::int64_t kChunkCells = std::int64_t(1) << 20;

bool near(double a, double b, double limit)
{
    return a == b || std::fabs(a - b) <= limit;
}

// The reference with the cells of `rows` x `columns` negated.
class NegatedBlock final : public DerivedRows
{
public:
    NegatedBlock(std::shared_ptr<const TableRows> rows, std::vector<bool> flippedRows, std::vector<bool> columns)
        : DerivedRows(std::move(rows))
        , m_flippedRows(std::move(flippedRows))
        , m_columns(std::move(columns))
    { }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        if (!m_rows->read(row0, count, out, error))
            return false;
        const auto cols = std::size_t(m_rows->cols());
        for (std::size_t r = 0; r < std::size_t(count); ++r) {
            if (!m_flippedRows[std::size_t(row0) + r])
                continue;
            for (std::size_t c = 0; c < cols; ++c)
                out[r * cols + c] = m_columns[c] ? -out[r * cols + c] : out[r * cols + c];
        }
        return true;
    }

private:
    std::vector<bool> m_flippedRows;
    std::vector<bool> m_columns;
};

// The columns whose sampled cells are negated, where the sample reads as a block negated: every
// cell the reference's or its negation, at least two negated, and each row with one negated in
// all those columns.
std::optional<std::vector<bool>> sampledColumns(const TableSample &mine, const TableSample &theirs,
                                                const CellTolerance &tolerance)
{
    const std::int64_t cols = mine.cols();
    if (mine.rows != theirs.rows || theirs.cols() != cols)
        return std::nullopt;
    std::vector<bool> columns(std::size_t(cols), false);
    std::vector<bool> rowFlipped(std::size_t(mine.size()), false);
    std::int64_t flipped = 0;
    for (std::int64_t k = 0; k < mine.size(); ++k) {
        for (std::int64_t c = 0; c < cols; ++c) {
            const double want = theirs.values(k, c), got = mine.values(k, c);
            const double limit = tolerance.limit(want, c, 0.0);
            if (near(got, want, limit))
                continue;
            if (!near(got, -want, limit))
                return std::nullopt;
            columns[std::size_t(c)] = true;
            rowFlipped[std::size_t(k)] = true;
            ++flipped;
        }
    }
    if (flipped < 2)
        return std::nullopt;
    for (std::int64_t k = 0; k < mine.size(); ++k) {
        if (!rowFlipped[std::size_t(k)])
            continue;
        for (std::int64_t c = 0; c < cols; ++c) {
            const double want = theirs.values(k, c);
            if (columns[std::size_t(c)] && !near(mine.values(k, c), -want, tolerance.limit(want, c, 0.0)))
                return std::nullopt;
        }
    }
    return columns;
}

// The largest square reference read whole to see whether it is antisymmetric.
constexpr std::int64_t kMostSquareRows = 4096;

// Whether a square reference holds r(j, i) = −r(i, j) in every cell: a map of the offset that is odd
// in it (DeBERTa's make_log_bucket_position of i − j), whose negation is the map of j − i.
bool antisymmetric(const TableRows &reference)
{
    const std::int64_t n = reference.rows();
    if (n != reference.cols() || n < 2 || n > kMostSquareRows)
        return false;
    std::vector<float> cells(std::size_t(n * n));
    QString error;
    if (!reference.read(0, n, cells.data(), error))
        return false;
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = i; j < n; ++j)
            if (cells[std::size_t(i * n + j)] != -cells[std::size_t(j * n + i)])
                return false;
    return true;
}

// The cause of a block negated in a reference of whole numbers (a map of buckets or offsets, no
// sines or cosines): an odd map of the offset negated in every cell is that map of the other
// difference; a part of it negated is no map of either.
QString wholeNumberCause(const TableRows &reference, bool everyCell, bool &mirrored)
{
    mirrored = everyCell && antisymmetric(reference);
    if (mirrored)
        return u"the reference holds whole numbers and is odd in the offset (its cell (j, i) the negation of (i, j), "
               "as DeBERTa's make_log_bucket_position of i − j is): negated, it is the same map of j − i, the "
               "offsets mirrored, as a port that takes the key's position minus the query's where the query's minus "
               "the key's is meant gives (relative-position-reversed)"_s;
    return u"the reference holds whole numbers (a map of buckets or offsets, no sines of a position): the values "
           "themselves were negated"_s;
}

// The cause the block's columns allow (Flip::cause): sines of the position, all 0 in one row of the
// reference (position 0: odd in p), or not; a reference of whole numbers holds no sines.
QString causeWords(const TableRows &reference, const std::vector<bool> &columns, bool everyRow, bool &mirrored)
{
    const std::int64_t rows = reference.rows(), cols = reference.cols();
    const std::int64_t chunk = std::max<std::int64_t>(1, kChunkCells / std::max<std::int64_t>(cols, 1));
    std::vector<float> cells;
    QString error;
    std::int64_t zeroRow = -1;
    bool whole = true, beyondOne = false;
    for (std::int64_t r0 = 0; r0 < rows && (zeroRow < 0 || whole); r0 += chunk) {
        const std::int64_t count = std::min(chunk, rows - r0);
        cells.resize(std::size_t(count * cols));
        if (!reference.read(r0, count, cells.data(), error))
            return {};
        for (std::int64_t k = 0; k < count * cols && whole; ++k) {
            const double v = double(cells[std::size_t(k)]);
            whole = columns[std::size_t(k % cols)] ? v == std::floor(v) : whole;
            beyondOne = beyondOne || (columns[std::size_t(k % cols)] && std::fabs(v) > 1.0);
        }
        for (std::int64_t r = 0; r < count && zeroRow < 0; ++r) {
            bool zero = true;
            for (std::int64_t c = 0; c < cols && zero; ++c)
                zero = !columns[std::size_t(c)] || std::fabs(double(cells[std::size_t(r * cols + c)])) <= 1e-6;
            if (zero)
                zeroRow = r0 + r;
        }
    }
    if (whole && beyondOne)
        return wholeNumberCause(
            reference, everyRow && std::all_of(columns.begin(), columns.end(), [](bool c) { return c; }), mirrored);
    if (zeroRow >= 0)
        return u"every negated column is 0 in the reference's row %1, as sines of the position are at position 0: "
               "a sine taken at +p where −p is meant gives it (speechbrain#3070's RelPosEncXL, sin(p) for the "
               "negative offsets' sin(−p))"_s.arg(zeroRow);
    return u"the negated columns are 0 together in no row of the reference, as sines of the position would be at "
           "position 0: cosines among them are even in the position (cos(−p) = cos(p)), so no sign of the position "
           "negates them; the values themselves were negated"_s;
}

} // namespace

std::optional<Flip> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                         const TableSample &mine, const TableSample &theirs, const CellTolerance &tolerance)
{
    const auto columns = sampledColumns(mine, theirs, tolerance);
    if (!columns)
        return std::nullopt;
    const std::int64_t rows = table.rows(), cols = table.cols();
    const std::int64_t chunk = std::max<std::int64_t>(1, kChunkCells / std::max<std::int64_t>(cols, 1));
    std::vector<bool> flippedRows(std::size_t(rows), false);
    std::vector<float> a, b;
    QString error;
    RowRuns runs;
    std::int64_t flipped = 0;
    // A row of the block: its cells in the columns all negated, one at least beyond the rounding.
    for (std::int64_t r0 = 0; r0 < rows; r0 += chunk) {
        const std::int64_t count = std::min(chunk, rows - r0);
        a.resize(std::size_t(count * cols));
        b.resize(std::size_t(count * cols));
        if (!table.read(r0, count, a.data(), error) || !reference->read(r0, count, b.data(), error))
            return std::nullopt;
        for (std::int64_t r = 0; r < count; ++r) {
            bool negated = true, differs = false;
            for (std::int64_t c = 0; c < cols && negated; ++c) {
                if (!(*columns)[std::size_t(c)])
                    continue;
                const double got = a[std::size_t(r * cols + c)], want = b[std::size_t(r * cols + c)];
                const double limit = tolerance.limit(want, c, 0.0);
                negated = near(got, -want, limit);
                differs = differs || !near(got, want, limit);
            }
            if (negated && differs) {
                flippedRows[std::size_t(r0 + r)] = true;
                runs.add(r0 + r);
                ++flipped;
            }
        }
    }
    if (flipped == 0)
        return std::nullopt;
    std::vector<std::int64_t> perColumn(std::size_t(cols), 0);
    for (std::int64_t c = 0; c < cols; ++c)
        perColumn[std::size_t(c)] = (*columns)[std::size_t(c)] ? flipped : 0;
    Flip flip;
    flip.cause = causeWords(*reference, *columns, flipped == rows, flip.mirrored);
    flip.where = u"%1 and %2"_s.arg(DeviationRegion::rowWords(runs, flipped, rows, rows),
                                    DeviationRegion::columnWords(perColumn));
    flip.negated = std::make_shared<NegatedBlock>(reference, std::move(flippedRows), *columns);
    return flip;
}

} // namespace posenc::TableSignFlip
