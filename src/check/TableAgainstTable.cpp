#include "TableAgainstTable.h"

#include "check/CellTolerance.h"
#include "check/CheckDiagnosis.h"
#include "check/GridResize.h"
#include "check/TableAxesSwapped.h"
#include "check/TableRowShift.h"
#include "check/TableSample.h"
#include "check/TableSignFlip.h"
#include "check/TableTransposed.h"

#include <QMutex>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

// A mask's fill in the reference: −inf, finfo(dtype).min, or the constant a masked_fill writes
// (−1e9, −1e4), far below every value of the bias it masks. It is no value of the formula, so the
// few units of float32 that two computations of a cell may differ by are those of the largest value
// beside it: a fill of −3.4e38 had made that 4e31, and a bias 8 times too large `correct`.
constexpr float kFillBelowValues = 1024.0f;

float largestBesideFill(const TableSample &sample)
{
    float lowest = std::numeric_limits<float>::infinity();
    for (const float v : sample.values.reshaped()) {
        if (std::isfinite(v))
            lowest = std::min(lowest, v);
    }
    float beside = 0.0f;
    bool others = false; // a table of one value is no fill over a bias
    for (const float v : sample.values.reshaped()) {
        if (std::isfinite(v) && v != lowest) {
            beside = std::max(beside, std::fabs(v));
            others = true;
        }
    }
    if (!std::isfinite(lowest))
        return beside;
    const bool fill = others && lowest < 0.0f && -lowest >= kFillBelowValues * beside;
    return fill ? beside : std::max(beside, std::fabs(lowest));
}

// The cells each table's sample reads at most.
constexpr std::int64_t kSampleCellsEach = std::int64_t(1) << 20;

// The rows of another table as a reference: rows first .. end - 1 compared (every row unless
// said), row r at position r.
class RowsReference final : public TableReference
{
public:
    explicit RowsReference(std::shared_ptr<const TableRows> rows, std::int64_t first = 0,
                           std::int64_t end = std::numeric_limits<std::int64_t>::max())
        : m_rows(std::move(rows))
        , m_first(first)
        , m_end(end)
    { }

    std::int64_t cols() const override { return m_rows->cols(); }
    bool compared(std::int64_t row) const override { return row >= m_first && row < m_end; }
    std::int64_t position(std::int64_t row) const override { return row; }
    bool holdsInfinities() const override { return true; }

    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        constexpr std::int64_t kTileCells = 16384;
        const std::int64_t cols = m_rows->cols();
        const std::int64_t tileRows = std::max<std::int64_t>(1, kTileCells / std::max<std::int64_t>(cols, 1));
        std::vector<float> values;
        // Only the compared rows go to the sink (TableReference::forEachTile).
        const std::int64_t end = std::min(block.rowEnd(), m_end);
        for (std::int64_t r0 = std::max(block.row0, m_first); r0 < end; r0 += tileRows) {
            const std::int64_t rows = std::min(tileRows, end - r0);
            values.resize(std::size_t(rows * cols));
            QString error;
            if (!m_rows->read(r0, rows, values.data(), error)) {
                // A row that cannot be read compares as NaN (every cell deviates); the reason is
                // kept for the caller, who reports it instead of a verdict.
                std::fill(values.begin(), values.end(), std::nanf(""));
                keepError(u"%1: %2"_s.arg(m_rows->name(), error));
            } else if (const auto bad = std::find_if(values.cbegin(), values.cend(),
                                                     [](float v) { return std::isnan(v) || v == INFINITY; });
                       bad != values.cend()) {
                // A NaN or +inf in the reference is no value to compare with: the file is refused.
                // −inf is a mask's fill (masked_fill(-inf)), compared as one (largestBesideFill).
                const std::int64_t at = bad - values.cbegin();
                keepError(u"%1: row %2, column %3 holds %4; a reference table holds numbers (-inf only as a mask's "
                          "fill)"_s.arg(m_rows->name())
                              .arg(r0 + at / cols)
                              .arg(at % cols)
                              .arg(std::isnan(*bad) ? u"NaN"_s : u"+inf"_s));
            }
            sink({r0, rows, block.col0, block.cols, values.data() + block.col0, cols});
        }
    }

    std::optional<QString> error() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_error;
    }

