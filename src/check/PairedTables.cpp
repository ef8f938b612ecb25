#include "check/PairedTables.h"

#include "check/FamilyCheck.h"
#include "check/TensorShapes.h"
#include "core/FamilySpec.h"

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::PairedTables {

namespace {

// Columns [first, first + count) of the rows: one of two tables side by side.
class ColumnRows final : public TableRows
{
public:
    ColumnRows(std::shared_ptr<const TableRows> rows, std::int64_t first, std::int64_t count)
        : m_rows(std::move(rows))
        , m_first(first)
        , m_count(count)
    { }
    std::int64_t rows() const override { return m_rows->rows(); }
    std::int64_t cols() const override { return m_count; }
    StoredType storedType() const override { return m_rows->storedType(); }
    double textRounding() const override { return m_rows->textRounding(); }
    QString name() const override { return m_rows->name(); }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t width = m_rows->cols();
        std::vector<float> whole(static_cast<std::size_t>(count * width));
        if (!m_rows->read(row0, count, whole.data(), error))
            return false;
        for (std::int64_t r = 0; r < count; ++r)
            std::copy_n(whole.data() + r * width + m_first, m_count, out + r * m_count);
        return true;
    }

private:
    std::shared_ptr<const TableRows> m_rows;
    std::int64_t m_first, m_count;
};

// The two whole tables' matches as the tensor's: the worse half's, its columns the file's, the
// other's verdict in a note.
TableMatch combineWhole(std::vector<TableMatch> halves, const QStringList &tables, std::int64_t half)
{
    const int worse = TensorShapes::verdictRank(halves[1].verdict) > TensorShapes::verdictRank(halves[0].verdict);
    TableMatch m = std::move(halves[std::size_t(worse)]);
    const TableMatch &other = halves[std::size_t(1 - worse)];
    const auto columns = [&](int index) { return u"columns %1..%2"_s.arg(index * half).arg(index * half + half - 1); };
    for (const QString &id : other.mistakes) {
        if (!m.mistakes.contains(id))
            m.mistakes.append(id);
    }
    QString otherWords = CheckWords::verdict(other.verdict);
    if (other.verdict != CheckVerdict::Correct && !other.diagnosis.isEmpty())
        otherWords += u": "_s + other.diagnosis;
    m.notes.prepend(u"the %1 half (%2) is %3"_s.arg(tables.value(1 - worse), columns(1 - worse), otherWords));
    m.notes.prepend(u"two whole tables side by side, [%1 | %2] of %3 columns each (HF's cos and sin caches "
                    "dumped together: cat(cos, sin) along the last dimension), each half checked as its table "
                    "(a column c the report names is the file's c + %4)"_s.arg(tables.value(0), tables.value(1))
                        .arg(half)
                        .arg(worse * half));
    if (m.verdict != CheckVerdict::Correct)
        m.diagnosis = u"the %1 half (%2): %3"_s.arg(tables.value(worse), columns(worse), m.diagnosis);
    else
        m.correctAgainst += u", the %1 and %2 halves side by side"_s.arg(tables.value(0), tables.value(1));
    if (m.worstColumn)
        *m.worstColumn += worse * half;
    return m;
}

} // namespace

