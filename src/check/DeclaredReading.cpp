#include "DeclaredReading.h"

#include "check/FamilyCheck.h"
#include "check/TableAgainstTable.h"

#include <tuple>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

void nameDeclaredMistake(TableMatch &declared, const TableMatch &read)
{
    if (declared.verdict != CheckVerdict::Mistake || declared.deviations.isEmpty())
        return;
    if (read.verdict == CheckVerdict::Unknown || read.diagnosis.isEmpty())
        return;
    // A family that named the declared parameters the table differs in keeps its names; what the
    // table reads as undeclared is still said.
    const bool named = !declared.mistakes.isEmpty();
    // The same words, or the declared ones with their source after them ("... (preset llama-3-1-8b)"):
    // "attention factor 1" is no prefix of another reference's "attention factor 1.5".
    const bool sameReference = !read.referenceText.isEmpty() && read.family == declared.family
        && (declared.referenceText == read.referenceText
            || declared.referenceText.startsWith(read.referenceText + u" ("_s));
    if (!named && sameReference && read.verdict == CheckVerdict::Mistake && !read.mistakes.isEmpty()) {
        declared.mistakes = read.mistakes;
        declared.positionOffset = read.positionOffset;
        declared.firstPositionRow = read.firstPositionRow;
        declared.notes.prepend(declared.diagnosis);
        declared.diagnosis = read.diagnosis;
        return;
    }
    QString what = CheckWords::verdict(read.verdict);
    if (!read.mistakes.isEmpty())
        what += u" (%1)"_s.arg(read.mistakes.join(u", "_s));
    if (!read.referenceText.isEmpty() && read.verdict != CheckVerdict::Correct)
        what += u" against "_s + read.referenceText;
    declared.notes.prepend(u"read without the declaration, the table is %1: %2"_s.arg(what, read.diagnosis));
}

bool betterCandidate(const TableMatch &x, const Verification &vx, const TableMatch &y, const Verification &vy,
                     const QString &readAs)
{
    const auto rank = [&](const TableMatch &m, const Verification &v) {
        return std::tuple {v.deviatingCells > 0, v.deviatingCells > 0 && m.table != readAs, v.deviatingCells,
                           v.maxAbsError};
    };
    return rank(x, vx) < rank(y, vy);
}

void nameDeclaredParameter(TableMatch &match, const TableMatch &read, Encoding family, const Params &params)
{
    if (read.family != family || match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty()
        || read.verdict == CheckVerdict::Unknown || read.verdict == CheckVerdict::Mistake)
        return;
    const auto &table = FamilyChecks::of(family).table;
    if (!table || !table->nameDeclaredParameter)
        return;
    const auto named = table->nameDeclaredParameter(read, params);
    if (!named || named->mistakes.isEmpty())
        return;
    match.mistakes = named->mistakes;
    match.notes.prepend(match.diagnosis);
    match.diagnosis = u"the table's frequencies: "_s + named->diagnosis;
}

std::variant<Streamed, StreamStop> streamDeclared(DeclaredRows declared, const TableRows &table,
                                                  const StreamOptions &options)
{
    const auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    const QString readAs = declared.readAs ? declared.readAs->table : QString();
    std::optional<Streamed> best;
    for (TableMatch &candidate : declared.candidates) {
        Verification verification = verify(candidate, table, options);
        if (verification.cancelled || cancelled())
            return StreamStop {StreamStop::Why::Cancelled, kCancelled};
        if (verification.error)
            return StreamStop {StreamStop::Why::Table, *verification.error};
        if (const auto unread = referenceReadError(candidate))
            return StreamStop {StreamStop::Why::Reference, *unread};
        if (!best || betterCandidate(candidate, verification, best->match, best->verification, readAs))
            best = Streamed {std::move(candidate), std::move(verification)};
    }
    if (!best)
        return StreamStop {StreamStop::Why::Table, u"nothing to compare the table with"_s};
    conclude(best->match, best->verification);
    if (declared.readAs) {
        nameDeclaredMistake(best->match, *declared.readAs);
        if (declared.family)
            nameDeclaredParameter(best->match, *declared.readAs, *declared.family, declared.params);
    }
    return std::move(*best);
}

} // namespace posenc::TableCheck