private:
    void keepError(const QString &error) const
    {
        const QMutexLocker lock(&m_mutex);
        if (!m_error)
            m_error = error;
    }

    std::shared_ptr<const TableRows> m_rows;
    std::int64_t m_first, m_end;
    mutable QMutex m_mutex;
    mutable std::optional<QString> m_error;
};

ValueFormat formatOf(const TableRows &table, const TableSample &sample)
{
    ValueFormat format = storedFormat(table.storedType());
    if (format == ValueFormat::Float32 && table.storedType() != StoredType::Integer)
        format = representableFormat(sample.values.data(), sample.values.size());
    return format;
}

// The coarser of two formats: bfloat16's half unit is the largest, then float16's.
ValueFormat coarser(ValueFormat a, ValueFormat b)
{
    const auto rank = [](ValueFormat f) { return f == ValueFormat::BFloat16 ? 2 : f == ValueFormat::Float16 ? 1 : 0; };
    return rank(a) >= rank(b) ? a : b;
}

// The reference's rows with their columns taken in another order: column c of a row is the
// reference's column `order[c]`.
class ColumnsOf final : public DerivedRows
{
public:
    ColumnsOf(std::shared_ptr<const TableRows> rows, std::vector<std::int64_t> order)
        : DerivedRows(std::move(rows))
        , m_order(std::move(order))
    { }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const auto cols = std::size_t(m_rows->cols());
        std::vector<float> in(std::size_t(count) * cols);
        if (!m_rows->read(row0, count, in.data(), error))
            return false;
        for (std::size_t r = 0; r < std::size_t(count); ++r)
            for (std::size_t c = 0; c < cols; ++c)
                out[r * cols + c] = in[r * cols + std::size_t(m_order[c])];
        return true;
    }

private:
    std::vector<std::int64_t> m_order;
};

// The order of the reference's columns that the table's sampled rows hold, where it is no
// identity: each table column that differs from the reference's column of its index matched with
// another column of the reference equal to it in every sampled row (held-out set 4, F6: the x and
// y channels of physicsnemo's grid exchanged, physicsnemo#1096). Nothing where a column matches
// none, or the columns already agree.
std::optional<std::vector<std::int64_t>> columnOrder(const TableSample &mine, const TableSample &theirs,
                                                     const CellTolerance &tolerance)
{
    const std::int64_t cols = mine.cols();
    if (mine.rows != theirs.rows || theirs.cols() != cols || mine.size() < 2)
        return std::nullopt;
    const auto same = [&](std::int64_t c, std::int64_t r) {
        for (std::int64_t k = 0; k < mine.size(); ++k) {
            const double want = theirs.values(k, r);
            if (!(std::fabs(double(mine.values(k, c)) - want) <= tolerance.limit(want, r, 0.0)))
                return false;
        }
        return true;
    };
    std::vector<std::int64_t> order(std::size_t(cols), -1);
    std::vector<bool> used(std::size_t(cols), false);
    std::vector<std::int64_t> moved;
    for (std::int64_t c = 0; c < cols; ++c) {
        if (same(c, c)) {
            order[std::size_t(c)] = c;
            used[std::size_t(c)] = true;
        } else {
            moved.push_back(c);
        }
    }
    if (moved.empty() || std::uint64_t(moved.size()) * std::uint64_t(cols) > (std::uint64_t(1) << 24))
        return std::nullopt;
    for (const std::int64_t c : moved) {
        for (std::int64_t r = 0; r < cols && order[std::size_t(c)] < 0; ++r) {
            if (!used[std::size_t(r)] && same(c, r)) {
                order[std::size_t(c)] = r;
                used[std::size_t(r)] = true;
            }
        }
        if (order[std::size_t(c)] < 0)
            return std::nullopt;
    }
    return order;
}

