#include "ReferenceReading.h"

#include "TableRatio.h"

#include "check/DeclaredReading.h"
#include "check/DeclaredWords.h"
#include "check/FamilyCheck.h"
#include "check/TensorShapes.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"

#include <cmath>
#include <tuple>

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
// gives, no mistake. Correct against the reading, which the file is too; the file's difference said,
// in the max |error| line and a note.
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
    // The max |error| line gives the difference from the file, as the note does, not the reading's
    // (0 where the table is the reading's own rounding).
    const auto fileError = std::tuple {match.maxAbsError, match.worstRow, match.worstColumn};
    match = read;
    if (std::get<0>(fileError))
        std::tie(match.maxAbsError, match.worstRow, match.worstColumn) = fileError;
    match.referenceText = u"%1, read as %2"_s.arg(file, read.referenceText);
    match.correctAgainst = u"%1, which %2 is too"_s.arg(read.referenceText, file);
    match.diagnosis = u"%1; the table is that reading at its own precision: %2"_s.arg(reads, read.diagnosis);
    if (!byFile.isEmpty())
        match.notes.prepend(byFile);
    match.notes += notes;
}

// A reference that reads as no family's from position 0, read as a published form's table from a
// later position F (a chunk's: position_ids F..F + L - 1, a cached step's or a chunked prefill's):
// each family's published forms of its width declared against it, the first whose rows all read
// at r + F (position-offset alone, LongRoPE's list the one transformers takes for F + L), then every
// row streamed against that form from F. Its family, parameters, table word, F and words.
struct LaterForm
{
    Encoding family;
    Params params;
    QString word;
    std::int64_t first = 0;
    QString text;
};

std::optional<LaterForm> publishedFromLaterPosition(const TableRows &reference, const StreamOptions &options)
{
    for (const FamilySpec &family : Families::all()) {
        const auto &hypothesis = FamilyChecks::of(family.encoding).table;
        if (!hypothesis || !hypothesis->publishedForms)
            continue;
        for (const PublishedForm &form : hypothesis->publishedForms(reference.cols())) {
            Declared at {form.params, {}, family.encoding, 0};
            auto fromZero = expect(reference, family.encoding, form.params, form.table, options.cancel, at);
            const auto *read = std::get_if<TableMatch>(&fromZero);
            if (referenceReadingCancelled(options))
                return std::nullopt;
            if (!read || read->mistakes != QStringList {CheckMistakes::kPositionOffset}
                || read->positionOffset.value_or(0) <= 0 || read->rowsMoved)
                continue;
            at.firstPosition = *read->positionOffset;
            auto fromFirst = expect(reference, family.encoding, form.params, form.table, options.cancel, at);
            auto *declared = std::get_if<TableMatch>(&fromFirst);
            if (!declared || declared->verdict != CheckVerdict::Correct)
                continue;
            DeclaredRows rows;
            rows.candidates.push_back(std::move(*declared));
            rows.family = family.encoding;
            rows.params = form.params;
            auto streamed = streamDeclared(std::move(rows), reference, options);
            const auto *done = std::get_if<Streamed>(&streamed);
            if (!done || done->match.verdict != CheckVerdict::Correct)
                continue;
            const std::int64_t first = at.firstPosition;
            return LaterForm {family.encoding, form.params, form.table, first,
                              u"%1's %2 table of positions %3..%4 (%5), a later chunk's"_s.arg(form.name, form.table)
                                  .arg(first)
                                  .arg(first + reference.rows() - 1)
                                  .arg(form.source)};
        }
    }
    return std::nullopt;
}

} // namespace

bool namedByReferenceReading(const TableMatch &match)
{
    return match.verdict == CheckVerdict::Mistake
        && (match.mistakes.isEmpty() || match.rowsMoved || match.columnsMoved);
}

