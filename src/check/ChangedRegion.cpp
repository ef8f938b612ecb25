#include "ChangedRegion.h"

#include "check/CheckDiagnosis.h"
#include "check/MaskFill.h"
#include "check/TableReference.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::ChangedRegion {

namespace {

// How far a shifted block may have moved: a few rows or columns.
constexpr std::int64_t kMaxShift = 4;

// A cell beyond the reference's tolerance.
struct Changed
{
    std::int64_t index; // the sample's row
    std::int64_t row;
    std::int64_t col;
    double value;
    double reference;
    double limit;
};

bool within(double a, double b, double limit)
{
    return a == b || std::fabs(a - b) <= limit;
}

// A cell the mask fills (MaskFill::kBelow: −inf, float32's or bfloat16's lowest) that holds a value.
bool unmasked(double value, double reference)
{
    return reference <= MaskFill::kBelow && !(value <= MaskFill::kBelow);
}

// The reference's rows, each computed once when first asked for.
class ReferenceRows
{
public:
    ReferenceRows(const TableReference &reference, std::int64_t rows)
        : reference_(reference)
        , rows_(rows)
    { }

    // Reference cell (row, col), the rows taken round the table's end (a block rolled past it).
    double at(std::int64_t row, std::int64_t col)
    {
        row = ((row % rows_) + rows_) % rows_;
        auto found = rows_cache_.find(row);
        if (found == rows_cache_.end()) {
            RowMatrixXf values(1, reference_.cols());
            reference_.fill({row, 1, 0, reference_.cols()}, values);
            found = rows_cache_.emplace(row, std::move(values)).first;
        }
        return double(found->second(0, col));
    }
    bool compared(std::int64_t row) const { return reference_.compared(((row % rows_) + rows_) % rows_); }

private:
    const TableReference &reference_;
    std::int64_t rows_;
    std::map<std::int64_t, RowMatrixXf> rows_cache_;
};

struct Reading
{
    std::int64_t compared = 0; // the sample's cells compared
    std::vector<Changed> changed;
};

Reading changedCells(const TableMatch &match, const TableSample &sample, ReferenceRows &reference)
{
    Reading reading;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (!match.reference->compared(row))
            continue;
        const double position = double(match.reference->position(row));
        reading.compared += sample.cols();
        for (std::int64_t c = 0; c < sample.cols(); ++c) {
            const double ref = reference.at(row, c);
            const double value = sample.values(i, c);
            const double limit = match.tolerance.limit(ref, c, position) + kCellRoundingMargin * sample.extraAt(i, c);
            if (!within(value, ref, limit))
                reading.changed.push_back({i, row, c, value, ref, limit});
        }
    }
    return reading;
}

// The rows (dr) or columns (dc) by which every changed cell holds the reference's cell moved, if
// one such move explains all of them: rows round the table's end (a roll), columns within it.
std::optional<std::pair<std::int64_t, std::int64_t>> shift(const Reading &reading, ReferenceRows &reference,
                                                           std::int64_t cols)
{
    for (std::int64_t k = 1; k <= kMaxShift; ++k) {
        for (const auto &move : {std::pair {k, 0L}, {-k, 0L}, {0L, k}, {0L, -k}}) {
            const std::int64_t dr = move.first, dc = move.second;
            const bool all = std::all_of(reading.changed.begin(), reading.changed.end(), [&](const Changed &x) {
                const std::int64_t col = x.col - dc;
                if (col < 0 || col >= cols || !reference.compared(x.row - dr))
                    return false;
                const double moved = reference.at(x.row - dr, col);
                return std::isfinite(moved) && within(x.value, moved, x.limit);
            });
            if (all)
                return move;
        }
    }
    return std::nullopt;
}

// "from 1 row above": cell (r, c) holds the reference's cell (r - dr, c - dc).
QString shiftWords(std::pair<std::int64_t, std::int64_t> s)
{
    const auto [dr, dc] = s;
    const std::int64_t n = std::abs(dr != 0 ? dr : dc);
    const QString unit = dr != 0 ? (n == 1 ? u"row"_s : u"rows"_s) : (n == 1 ? u"column"_s : u"columns"_s);
    const QString side = dr > 0 ? u"above"_s : dr < 0 ? u"below"_s : dc > 0 ? u"to the left"_s : u"to the right"_s;
    return u"hold its cells from %1 %2 %3"_s.arg(n).arg(unit, side);
}

