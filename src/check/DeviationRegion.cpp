#include "DeviationRegion.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc {

void RowRuns::add(std::int64_t row)
{
    if (scattered)
        return;
    if (!runs.empty()) {
        Run &run = runs.back();
        if (run.count == 1) {
            run.step = row - run.first;
            run.count = 2;
            return;
        }
        if (row == run.last() + run.step) {
            ++run.count;
            return;
        }
        // A run of two apart broken at once: its second row starts the next run, so that row 5 before
        // rows 64..127 reads as "row 5, rows 64..127", not as a step of 59 then rows 65..127.
        if (run.count == 2 && run.step > 1) {
            const std::int64_t second = run.last();
            run = Run {run.first, 0, 1};
            if (runs.size() == kMostRuns) {
                scattered = true;
                return;
            }
            runs.push_back(Run {second, row - second, 2});
            return;
        }
    }
    if (runs.size() == kMostRuns) {
        scattered = true;
        return;
    }
    runs.push_back(Run {row, 0, 1});
}

namespace DeviationRegion {

namespace {

QString ordinalWord(std::int64_t step)
{
    switch (step) {
    case 2:
        return u"second"_s;
    case 3:
        return u"third"_s;
    default:
        break;
    }
    // 21st, 22nd, 23rd, but 11th, 12th, 13th (and 111th).
    const std::int64_t tens = step % 100, units = step % 10;
    const QString suffix = tens >= 11 && tens <= 13 ? u"th"_s
        : units == 1                                ? u"st"_s
        : units == 2                                ? u"nd"_s
        : units == 3                                ? u"rd"_s
                                                    : u"th"_s;
    return QString::number(step) + suffix;
}

QString runWords(const RowRuns::Run &run)
{
    if (run.count == 1)
        return u"row %1"_s.arg(run.first);
    if (run.step == 1)
        return u"rows %1..%2"_s.arg(run.first).arg(run.last());
    if (run.count == 2)
        return u"rows %1 and %2"_s.arg(run.first).arg(run.last());
    return u"every %1 row from %2 to %3"_s.arg(ordinalWord(run.step)).arg(run.first).arg(run.last());
}

} // namespace

QString rowWords(const RowRuns &rows, std::int64_t deviatingRows, std::int64_t comparedRows, std::int64_t tableRows)
{
    if (rows.runs.empty())
        return QString();
    const QString tally = u"%1 of %2"_s.arg(deviatingRows).arg(comparedRows);
    if (deviatingRows == comparedRows)
        return u"every row (%1)"_s.arg(comparedRows);
    if (rows.runs.size() == 1 && !rows.scattered) {
        const RowRuns::Run &run = rows.runs.front();
        // Every other row of the whole table: "every odd row".
        if (run.step == 2 && run.count > 2 && run.first <= 1 && run.last() + 2 >= tableRows)
            return u"every %1 row (%2, %3, ..., %4: %5)"_s.arg(run.first == 1 ? u"odd"_s : u"even"_s)
                .arg(run.first)
                .arg(run.first + 2)
                .arg(run.last())
                .arg(tally);
        return u"%1 (%2)"_s.arg(runWords(run), tally);
    }
    QStringList said;
    for (const RowRuns::Run &run : rows.runs)
        said.append(runWords(run));
    if (rows.scattered)
        return u"%1, ... (%2, scattered)"_s.arg(said.join(u", "_s), tally);
    const QString last = said.takeLast();
    return u"%1 and %2 (%3)"_s.arg(said.join(u", "_s), last, tally);
}

QString columnWords(const std::vector<std::int64_t> &columnDeviations)
{
    std::vector<std::int64_t> columns;
    for (std::size_t c = 0; c < columnDeviations.size(); ++c) {
        if (columnDeviations[c] > 0)
            columns.push_back(std::int64_t(c));
    }
    if (columns.empty())
        return QString();
    const auto of = std::int64_t(columnDeviations.size());
    if (std::int64_t(columns.size()) == of)
        return u"every column (%1)"_s.arg(of);
    // Runs of consecutive columns, "columns 32..63".
    QStringList runs;
    for (std::size_t i = 0; i < columns.size();) {
        std::size_t j = i + 1;
        while (j < columns.size() && columns[j] == columns[j - 1] + 1)
            ++j;
        runs.append(j - i == 1 ? QString::number(columns[i]) : u"%1..%2"_s.arg(columns[i]).arg(columns[j - 1]));
        i = j;
    }
    const QString tally = u"%1 of %2"_s.arg(columns.size()).arg(of);
    if (columns.size() == 1)
        return u"column %1 (%2)"_s.arg(columns.front()).arg(tally);
    if (runs.size() <= 6)
        return u"columns %1 (%2)"_s.arg(runs.join(u", "_s), tally);
    return u"columns %1, ... %2 (%3)"_s.arg(runs.mid(0, 4).join(u", "_s), runs.back(), tally);
}

QString where(const Facts &facts)
{
    if (facts.deviatingCells <= 0 || facts.rows.runs.empty())
        return QString();
    std::int64_t columns = 0, column = -1;
    for (std::size_t c = 0; c < facts.columnDeviations.size(); ++c) {
        if (facts.columnDeviations[c] > 0) {
            ++columns;
            column = std::int64_t(c);
        }
    }
    if (facts.deviatingCells == 1)
        return u"one cell, row %1, column %2"_s.arg(facts.rows.runs.front().first).arg(column);
    const QString rows = rowWords(facts.rows, facts.deviatingRows, facts.comparedRows, facts.tableRows);
    const QString cols = columnWords(facts.columnDeviations);
    // The deviating cells lie within those rows and columns: all of them when they count as many.
    const std::int64_t within = facts.deviatingRows * columns;
    if (facts.deviatingCells == within)
        return u"in %1 and %2, every cell of them"_s.arg(rows, cols);
    return u"in %1 and %2, %3 of their %4 cells"_s.arg(rows, cols).arg(facts.deviatingCells).arg(within);
}

void sayUnexplained(TableMatch &match, const QString &family, const Facts &facts)
{
    const QString nothing = family.isEmpty() ? u"no mistake the check knows explains it"_s
                                             : u"no parameter of %1 explains it"_s.arg(family);
    if (facts.deviatingCells == 1) {
        match.diagnosis = u"%1: %2"_s.arg(nothing, match.diagnosis);
        return;
    }
    const QString lie = where(facts);
    match.diagnosis = lie.isEmpty() ? u"%1: %2"_s.arg(nothing, match.diagnosis)
                                    : u"%1: %2; they lie %3"_s.arg(nothing, match.diagnosis, lie);
}

} // namespace DeviationRegion
} // namespace posenc