bool nameByReferenceReading(TableMatch &match, const TableRows &table, const TableRows &reference,
                            const StreamOptions &options)
{
    // Rows moved (TableRowShift) are named again as the family's mistake where the reference reads as
    // one, and columns moved (columns-swapped) where the family names their order.
    if (!namedByReferenceReading(match))
        return true;
    const bool columnsMoved = match.columnsMoved;
    StreamOptions quiet = options;
    quiet.progress = nullptr;
    const std::optional<TableMatch> form = readWithoutDeclaration(reference, quiet);
    if (referenceReadingCancelled(options))
        return false;
    const bool readable = form && form->family && !form->table.isEmpty() && FamilyChecks::of(*form->family).table;
    const bool ofFamily
        = readable && (form->verdict == CheckVerdict::Correct || form->verdict == CheckVerdict::Variant);
    // A family whose reading leaves the rows' positions open (M-RoPE's prompt) reads them from the
    // reference's every row.
    const auto *fromRows = readable ? &FamilyChecks::of(*form->family).table->referenceParams : nullptr;
    std::optional<Params> params = ofFamily                                           ? form->params
        : readable && form->verdict == CheckVerdict::Unknown && fromRows && *fromRows ? (*fromRows)(reference, *form)
                                                                                      : std::nullopt;
    std::optional<Encoding> family = params ? form->family : std::nullopt;
    QString word = params ? form->table : QString();
    Declared at; // no family: every parameter of `params` counts as given
    // A reference read at a window of positions (PositionWindows): its rows are its own positions,
    // declared for the table.
    if (ofFamily && form->positions && !form->positions->queries && form->positionOffset) {
        at.firstPosition = *form->positionOffset;
        at.positionsDeclared = true;
    }
    QString readText = ofFamily ? form->referenceText : QString();
    // Read as no family's from position 0: a published form's from a later one.
    if (!params) {
        const std::optional<LaterForm> later = publishedFromLaterPosition(reference, quiet);
        if (referenceReadingCancelled(options))
            return false;
        if (!later)
            return true;
        family = later->family;
        params = later->params;
        word = later->word;
        at.firstPosition = later->first;
        readText = later->text;
    }
    // A reference read as a cache of half its family's table (RopeHalfCache: candle's cos of the
    // frequencies, a bf16 cache of one column per pair): the table of its width is that cache too
    // unless its own columns repeat in pairs (a whole table of another width), and is checked as
    // the table it stands for (TensorShapes::widened), as a declared family's half cache is.
    std::shared_ptr<const TableRows> wide;
    if (table.cols() == reference.cols() && TensorShapes::halfWidth(*family, *params, reference.cols())
        && !TensorShapes::columnsRepeatInPairs(table)) {
        const std::shared_ptr<const TableRows> unowned(std::shared_ptr<const TableRows>(), &table);
        wide = TensorShapes::widened(unowned, *family, *params);
    }
    const TableRows &checked = wide ? *wide : table;
    // Every row of the reference is the family's at these parameters: the table checked as if
    // they had been declared, the mistake named as a declared family's is, its sentences said of
    // the reference table's reading (DeclaredWords) where they are made.
    const DeclaredWords::Scope words(DeclaredWords::By::ReferenceTable);
    auto expected = expect(checked, *family, *params, word, options.cancel, at);
    auto *declared = std::get_if<TableMatch>(&expected);
    if (referenceReadingCancelled(options))
        return false;
    if (!declared)
        return true;
    if (readText.isEmpty())
        readText = declared->referenceText;
    DeclaredRows rows;
    rows.candidates.push_back(std::move(*declared));
    auto identified = identify(checked, at, options.cancel); // from the reference's first position
    if (auto *read = std::get_if<TableMatch>(&identified))
        rows.readAs = std::move(*read);
    rows.family = *family;
    rows.params = *params;
    rows.by = DeclaredWords::By::ReferenceTable;
    auto streamed = streamDeclared(std::move(rows), checked, quiet);
    if (referenceReadingCancelled(options))
        return false;
    const auto *asForm = std::get_if<Streamed>(&streamed);
    // Columns moved stand unless the family names them: a table the family takes in either order
    // (DeepSeek's layouts) is still not the reference file's.
    if (columnsMoved
        && (!asForm || asForm->match.verdict != CheckVerdict::Mistake || asForm->match.mistakes.isEmpty()))
        return true;
    const QString reads = u"%1 %2"_s.arg(kReferenceReads, readText);
    const QString halfNote = wide ? u"the table's %1 columns read, as the reference's are, as the cache of half the "
                                    "table they stand for (each column once per pair): a column c or c + %1 the "
                                    "reading names is the file's column c"_s.arg(table.cols())
                                  : QString();
    if (asForm && asForm->match.verdict == CheckVerdict::Correct) {
        // Both files the reading, yet one is the other's times a constant: an amplitude the reading
        // declares at 1 (a scaled sinusoid's, RoPE's attention factor) differs; never correct (the
        // ratio is named by nameUniformRatio).
        if (uniformRatio(table, reference))
            return true;
        correctAtItsPrecision(match, asForm->match, reads);
        if (wide)
            match.notes.prepend(halfNote);
        return true;
    }
    if (!asForm || asForm->match.verdict != CheckVerdict::Mistake || asForm->match.mistakes.isEmpty()) {
        match.notes.prepend(reads);
        return true;
    }
    // The columns' order found cell by cell is said with the family's name for it.
    if (columnsMoved)
        match.notes.prepend(match.diagnosis);
    match.columnsMoved = false;
    match.mistakes = asForm->match.mistakes;
    match.positionOffset = asForm->match.positionOffset;
    match.firstPositionRow = asForm->match.firstPositionRow;
    // The unexplained sentence it replaces is not kept: the deviating cells are said above it.
    match.diagnosis = u"%1; against it, %2"_s.arg(reads, asForm->match.diagnosis);
    if (wide)
        match.notes.prepend(halfNote);
    return true;
}

std::optional<TableMatch> readReference(const TableRows &reference, const StreamOptions &options)
{
    StreamOptions quiet = options;
    quiet.progress = nullptr;
    return readWithoutDeclaration(reference, quiet);
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