std::optional<Reading> read(const std::shared_ptr<const TableRows> &rows, const Declared &declared,
                            const CheckHalf &check, bool &stopped)
{
    stopped = false;
    if (declared.otherReference)
        return std::nullopt;
    for (const FamilySpec &family : Families::all()) {
        const auto &paired = FamilyChecks::of(family.encoding).tensors.paired;
        bool adjacent = false;
        // Two whole tables: where the declared width is half the rows' (or none was given), and
        // the rows hold them.
        const std::int64_t half = rows->cols() / 2;
        bool whole = false;
        if (declared.family) {
            if (*declared.family != family.encoding || !paired)
                continue;
            const auto width = TensorShapes::declaredWidth(*declared.family, declared.params);
            const bool halfWidth
                = rows->cols() % 2 == 0 && (!declared.widthGiven || (width && 2 * width->first == rows->cols()));
            whole = halfWidth && paired->holdsWhole && paired->holdsWhole(*rows);
            // Else the declared width the whole tensor's (vLLM's cos_sin_cache), or each half's (a
            // cache of twice the declared width, its halves read by the family's `half`).
            if (!whole && (!width || (width->first != rows->cols() && 2 * width->first != rows->cols())))
                return std::nullopt;
            adjacent = width && width->second;
        } else {
            whole = paired && paired->holdsWhole && paired->holdsWhole(*rows);
        }
        if (!paired || (!whole && !paired->holds(*rows)))
            continue;
        std::vector<TableMatch> halves;
        for (int index = 0; index < 2; ++index) {
            const auto part
                = whole ? std::make_shared<ColumnRows>(rows, index * half, half) : paired->half(rows, index, adjacent);
            auto checked = check(part, index, declared.family ? paired->tables.value(index) : QString());
            if (!checked) {
                stopped = true;
                return std::nullopt;
            }
            halves.push_back(std::move(*checked));
        }
        const auto theFamilys = [&](const TableMatch &h) { return h.family == family.encoding; };
        if (!declared.family && !std::all_of(halves.begin(), halves.end(), theFamilys))
            continue;
        Reading reading;
        reading.worse
            = TensorShapes::verdictRank(halves[1].verdict) > TensorShapes::verdictRank(halves[0].verdict) ? 1 : 0;
        // The pair's deviating rows: either half's, counted in each (a row both deviate in twice).
        const auto deviating = [&]() -> std::optional<std::int64_t> {
            if (!halves[0].deviatingRows || !halves[1].deviatingRows)
                return std::nullopt;
            return *halves[0].deviatingRows + *halves[1].deviatingRows;
        }();
        const std::optional<std::int64_t> compared = halves[0].comparedRows;
        reading.match = whole ? combineWhole(std::move(halves), paired->tables, half)
                              : paired->combine(std::move(halves[0]), std::move(halves[1]), half, adjacent);
        reading.match.deviatingRows = deviating;
        reading.match.comparedRows = compared;
        return reading;
    }
    return std::nullopt;
}

std::optional<Halves> halvesAsReference(const std::shared_ptr<const TableRows> &table,
                                        const std::shared_ptr<const TableRows> &reference)
{
    if (table->cols() != reference->cols() || table->rows() != reference->rows())
        return std::nullopt;
    const std::int64_t half = reference->cols() / 2;
    for (const FamilySpec &family : Families::all()) {
        const auto &paired = FamilyChecks::of(family.encoding).tensors.paired;
        if (!paired)
            continue;
        const bool whole = paired->holdsWhole && paired->holdsWhole(*reference);
        if (!whole && !paired->holds(*reference))
            continue;
        Halves halves {family.encoding, paired->tables, whole, {}, {}};
        for (int index = 0; index < 2; ++index) {
            const auto take = [&](const std::shared_ptr<const TableRows> &rows) -> std::shared_ptr<const TableRows> {
                if (whole)
                    return std::make_shared<ColumnRows>(rows, index * half, half);
                return paired->half(rows, index, false);
            };
            halves.table[index] = take(table);
            halves.reference[index] = take(reference);
        }
        return halves;
    }
    return std::nullopt;
}

bool pairIsBetter(const TableMatch &table, const TableMatch &pair)
{
    const int tableRank = TensorShapes::verdictRank(table.verdict);
    const int pairRank = TensorShapes::verdictRank(pair.verdict);
    // A mistake the pair's reference names beats a table no formula explains (learned, unknown); so
    // does a pair whose rows but a few damaged ones are its reference's (at most StrayRows::most of
    // those compared, as a table of one form bears them): vLLM's long_short_cos_sin_cache with a
    // damaged row, as its cos alone is read.
    const bool noFormula = table.verdict == CheckVerdict::Learned || table.verdict == CheckVerdict::Unknown;
    const bool fewDamaged = pair.deviatingRows && pair.comparedRows && *pair.comparedRows > 0
        && *pair.deviatingRows <= StrayRows::most(*pair.comparedRows);
    if (pair.verdict == CheckVerdict::Mistake && (!pair.mistakes.isEmpty() || fewDamaged) && noFormula)
        return true;
    return pairRank < tableRank || (pairRank == tableRank && table.verdict != CheckVerdict::Correct);
}

TableMatch betterReading(TableMatch table, TableMatch pair)
{
    const bool takePair = pairIsBetter(table, pair);
    TableMatch &kept = takePair ? pair : table;
    const TableMatch &other = takePair ? table : pair;
    QString what = CheckWords::verdict(other.verdict);
    if (!other.referenceText.isEmpty())
        what += u" against "_s + other.referenceText;
    kept.notes.prepend(takePair ? u"read as one table, it is %1"_s.arg(what)
                                : u"read as a cos|sin cache (vLLM's cos_sin_cache: each half the cos or sin of "
                                  "the rotary frequencies), it is %1"_s.arg(what));
    return std::move(kept);
}

} // namespace posenc::PairedTables
