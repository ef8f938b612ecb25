#include "TableRowRuns.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

constexpr std::int64_t kRunMaxCells = std::int64_t(1) << 22;

struct WholeTable
{
    std::int64_t rows = 0, cols = 0;
    std::vector<float> cells;
    const float *row(std::int64_t r) const { return cells.data() + r * cols; }
};

std::optional<WholeTable> readWhole(const TableRows &rows)
{
    WholeTable t {rows.rows(), rows.cols(), std::vector<float>(std::size_t(rows.rows() * rows.cols()))};
    QString error;
    if (!rows.read(0, t.rows, t.cells.data(), error))
        return std::nullopt;
    return t;
}

// Rows equal within `tolerance` in every cell.
bool sameRow(const float *x, const float *y, std::int64_t cols, double tolerance)
{
    for (std::int64_t c = 0; c < cols; ++c) {
        if (!(std::fabs(double(x[c]) - double(y[c])) <= tolerance))
            return false;
    }
    return true;
}

// A part of the run: rows [from, to) of `moved` are `other`'s rows [from - shift, to - shift).
struct Segment
{
    std::int64_t from = 0, to = 0, shift = 0;
};

constexpr std::size_t kMaxSegments = 64;
// A part is a run of rows, a document's or a cache's: one row equal to another is no move of rows.
constexpr std::int64_t kMinPart = 4;

// The run [a, b) of `moved` cut into parts, each `other`'s rows from elsewhere: from each part's
// first row, the one row of `other` equal to it; nothing where a part's first row is in no row of
// `other` or in more than one, or the parts are more than kMaxSegments.
std::optional<std::vector<Segment>> segments(const WholeTable &moved, const WholeTable &other, std::int64_t a,
                                             std::int64_t b, double tolerance)
{
    std::vector<Segment> parts;
    for (std::int64_t r = a; r < b;) {
        Segment best;
        bool matched = false;
        for (std::int64_t i = 0; i < other.rows; ++i) {
            if (i == r || !sameRow(moved.row(r), other.row(i), moved.cols, tolerance))
                continue;
            // A row equal to two rows of the other holds no one position (rows of a constant, a
            // table with no position in it); one scan of `other` a part keeps the search linear.
            if (std::exchange(matched, true))
                return std::nullopt;
            std::int64_t end = r + 1;
            while (end < b && end - (r - i) < other.rows
                   && sameRow(moved.row(end), other.row(end - (r - i)), moved.cols, tolerance))
                ++end;
            if (end - r > best.to - best.from)
                best = {r, end, r - i};
        }
        if (best.to - best.from < kMinPart || parts.size() == kMaxSegments)
            return std::nullopt;
        parts.push_back(best);
        r = best.to;
    }
    return parts;
}

} // namespace

void nameRowRun(TableMatch &match, const TableRows &table, const TableRows &reference)
{
    if (match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty() || table.rows() != reference.rows()
        || table.cols() != reference.cols() || table.rows() < 4 || table.rows() * table.cols() > kRunMaxCells)
        return;
    const auto mine = readWhole(table), theirs = readWhole(reference);
    if (!mine || !theirs)
        return;
    double largest = 0.0;
    for (const float v : theirs->cells)
        largest = std::max(largest, double(std::fabs(v)));
    if (!(largest > 0.0) || !std::isfinite(largest))
        return;
    // Rows equal to float32's rounding of the largest value several times over: a row of another
    // position differs from it by far more in its fast columns.
    const double tolerance = 64.0 * 0x1p-24 * largest + table.textRounding() + reference.textRounding();
    std::vector<std::int64_t> deviating;
    for (std::int64_t r = 0; r < mine->rows; ++r) {
        if (!sameRow(mine->row(r), theirs->row(r), mine->cols, tolerance))
            deviating.push_back(r);
    }
    if (deviating.empty() || deviating.back() - deviating.front() + 1 != std::int64_t(deviating.size()))
        return;
    const std::int64_t a = deviating.front(), b = deviating.back() + 1;
    // The reference's run holds the table's rows from elsewhere, else the table's the reference's.
    auto parts = segments(*theirs, *mine, a, b, tolerance);
    const bool theirsMoved = parts.has_value();
    if (!parts)
        parts = segments(*mine, *theirs, a, b, tolerance);
    if (!parts)
        return;
    // Part by part: rows [from, to) hold positions |shift| higher or lower in the table than the
    // reference's there, one side restarting at 0 where the shift is the part's first row.
    QStringList said;
    for (const Segment &part : *parts) {
        const std::int64_t shift = theirsMoved ? part.shift : -part.shift;
        const std::int64_t first = part.from - part.shift, last = part.to - 1 - part.shift;
        const QString restart = part.shift == part.from
            ? (theirsMoved ? u": the reference restarts there at the table's row 0, the table runs on"_s
                           : u": the table restarts there at the reference's row 0, the reference runs on"_s)
            : QString();
        said.append(u"rows %1..%2 hold positions %3 %4 than the reference's rows there (the %5's rows %1..%2 are the "
                    "%6's rows %7..%8%9)"_s.arg(part.from)
                        .arg(part.to - 1)
                        .arg(std::abs(shift))
                        .arg(shift > 0 ? u"higher"_s : u"lower"_s)
                        .arg(theirsMoved ? u"reference"_s : u"table"_s, theirsMoved ? u"table"_s : u"reference"_s)
                        .arg(first)
                        .arg(last)
                        .arg(restart));
    }
    const bool restarts = std::any_of(parts->begin(), parts->end(), [](const Segment &p) { return p.shift == p.from; });
    const QString agree = a == 0 && b == mine->rows ? QString()
        : a == 0                                    ? u"; rows %1.. agree"_s.arg(b)
        : b == mine->rows                           ? u"; rows 0..%1 agree"_s.arg(a - 1)
                                                    : u"; the rows before and after agree"_s;
    match.mistakes = {CheckMistakes::kPositionOffset};
    match.notes.prepend(match.diagnosis);
    match.diagnosis = u"position-offset: %1%2%3"_s.arg(
        said.join(u"; "_s), agree,
        restarts ? u" (positions-not-restarted where the table runs on: rows at 0..L-1 where a packed batch's "
                   "position_ids restart at each document's start)"_s
                 : QString());
}

} // namespace posenc::TableCheck
