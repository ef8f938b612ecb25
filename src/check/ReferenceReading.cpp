#include "ReferenceReading.h"

#include "check/DeclaredReading.h"
#include "check/DeclaredWords.h"
#include "check/FamilyCheck.h"
#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

bool referenceReadingCancelled(const StreamOptions &options)
{
    return options.cancel && options.cancel->load();
}

// A table read as posenc check reads it without a declaration: identified from its sample, then
// every row streamed (a reading its rows do not bear out names nothing).
std::optional<TableMatch> readWithoutDeclaration(const TableRows &table, const StreamOptions &options)
{
    auto identified = identify(table, Declared {}, options.cancel);
    auto *read = std::get_if<TableMatch>(&identified);
    if (!read)
        return std::nullopt;
    DeclaredRows rows;
    rows.candidates.push_back(std::move(*read));
    auto streamed = streamDeclared(std::move(rows), table, options);
    if (auto *done = std::get_if<Streamed>(&streamed))
        return std::move(done->match);
    return std::nullopt;
}

// The table and the reference table both the reading, each at its own precision (float32 angles
// against exact ones): their cells differ by what a faithful computation at the table's precision
// gives, no mistake. Correct against the reading, which the file is too; the file's difference said.
void correctAtItsPrecision(TableMatch &match, const TableMatch &read, const QString &reads)
{
    const QString file = match.referenceText;
    const QString byFile = match.maxAbsError
        ? u"cell by cell it differs from %1 by up to %2 (row %3, column %4), beyond the two formats' rounding but "
          "within its own precision's"_s.arg(file, NumberText::compact(*match.maxAbsError, 3))
              .arg(match.worstRow.value_or(-1))
              .arg(match.worstColumn.value_or(-1))
        : QString();
    const QStringList notes = match.notes;
    match = read;
    match.referenceText = u"%1, read as %2"_s.arg(file, read.referenceText);
    match.correctAgainst = u"%1, which %2 is too"_s.arg(read.referenceText, file);
    match.diagnosis = u"%1; the table is that reading at its own precision: %2"_s.arg(reads, read.diagnosis);
    if (!byFile.isEmpty())
        match.notes.prepend(byFile);
    match.notes += notes;
}

} // namespace

bool nameByReferenceReading(TableMatch &match, const TableRows &table, const TableRows &reference,
                            const StreamOptions &options)
{
    // Rows moved (TableRowShift) are named again as the family's mistake where the reference reads as one.
    if (match.verdict != CheckVerdict::Mistake || !(match.mistakes.isEmpty() || match.rowsMoved))
        return true;
    StreamOptions quiet = options;
    quiet.progress = nullptr;
    const std::optional<TableMatch> form = readWithoutDeclaration(reference, quiet);
    if (referenceReadingCancelled(options))
        return false;
    if (!form || !form->family || form->table.isEmpty() || !FamilyChecks::of(*form->family).table)
        return true;
    const bool ofFamily = form->verdict == CheckVerdict::Correct || form->verdict == CheckVerdict::Variant;
    // A family whose reading leaves the rows' positions open (M-RoPE's prompt) reads them from the
    // reference's every row.
    const auto &fromRows = FamilyChecks::of(*form->family).table->referenceParams;
    const std::optional<Params> params = ofFamily            ? form->params
        : form->verdict == CheckVerdict::Unknown && fromRows ? fromRows(reference, *form)
                                                             : std::nullopt;
    if (!params)
        return true;
    // Every row of the reference is the family's at these parameters: the table checked as if
    // they had been declared, the mistake named as a declared family's is, its sentences said of
    // the reference table's reading (DeclaredWords) where they are made.
    const DeclaredWords::Scope words(DeclaredWords::By::ReferenceTable);
    auto expected = expect(table, *form->family, *params, form->table, options.cancel);
    auto *declared = std::get_if<TableMatch>(&expected);
    if (referenceReadingCancelled(options))
        return false;
    if (!declared)
        return true;
    const QString readText = ofFamily ? form->referenceText : declared->referenceText;
    DeclaredRows rows;
    rows.candidates.push_back(std::move(*declared));
    auto identified = identify(table, Declared {}, options.cancel);
    if (auto *read = std::get_if<TableMatch>(&identified))
        rows.readAs = std::move(*read);
    rows.family = *form->family;
    rows.params = *params;
    rows.by = DeclaredWords::By::ReferenceTable;
    auto streamed = streamDeclared(std::move(rows), table, quiet);
    if (referenceReadingCancelled(options))
        return false;
    const auto *asForm = std::get_if<Streamed>(&streamed);
    const QString reads = u"the reference table reads, without a declaration, as %1"_s.arg(readText);
    if (asForm && asForm->match.verdict == CheckVerdict::Correct) {
        correctAtItsPrecision(match, asForm->match, reads);
        return true;
    }
    if (!asForm || asForm->match.verdict != CheckVerdict::Mistake || asForm->match.mistakes.isEmpty()) {
        match.notes.prepend(reads);
        return true;
    }
    match.mistakes = asForm->match.mistakes;
    match.positionOffset = asForm->match.positionOffset;
    match.firstPositionRow = asForm->match.firstPositionRow;
    // The unexplained sentence it replaces is not kept: the deviating cells are said above it.
    match.diagnosis = u"%1; against it, %2"_s.arg(reads, asForm->match.diagnosis);
    return true;
}

void unknownWithinSummation(TableMatch &match)
{
    if (match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty() || !match.maxAbsError
        || match.referenceLargest <= 0.0)
        return;
    const double units = *match.maxAbsError / std::ldexp(match.referenceLargest, -24);
    if (units > kSummationUnits)
        return;
    match.verdict = CheckVerdict::Unknown;
    static const QString unexplained = u"no mistake the check knows explains it: "_s;
    if (match.diagnosis.startsWith(unexplained))
        match.diagnosis = match.diagnosis.mid(unexplained.size());
    match.diagnosis
        = u"every cell is within %1 of %2 (%3 units of float32 at its largest value, %4): beyond one "
          "rounding, as float32 sums in another order (a resize's or a product's) differ; no faithful "
          "computation is ruled out, so no mistake is said; %5"_s.arg(
              NumberText::compact(*match.maxAbsError, 3), match.referenceText, NumberText::compact(units, 3),
              NumberText::compact(match.referenceLargest, 3), match.diagnosis);
}

} // namespace posenc::TableCheck
