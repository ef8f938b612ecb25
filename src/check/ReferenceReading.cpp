#include "ReferenceReading.h"

#include "check/DeclaredReading.h"
#include "check/FamilyCheck.h"

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

} // namespace

bool nameByReferenceReading(TableMatch &match, const TableRows &table, const TableRows &reference,
                            const StreamOptions &options)
{
    if (match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty())
        return true;
    StreamOptions quiet = options;
    quiet.progress = nullptr;
    const std::optional<TableMatch> form = readWithoutDeclaration(reference, quiet);
    if (referenceReadingCancelled(options))
        return false;
    const bool ofFamily = form && (form->verdict == CheckVerdict::Correct || form->verdict == CheckVerdict::Variant);
    if (!ofFamily || !form->family || !form->params || form->table.isEmpty()
        || !FamilyChecks::of(*form->family).table)
        return true;
    // Every row of the reference is the family's at these parameters: the table checked as if
    // they had been declared, the mistake named as a declared family's is.
    auto expected = expect(table, *form->family, *form->params, form->table, options.cancel);
    auto *declared = std::get_if<TableMatch>(&expected);
    if (referenceReadingCancelled(options))
        return false;
    if (!declared)
        return true;
    DeclaredRows rows;
    rows.candidates.push_back(std::move(*declared));
    auto identified = identify(table, Declared {}, options.cancel);
    if (auto *read = std::get_if<TableMatch>(&identified))
        rows.readAs = std::move(*read);
    rows.family = *form->family;
    rows.params = *form->params;
    auto streamed = streamDeclared(std::move(rows), table, quiet);
    if (referenceReadingCancelled(options))
        return false;
    const auto *asForm = std::get_if<Streamed>(&streamed);
    const QString reads = u"the reference table reads, without a declaration, as %1"_s.arg(form->referenceText);
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

} // namespace posenc::TableCheck
