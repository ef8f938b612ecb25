// TableCheck's conclusion: what the stream of every row found, into the match's verdict
// (docs/ARCHITECTURE.md, Checking a table).
#include "TableCheck.h"

#include "check/CheckDiagnosis.h"
#include "check/DeviationRegion.h"
#include "check/FamilyCheck.h"
#include "core/NumberText.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

void conclude(TableMatch &match, const Verification &v)
{
    if (!match.reference)
        return;
    if (v.exactShare || v.flat) {
        // Fitted as float32 angles, streamed as exact ones (verify): the table's precision is theirs.
        match.tolerance.perPosition.clear();
        match.precision = TablePrecision::Exact;
        match.notes.removeAll(CheckDiagnosis::float32AnglesNote());
        match.notes.append(v.exactShare ? CheckDiagnosis::exactNotFloat32Note(*v.exactShare)
                                        : CheckDiagnosis::flatNotFloat32Note(*v.angleEvidence));
        // A family with a float32-angles setting of its own clears it.
        if (match.params) {
            if (const auto &table = FamilyChecks::of(match.params->encoding).table; table && table->exactAngles)
                table->exactAngles(*match.params);
        }
    }
    if (!v.exactShare && !v.flat && v.angleEvidence)
        match.angleEvidence = v.angleEvidence;
    if (v.float32Angles) {
        match.tolerance = *v.float32Angles;
        if (match.precision == TablePrecision::Exact)
            match.precision = TablePrecision::Float32Angles;
        if (!match.notes.contains(CheckDiagnosis::float32AnglesNote()))
            match.notes.append(CheckDiagnosis::float32AnglesNote());
    }
    match.maxAbsError = v.maxAbsError;
    match.worstRow = v.worstRow;
    match.worstColumn = v.worstColumn;
    match.comparedRows = v.comparedRows;
    match.deviatingRows = v.deviatingRows;
    if (v.deviatingCells == 0)
        return;
    std::vector<std::int64_t> columns;
    for (std::size_t c = 0; c < v.columnDeviations.size(); ++c) {
        if (v.columnDeviations[c] > 0)
            columns.push_back(std::int64_t(c));
    }
    QString rows;
    if (v.deviatingRows <= std::int64_t(v.someDeviatingRows.size())) {
        rows = CheckDiagnosis::indexSet(v.someDeviatingRows, v.comparedRows, u"row"_s);
    } else {
        QStringList first;
        for (std::size_t i = 0; i < std::min<std::size_t>(v.someDeviatingRows.size(), 4); ++i)
            first.append(QString::number(v.someDeviatingRows[i]));
        rows = u"rows %1, ... %2 (%3 of %4)"_s.arg(first.join(u", "_s))
                   .arg(v.lastDeviatingRow)
                   .arg(v.deviatingRows)
                   .arg(v.comparedRows);
    }
    match.deviations = u"%1; %2"_s.arg(
        CheckDiagnosis::indexSet(columns, std::int64_t(v.columnDeviations.size()), u"column"_s), rows);
    // A region read from the sample (ChangedRegion: negated, overwritten, offset, shifted) is the
    // streamed deviation: the diagnosis says where it lies.
    const bool region = std::any_of(match.mistakes.begin(), match.mistakes.end(), [](const QString &id) {
        return id == CheckMistakes::kSignFlipped || id == CheckMistakes::kCellsOverwritten
            || id == CheckMistakes::kCellsOffset || id == CheckMistakes::kCellsShifted;
    });
    const QString lie = region ? DeviationRegion::where({v.deviatingRowRuns, v.deviatingRows, v.comparedRows,
                                                         v.columnDeviations, v.deviatingCells, v.comparedRows})
                               : QString();
    if (!lie.isEmpty() && match.verdict == CheckVerdict::Mistake && !match.diagnosis.contains(u"they lie"_s))
        match.diagnosis += u": they lie "_s + lie;
    if (match.verdict != CheckVerdict::Correct && match.verdict != CheckVerdict::Variant)
        return;
    // A variant of a half-precision table (bfloat16, float16) is read at parameters fitted to cells of
    // that rounding, which pin each frequency no closer: near a zero of cos or sin, where the format
    // is finest, the reading's own angle may miss a faithful cell. Cells within the format's rounding
    // at the amplitude are that fit's error as much as the table's: unknown, never mistake (issue 56).
    const double rounding = match.tolerance.relative * match.tolerance.amplitude + match.tolerance.absolute;
    if (match.verdict == CheckVerdict::Variant && match.tolerance.relative >= halfUnit(ValueFormat::Float16)
        && v.deviationError >= 0.0 && v.deviationError <= rounding) {
        match.verdict = CheckVerdict::Unknown;
        match.notes.prepend(match.diagnosis);
        match.diagnosis
            = u"read as %1 at parameters fitted to its half-precision cells: %2 cells past that "
              "reading's tolerance are off by at most %3, within the format's rounding at the amplitude (%4), "
              "which the fitted frequencies' own error reaches; no deviation is shown (declare the "
              "reference, --expect, to judge the table)"_s.arg(match.referenceText)
                  .arg(v.deviatingCells)
                  .arg(NumberText::compact(v.deviationError, 3), NumberText::compact(rounding, 3));
        return;
    }
    // A reference fitted freely from the sample: cells just past its rounding are its own error.
    if (!match.freeFit.isEmpty() && match.verdict == CheckVerdict::Variant && v.maxAbsError <= FreeFit::kResidual) {
        match.verdict = CheckVerdict::Unknown;
        match.notes.prepend(match.diagnosis);
        match.diagnosis
            = u"read as %1, fitted from the sampled rows with a number per pair: %2 cells lie past "
              "that fit's rounding by at most %3, which is the fit's own error as much as the table's; "
              "no deviation is shown (declare the reference, --expect, to judge the table)"_s.arg(match.freeFit)
                  .arg(v.deviatingCells)
                  .arg(NumberText::compact(v.maxAbsError, 3));
        return;
    }
    // No mistake was named, yet cells deviate: the table is the reference but for them. The cell
    // named is the worst of those beyond the tolerance, which the largest error may not be.
    match.verdict = CheckVerdict::Mistake;
    match.correctAgainst.clear();
    const QString where = u"row %1, column %2"_s.arg(v.deviationRow).arg(v.deviationColumn);
    match.diagnosis = v.deviatingCells == 1
        ? u"one cell deviates: %1 is off by %2 from %3; every other cell is within the rounding"_s.arg(
            where, NumberText::compact(v.deviationError, 3), match.referenceText)
        : u"%1 cells deviate from %2 beyond the rounding, the largest at %3 (off by %4)"_s.arg(v.deviatingCells)
              .arg(match.referenceText, where, NumberText::compact(v.deviationError, 3));
}

} // namespace posenc::TableCheck
