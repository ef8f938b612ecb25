// The declared path names the structural readings (DeclaredStructure.h).
#include "DeclaredStructure.h"

#include "check/CellTolerance.h"
#include "check/DeclaredWords.h"
#include "check/PairReference.h"
#include "check/RowConstant.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

// Positions of the declared reference a repeated row is sought among, beyond the table's own.
constexpr std::int64_t kSearchedRows = 4096;
constexpr std::int64_t kBlockRows = 256;

bool structural(const QStringList &mistakes)
{
    return !mistakes.isEmpty() && std::all_of(mistakes.begin(), mistakes.end(), [](const QString &id) {
        return id == CheckMistakes::kSameRow || id == CheckMistakes::kTransposed || id == RowConstant::kFollowsQuery;
    });
}

// The tolerance a repeated row is sought with: the declared one, and for a reference of angles
// whose tolerance does not grow with the position, float32 angles' allowance added, as the stream
// widens it before it calls a row deviating (TableStream's verify): a float32 row at position 1000
// is 1.4e-5 from the exact one, and is that position's row all the same.
CellTolerance searchTolerance(const TableMatch &declared)
{
    CellTolerance tolerance = declared.tolerance;
    const auto *pairs = dynamic_cast<const PairReference *>(declared.reference.get());
    if (pairs && tolerance.perPosition.empty())
        tolerance.perPosition
            = cellTolerance(ValueFormat::Float32, true, StoredType::Float32, 0.0, pairs->spec()).perPosition;
    return tolerance;
}

// The first row of the declared reference (rows 0 .. `rows` + kSearchedRows) equal to `row` within
// the tolerance a faithful computation of it allows (searchTolerance), if one is.
std::optional<std::int64_t> referenceRowOf(const TableMatch &declared, const std::vector<float> &row, std::int64_t rows)
{
    const TableReference &reference = *declared.reference;
    const auto cols = std::int64_t(row.size());
    if (reference.cols() != cols)
        return std::nullopt;
    const CellTolerance tolerance = searchTolerance(declared);
    std::optional<std::int64_t> found;
    // A grid's reference ends at its last patch (TableReference::rows).
    const std::int64_t last = std::min(rows + kSearchedRows, reference.rows());
    for (std::int64_t r0 = 0; r0 < last && !found; r0 += kBlockRows) {
        const std::int64_t blockRows = std::min(kBlockRows, last - r0);
        std::vector<char> differs(std::size_t(kBlockRows), 0);
        reference.forEachTile(Block {r0, blockRows, 0, cols}, [&](const TableReference::Tile &t) {
            for (std::int64_t r = 0; r < t.rows; ++r) {
                const float *values = t.values + r * t.stride;
                char &bad = differs[std::size_t(t.row0 + r - r0)];
                // The tolerance at the row's position (a window's, float32 angles' error growing with it).
                const auto position = double(reference.position(t.row0 + r));
                for (std::int64_t c = 0; c < t.cols && !bad; ++c) {
                    const double limit = tolerance.limit(values[c], t.col0 + c, position);
                    bad = !(std::fabs(double(row[std::size_t(t.col0 + c)]) - double(values[c])) <= limit)
                        && row[std::size_t(t.col0 + c)] != values[c];
                }
            }
        });
        for (std::int64_t r = 0; r < blockRows; ++r) {
            if (!differs[std::size_t(r)] && reference.compared(r0 + r)) {
                found = r0 + r;
                break;
            }
        }
    }
    return found;
}

} // namespace

bool firstRowIsReferenceRow(const TableMatch &candidate, const TableRows &table)
{
    if (!candidate.reference || table.rows() == 0)
        return false;
    const std::int64_t at = std::clamp<std::int64_t>(candidate.firstPositionRow.value_or(0), 0, table.rows() - 1);
    std::vector<float> row(std::size_t(table.cols()));
    QString error;
    return table.read(at, 1, row.data(), error)
        && referenceRowOf(candidate, row, std::min(table.rows(), kSearchedRows)).has_value();
}

bool nameDeclaredStructure(TableMatch &declared, const TableMatch &read, const TableRows &table)
{
    if (declared.verdict != CheckVerdict::Mistake || !declared.mistakes.isEmpty() || declared.deviations.isEmpty()
        || read.verdict != CheckVerdict::Mistake || !structural(read.mistakes))
        return false;
    declared.mistakes = read.mistakes;
    declared.notes.prepend(declared.diagnosis);
    declared.diagnosis = read.diagnosis;
    if (!read.mistakes.contains(CheckMistakes::kSameRow) || !declared.reference)
        return true;
    const std::int64_t at = std::clamp<std::int64_t>(read.firstPositionRow.value_or(0), 0, table.rows() - 1);
    std::vector<float> row(std::size_t(table.cols()));
    QString error;
    if (!table.read(at, 1, row.data(), error))
        return true;
    // The positions meant: the declared reference's rows, from its first (a window's, --positions
    // 1000:1002), else the first L.
    const std::int64_t first = declared.reference->position(0), last = first + table.rows() - 1;
    const QString meant = first != 0 ? u"positions %1..%2 are"_s.arg(first).arg(last) : u"the first L are"_s;
    const QString slice = first != 0 ? u"%1:%2"_s.arg(first).arg(last + 1) : u":L"_s;
    if (const auto position = referenceRowOf(declared, row, table.rows()))
        declared.diagnosis += u"; the row repeated is %3 row %1 (position %2), as when one position "
                              "is indexed where %4 meant (pe[:, %2] for pe[:, %5])"_s.arg(*position)
                                  .arg(declared.reference->position(*position))
                                  .arg(DeclaredWords::referenceOf(), meant, slice);
    else
        declared.diagnosis += u"; the row repeated is none of %2 first %1 rows"_s
                                  .arg(std::min(table.rows() + kSearchedRows, declared.reference->rows()))
                                  .arg(DeclaredWords::referenceOf());
    return true;
}

} // namespace posenc::TableCheck