// The order in words: pairs exchanged "0 and 1, 2 and 3", else where each moved column came from.
QString orderWords(const std::vector<std::int64_t> &order)
{
    QStringList swaps, moves;
    bool pairs = true;
    for (std::size_t c = 0; c < order.size(); ++c) {
        const auto r = std::size_t(order[c]);
        if (r == c)
            continue;
        pairs = pairs && std::size_t(order[r]) == c;
        if (r > c)
            swaps.append(u"%1 and %2"_s.arg(c).arg(r));
        moves.append(u"%1 holds the reference's %2"_s.arg(c).arg(r));
    }
    const QStringList &list = pairs ? swaps : moves;
    const QString shown = list.size() <= 6 ? list.join(u", "_s) : list.mid(0, 6).join(u", "_s) + u", …"_s;
    return pairs ? u"columns exchanged in pairs: %1"_s.arg(shown) : u"columns moved: %1"_s.arg(shown);
}

// Whether a sampled cell of the table is beyond the rounding of the reference's.
bool deviates(const TableSample &mine, const TableSample &theirs, const CellTolerance &tolerance)
{
    if (mine.rows != theirs.rows || mine.cols() != theirs.cols())
        return false;
    for (std::int64_t k = 0; k < mine.size(); ++k) {
        for (std::int64_t c = 0; c < mine.cols(); ++c) {
            const double want = theirs.values(k, c), got = mine.values(k, c);
            if (!(got == want || std::fabs(got - want) <= tolerance.limit(want, c, 0.0)))
                return true;
        }
    }
    return false;
}

QString shape(const TableRows &t)
{
    return u"%1 x %2"_s.arg(t.rows()).arg(t.cols());
}

// The words of a reference that is rows from `declaredFrom` of a longer table read from another row
// of it (a cache's offset lost or added): both rows said, and the table's rows that hold none.
QString wholeShiftWords(const TableRowShift::Shift &shift, std::int64_t rows, const QString &referenceText)
{
    const std::int64_t read = shift.declaredFrom - shift.by;
    const QString name = shift.whole->name();
    QString words = u"%1's rows read from another row: row r holds row r + %2 of %3 where row r + %4 is meant "
                    "(rows read from %2, not from %4: %5 positions %6)"_s.arg(referenceText)
                        .arg(read)
                        .arg(name)
                        .arg(shift.declaredFrom)
                        .arg(std::abs(shift.by))
                        .arg(shift.by > 0 ? u"earlier, as an offset lost gives (a cache's, mlx-lm#93)"_s
                                          : u"later, as an offset added where none is meant, or twice, gives"_s);
    const auto span = [](std::int64_t a, std::int64_t b) {
        return b - a == 1 ? u"row %1"_s.arg(a) : u"rows %1..%2"_s.arg(a).arg(b - 1);
    };
    QStringList outside;
    if (shift.first > 0)
        outside.append(span(0, shift.first));
    if (shift.end < rows)
        outside.append(span(shift.end, rows));
    if (!outside.isEmpty())
        words += u"; %1 would read past the ends of %2 and hold none of its rows"_s.arg(outside.join(u" and "_s), name);
    return words;
}

// The words of rows moved by `shift`: the move and the rows that hold none of the reference's.
QString shiftWords(const TableRowShift::Shift &shift, std::int64_t tableRows, const QString &referenceText)
{
    if (shift.whole)
        return wholeShiftWords(shift, tableRows, referenceText);
    const std::int64_t moved = std::abs(shift.by);
    const QString row = u"r %1 %2"_s.arg(shift.by > 0 ? u"-"_s : u"+"_s).arg(moved);
    const QString rows = moved == 1 ? u"one row"_s : u"%1 rows"_s.arg(moved);
    const std::int64_t noneFrom = shift.by > 0 ? 0 : tableRows - moved;
    const QString past
        = moved == 1 ? u"row %1 holds"_s.arg(noneFrom) : u"rows %1..%2 hold"_s.arg(noneFrom).arg(noneFrom + moved - 1);
    const QString none = shift.rolled ? u"rolled: %1 its %2 %3"_s.arg(past, shift.by > 0 ? u"last"_s : u"first"_s,
                                                                      moved == 1 ? u"row"_s : u"%1 rows"_s.arg(moved))
                                      : past + u" none of its rows"_s;
    return u"%1's rows moved %2 by %3: row r holds its row %4, position %4 where r is meant; %5"_s.arg(
        referenceText, shift.by > 0 ? u"down"_s : u"up"_s, rows, row, none);
}

} // namespace

