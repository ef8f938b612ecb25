#include "check/PairedTables.h"

#include "check/FamilyCheck.h"
#include "check/TensorShapes.h"
#include "core/FamilySpec.h"

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::PairedTables {

std::optional<Reading> read(const std::shared_ptr<const TableRows> &rows, const Declared &declared,
                            const CheckHalf &check, bool &stopped)
{
    stopped = false;
    if (declared.otherReference)
        return std::nullopt;
    for (const FamilySpec &family : Families::all()) {
        const auto &paired = FamilyChecks::of(family.encoding).tensors.paired;
        bool adjacent = false;
        if (declared.family) {
            if (*declared.family != family.encoding || !paired)
                continue;
            const auto width = TensorShapes::declaredWidth(*declared.family, declared.params);
            if (!width || width->first != rows->cols())
                return std::nullopt;
            adjacent = width->second;
        }
        if (!paired || !paired->holds(*rows))
            continue;
        std::vector<TableMatch> halves;
        for (int index = 0; index < 2; ++index) {
            auto checked = check(paired->half(rows, index, adjacent), index,
                                 declared.family ? paired->tables.value(index) : QString());
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
        reading.match = paired->combine(std::move(halves[0]), std::move(halves[1]), rows->cols() / 2, adjacent);
        reading.match.deviatingRows = deviating;
        reading.match.comparedRows = compared;
        return reading;
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
