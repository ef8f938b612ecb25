#include "PositionWindows.h"

#include "check/OffsetProfile.h"
#include "check/SampleScore.h"
#include "check/TableSample.h"

using namespace Qt::StringLiterals;

namespace posenc::PositionWindows {

PositionWindow rowsWindow(std::int64_t offset, std::int64_t firstRow, std::int64_t rows, bool declared)
{
    PositionWindow w;
    w.first = firstRow + offset;
    w.last = rows - 1 + offset;
    w.declared = declared;
    return w;
}

std::optional<TableMatch> readAtFound(const TableMatch &found, std::int64_t rows, const CheckDeclaration &declared,
                                      const Identify &identify)
{
    if (declared.positionsDeclared || !found.mistakes.contains(CheckMistakes::kPositionOffset)
        || !found.positionOffset || *found.positionOffset <= 0)
        return std::nullopt;
    CheckDeclaration at = declared;
    at.firstPosition = *found.positionOffset;
    at.positionsDeclared = true;
    auto again = identify(at);
    auto *read = std::get_if<TableMatch>(&again);
    if (!read || read->mistakes.contains(CheckMistakes::kPositionOffset) || read->verdict == CheckVerdict::Unknown
        || read->mistakes.size() >= found.mistakes.size())
        return std::nullopt;
    TableMatch m = std::move(*read);
    const std::int64_t firstRow = m.firstPositionRow.value_or(found.firstPositionRow.value_or(0));
    m.positionOffset = at.firstPosition;
    say(m, rowsWindow(at.firstPosition, firstRow, rows, false));
    return m;
}

void readAt(std::variant<TableMatch, QString> &identified, const TableRows &table,
            const CheckDeclaration &declared, const Identify &identify)
{
    const auto *found = std::get_if<TableMatch>(&identified);
    if (!found || ScoringCancel::requested())
        return;
    if (auto at = readAtFound(*found, table.rows(), declared, identify))
        identified = std::move(*at);
}

void say(TableMatch &match, const PositionWindow &window)
{
    match.positions = window;
    if (window.declared)
        return;
    if (!window.ambiguity.isEmpty()) {
        match.notes.prepend(window.ambiguity);
        return;
    }
    match.notes.prepend(
        u"the rows are positions %1..%2 of the table: a window of it (posenc table --positions %1:%3 writes it), a "
        "faithful slice whose positions are said, not judged; declare the rows' positions (--positions A:B, "
        "--position-ids) to have them judged"_s.arg(window.first)
            .arg(window.last)
            .arg(window.last + 1));
}

bool mayBeQueryWindow(const TableRows &table)
{
    constexpr std::int64_t kSampleCells = std::int64_t(1) << 20;
    if (table.rows() < 2 || table.rows() >= table.cols())
        return false;
    QString error;
    const auto sample = readSample(table, kSampleCells, error);
    if (!sample)
        return false;
    const auto profile = offsetProfile(*sample, sample->queryStart);
    return profile && profile->isToeplitz();
}

QString line(const PositionWindow &window)
{
    // After "positions: " in the report: the queries' window says so.
    const QString what = window.queries ? u"of the queries "_s : QString();
    return u"%1%2..%3 (%4)"_s.arg(what)
        .arg(window.first)
        .arg(window.last)
        .arg(window.declared ? u"declared"_s : u"read from the table, not declared"_s);
}

} // namespace posenc::PositionWindows