std::variant<TableMatch, TableRefusal> expectTable(const TableRows &table, std::shared_ptr<const TableRows> reference,
                                                   std::optional<std::int64_t> merge, bool vector,
                                                   std::optional<GridResize::DeclaredResize> resize)
{
    using Whose = TableRefusal::Whose;
    if (table.rows() != reference->rows() || table.cols() != reference->cols()) {
        // A learned square grid and a table of its width: the grid resized to the table's patches.
        if (auto resized = GridResize::expect(table, *reference, std::int64_t(1) << 26, merge, resize)) {
            if (auto *match = std::get_if<TableMatch>(&*resized))
                return std::move(*match);
            return TableRefusal {Whose::Shapes, std::get<QString>(*resized)};
        }
        const bool transposed = table.rows() == reference->cols() && table.cols() == reference->rows();
        // A square grid of the table's width that no bilinear resize explains (REPORT-r28a finding 7:
        // "compare tables of one shape" read wrong where resizes of another shape are compared).
        const auto side = std::int64_t(std::llround(std::sqrt(double(reference->rows()))));
        if (side >= 2 && side * side == reference->rows() && table.cols() == reference->cols())
            return TableRefusal {
                Whose::Shapes,
                u"the table is %1 and the reference %2, a %3 x %3 grid: the table is no bilinear resize of the grid "
                "(align_corners or not, row-major or in merge blocks of 2, t frames), and no bicubic (with antialias "
                "or "
                "not) or nearest one listed row-major, to its %4 rows"_s.arg(shape(table), shape(*reference))
                    .arg(side)
                    .arg(table.rows())};
        return TableRefusal {
            Whose::Shapes,
            u"the table is %1 and the reference %2 (%3): compare tables of one shape"_s.arg(
                shape(table), shape(*reference),
                transposed ? u"the table is the reference transposed"_s : u"%1"_s.arg(reference->name()))};
    }
    if (table.rows() <= 0 || table.cols() <= 0)
        return TableRefusal {Whose::Shapes, u"the table is empty; a table of positions is L x d with L, d >= 1"_s};
    QString error;
    const std::optional<TableSample> mine = readSample(table, kSampleCellsEach, error);
    if (!mine)
        return TableRefusal {Whose::Table, u"%1: %2"_s.arg(table.name(), error)};
    const std::optional<TableSample> theirs = readSample(*reference, kSampleCellsEach, error);
    if (!theirs)
        return TableRefusal {Whose::Reference, u"%1: %2"_s.arg(reference->name(), error)};
    const float largest = largestBesideFill(*theirs);
    TableMatch m;
    m.verdict = CheckVerdict::Correct;
    // A vector's values are no positions' rows.
    if (!vector) {
        m.positionOffset = 0;
        m.firstPositionRow = 0;
    }
    m.referenceText = u"the table %1"_s.arg(reference->name());
    m.referenceLargest = double(largest);
    // Each cell within the rounding of the coarser format of the two, relative to itself and a
    // few units of float32 of the largest value: two computations of one formula in float32
    // differ by that much. A vector's values are a formula's parameters: their files' formats.
    const ValueFormat format = vector ? coarser(storedFormat(table.storedType()), storedFormat(reference->storedType()))
                                      : coarser(formatOf(table, *mine), formatOf(*reference, *theirs));
    m.tolerance = cellTolerance(format, StoredType::Float32, 0.0, double(largest), 2.0);
    m.tolerance.absolute
        += 2.0 * std::ldexp(double(largest), -24) + 1.01 * (table.textRounding() + reference->textRounding());
    const auto order = vector ? std::nullopt : columnOrder(*mine, *theirs, m.tolerance);
    if (order) {
        // The table is the reference with its columns in another order: named, and every row streamed
        // against the reordered reference (TableMatch::asRead).
        m.asRead = std::make_shared<const RowsReference>(std::make_shared<ColumnsOf>(reference, *order));
        m.asReadTolerance = m.tolerance;
    }
    // Else a block of the reference's cells negated, or its grid's axes exchanged: read from the
    // sample where it deviates, each streamed as the table it makes where that table is known.
    std::optional<TableSignFlip::Flip> flip;
    std::optional<TableAxesSwapped::Swap> swap;
    std::optional<TableRowShift::Shift> shift;
    std::optional<TableTransposed::Transposed> transposed;
    if (!vector && !order && deviates(*mine, *theirs, m.tolerance)) {
        flip = TableSignFlip::read(table, reference, *mine, *theirs, m.tolerance);
        // A bias of the offset with its query and key exchanged (T5's buckets of i − j).
        if (!flip) {
            transposed = TableTransposed::read(table, reference, *mine, m.tolerance);
            if (transposed && !transposed->ofOffset)
                transposed.reset();
        }
        if (!flip && !transposed)
            swap = TableAxesSwapped::read(table, reference, m.tolerance);
        if (!flip && !transposed && !swap)
            swap = TableAxesSwapped::readExchanged(table, reference, m.tolerance);
        if (!flip && !transposed && !swap)
            shift = TableRowShift::read(table, reference, *mine, m.tolerance);
        if (flip || transposed || (swap && swap->reordered)) {
            m.asRead = std::make_shared<const RowsReference>(flip             ? flip->negated
                                                                 : transposed ? transposed->rows
                                                                              : swap->reordered);
            m.asReadTolerance = m.tolerance;
        } else if (shift) {
            m.asRead = std::make_shared<const RowsReference>(shift->shifted, shift->first, shift->end);
            m.asReadTolerance = m.tolerance;
        }
        // Else a learned n x n grid resized to n x n patches: linspace(0, n − 1, n) is the identity,
        // but fast_pos_embed_interpolate lists the patches in merge blocks (a 768-pixel image at
        // patch 16 of a 48 x 48 grid): the resize's reading, not a cell-by-cell mistake.
        if (!flip && !transposed && !swap && !shift) {
            if (auto resized = GridResize::expectSameShape(table, *reference, merge))
                return std::move(*resized);
        }
    }
    m.reference = std::make_shared<const RowsReference>(std::move(reference));
    m.correctAgainst = CheckDiagnosis::declaredReference(m.referenceText);
    m.diagnosis = u"every cell equals %1 within the rounding"_s.arg(m.referenceText);
    if (order || flip || transposed || swap || shift) {
        m.verdict = CheckVerdict::Mistake;
        m.correctAgainst.clear();
    }
    if (order) {
        m.mistakes = {kColumnsSwapped};
        m.columnsMoved = true;
        m.diagnosis = u"every cell is one of %1's, in another column: %2 (as when two channels, x and y or sin and "
                      "cos, are exchanged: physicsnemo#1096's meshgrid)"_s.arg(m.referenceText, orderWords(*order));
    } else if (flip) {
        m.mistakes = {CheckMistakes::kSignFlipped};
        if (flip->mirrored)
            m.mistakes.append(CheckMistakes::kRelativeReversed);
        m.diagnosis = u"every cell equals %1's but a block whose sign is flipped, each of its cells −x where the "
                      "reference holds x: %2 (%3)"_s.arg(m.referenceText, flip->where, flip->cause);
    } else if (transposed) {
        m.mistakes = {CheckMistakes::kRelativeReversed};
        m.diagnosis = u"every cell is %1's transposed, cell (i, j) its (j, i): the query and the key exchanged. The "
                      "reference is a function of the offset j − i; the table holds it at i − j (a relative position "
                      "taken as query − key where key − query is meant, as T5's compute_bias forms "
                      "memory_position − context_position)"_s.arg(m.referenceText);
    } else if (swap) {
        m.mistakes = {CheckMistakes::kGridAxesSwapped};
        m.diagnosis = TableAxesSwapped::words(*swap, table.rows()) + u"; compared with %1"_s.arg(m.referenceText);
    } else if (shift) {
        m.mistakes = {CheckMistakes::kPositionOffset};
        m.rowsMoved = true;
        m.positionOffset = -shift->by;
        m.firstPositionRow = shift->first;
        m.diagnosis = shiftWords(*shift, table.rows(), m.referenceText);
    }
    return m;
}

std::optional<QString> referenceReadError(const TableMatch &match)
{
    if (const auto *rows = dynamic_cast<const RowsReference *>(match.reference.get()))
        return rows->error();
    return std::nullopt;
}

} // namespace posenc::TableCheck