TableMatch named(TableMatch m, const QString &id, const QString &what)
{
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {id};
    m.correctAgainst.clear();
    m.diagnosis = u"the table is %1 but for a region whose cells %2"_s.arg(m.referenceText, what);
    return m;
}

} // namespace

std::int64_t unmaskedCells(const TableReference &reference, const TableSample &sample)
{
    std::int64_t count = 0;
    RowMatrixXf row(1, sample.cols());
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t r = sample.rows[std::size_t(i)];
        if (r >= reference.rows() || !reference.compared(r))
            continue;
        reference.fill({r, 1, 0, sample.cols()}, row);
        for (std::int64_t c = 0; c < sample.cols(); ++c)
            count += unmasked(double(sample.values(i, c)), double(row(0, c)));
    }
    return count;
}

std::optional<TableMatch> read(TableMatch partial, const TableSample &sample)
{
    if (!partial.reference)
        return std::nullopt;
    ReferenceRows rows(*partial.reference, sample.tableRows);
    const Reading reading = changedCells(partial, sample, rows);
    // The cells a mask fills but the table does not count apart: its other cells decide the share.
    const auto filled = std::count_if(reading.changed.begin(), reading.changed.end(),
                                      [](const Changed &x) { return unmasked(x.value, x.reference); });
    if ((std::int64_t(reading.changed.size()) - filled) * 2 > reading.compared - filled)
        return std::nullopt;
    if (reading.changed.size() < 2)
        return partial; // the stream names a cell or two as it does for any match
    const Changed &first = reading.changed.front();
    const auto same = [&](auto &&f) { return std::all_of(reading.changed.begin(), reading.changed.end(), f); };
    if (same([&](const Changed &x) { return x.value == first.value; })) {
        // Whole rows of zeros are left to the stream (TableCheck::streamDeclared, nameZeroRows):
        // whether a row of the reference is zeros too, and whether the user gave the reference,
        // decide what they are (a padding mask's rows or a buffer never filled).
        if (first.value == 0.0
            && same([&](const Changed &x) { return sample.values.row(x.index).cwiseAbs().maxCoeff() == 0.0f; }))
            return partial;
        const bool masked = same([](const Changed &x) { return x.reference <= MaskFill::kBelow; });
        return named(std::move(partial), CheckMistakes::kCellsOverwritten,
                     masked ? u"hold %1 where it holds %2, the causal mask's"_s.arg(
                         NumberText::compact(first.value, 6),
                         std::isinf(first.reference) ? u"−inf"_s : NumberText::compact(first.reference, 6))
                            : u"all hold %1"_s.arg(NumberText::compact(first.value, 6)));
    }
    const double offset = first.value - first.reference;
    // One constant added in float32 rounds each sum at its own magnitude: the offsets agree within
    // a float32 step of the larger value, beside the two cells' tolerances.
    const auto offsetLimit = [&](const Changed &x) {
        return x.limit + first.limit + 0x1p-23 * std::max(std::fabs(x.value), std::fabs(first.value));
    };
    if (std::isfinite(offset) && same([&](const Changed &x) {
            return std::isfinite(x.value) && within(x.value - x.reference, offset, offsetLimit(x));
        }))
        return named(std::move(partial), CheckMistakes::kCellsOffset,
                     u"hold its cells plus %1"_s.arg(NumberText::compact(offset, 4)));
    // Every changed cell the reference's negated: a block whose sign is flipped (speechbrain#3070).
    if (same([&](const Changed &x) { return std::isfinite(x.value) && within(x.value, -x.reference, x.limit); }))
        return named(std::move(partial), CheckMistakes::kSignFlipped, u"hold its cells negated"_s);
    if (const auto moved = shift(reading, rows, sample.cols()))
        return named(std::move(partial), CheckMistakes::kCellsShifted, shiftWords(*moved));
    TableMatch m = std::move(partial);
    m.verdict = CheckVerdict::Unknown;
    m.mistakes.clear();
    m.correctAgainst.clear();
    m.unreferenced = CheckDiagnosis::noReference();
    m.diagnosis = u"most of the table equals %1, and %2 of the %3 cells sampled do not, in no way the check can "
                  "name: a form it does not know, or a change to the table"_s.arg(m.referenceText)
                      .arg(reading.changed.size())
                      .arg(sample.size() * sample.cols());
    return m;
}

} // namespace posenc::ChangedRegion
