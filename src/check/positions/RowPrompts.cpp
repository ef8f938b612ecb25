#include "RowPrompts.h"

#include <QRegularExpression>

#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::RowPrompts {

namespace {

// Row b of a [B, L] table of runs.
std::shared_ptr<const BatchTable> rowOf(const std::shared_ptr<const BatchTable> &table, std::int64_t b)
{
    if (!table || b >= table->rows)
        return table;
    auto row = std::make_shared<BatchTable>(*table);
    row->rows = 1;
    row->runs.assign(table->runs.begin() + table->rowFirstRun[std::size_t(b)],
                     table->runs.begin() + table->rowFirstRun[std::size_t(b + 1)]);
    row->rowFirstRun = {0, std::int64_t(row->runs.size())};
    return row;
}

int rank(PositionIdsCheck::Verdict v)
{
    switch (v) {
    case PositionIdsCheck::Verdict::Mistake:
        return 2;
    case PositionIdsCheck::Verdict::Unknown:
        return 1;
    case PositionIdsCheck::Verdict::Correct:
        break;
    }
    return 0;
}

} // namespace

std::variant<QStringList, QString> split(const QString &prompts, std::int64_t rows)
{
    const QStringList each = prompts.split(u';');
    if (each.size() != rows)
        return u"--prompt: %1 prompts apart by ';' for %2 rows of ids: one a row, in the rows' order"_s.arg(each.size())
            .arg(rows);
    return each;
}

std::optional<QString> batchProblem(const Params &params, std::int64_t rows)
{
    const QString &lengths = params.batch.lengths;
    if (lengths.isEmpty())
        return std::nullopt;
    const auto given = lengths.section(u':', 1).split(u',').size();
    if (given == rows)
        return std::nullopt;
    return u"--batch %1 gives %2 length%3 for %4 rows of ids, each with its own --prompt: one length a row"_s.arg(lengths)
        .arg(given)
        .arg(given == 1 ? QString() : u"s"_s)
        .arg(rows);
}

namespace {

// A row's report of its own one-row batch, whose row 0 is row `b` of the whole.
QString asRow(QString text, std::int64_t b)
{
    static const QRegularExpression rowZero(u"\\b([Rr])ow 0\\b"_s);
    return b == 0 ? text : text.replace(rowZero, u"\\1ow %1"_s.arg(b));
}

} // namespace

Params rowParams(const Params &params, std::int64_t b, const QString &prompt)
{
    Params p = params;
    p.mrope.prompt = prompt;
    BatchParams &batch = p.batch;
    if (!batch.lengths.isEmpty()) {
        const QString side = batch.lengths.section(u':', 0, 0);
        const QStringList lengths = batch.lengths.section(u':', 1).split(u',');
        batch.lengths = u"%1:%2"_s.arg(side, lengths.value(b));
    }
    if (!batch.packed.isEmpty())
        batch.packed = batch.packed.split(u'/').value(b);
    batch.mask = rowOf(batch.mask, b);
    batch.documents = rowOf(batch.documents, b);
    return p;
}

RowMatrixXf rowIds(const RowMatrixXf &ids, std::int64_t rows, std::int64_t b)
{
    RowMatrixXf row(3, ids.cols());
    for (std::int64_t a = 0; a < 3; ++a)
        row.row(a) = ids.row(a * rows + b);
    return row;
}

PositionIdsCheck::Report combine(const std::vector<PositionIdsCheck::Report> &rows)
{
    PositionIdsCheck::Report all;
    all.verdict = PositionIdsCheck::Verdict::Correct;
    all.rows = std::ssize(rows);
    all.axes = 3;
    QStringList details, references;
    for (std::size_t b = 0; b < rows.size(); ++b) {
        const PositionIdsCheck::Report &r = rows[b];
        if (rank(r.verdict) > rank(all.verdict))
            all.verdict = r.verdict;
        for (const QString &id : r.mistakes)
            if (!all.mistakes.contains(id))
                all.mistakes.append(id);
        all.columns = r.columns;
        all.realTokens += r.realTokens;
        details.append(u"row %1 (its own prompt): %2"_s.arg(b).arg(asRow(r.detail, std::int64_t(b))));
        if (!references.contains(r.reference))
            references.append(r.reference);
        if (r.firstDifference && !all.firstDifference) {
            all.firstDifference = r.firstDifference;
            all.firstDifference->row = std::int64_t(b);
        }
        for (const QString &note : r.notes)
            all.notes.append(u"row %1: %2"_s.arg(b).arg(asRow(note, std::int64_t(b))));
    }
    all.reference = references.join(u"; "_s) + u", each row with its own prompt (--prompt 'P0;P1;…')"_s;
    all.detail = details.join(u"; "_s);
    return all;
}

} // namespace posenc::RowPrompts
