#include "BatchRowRanges.h"

#include "BatchLayout.h"

#include <algorithm>
#include <numeric>

using namespace Qt::StringLiterals;

namespace posenc::BatchRowRanges {

namespace {

// The columns a prompt of --batch may fill: the row's, or the prefill's with a cache.
std::int64_t promptWidth(const Params &p)
{
    return p.batch.cache > 0 ? p.batch.cache : p.maxLen;
}

bool hasDocuments(const Params &p)
{
    return !p.batch.packed.isEmpty() || p.batch.documents;
}

QString tableShape(const Params &p, const QString &what)
{
    return u"a [B, L] matrix of %1 with L = max_len (%2) columns and at most %3 rows"_s.arg(what).arg(p.maxLen).arg(
        BatchParams::kMaxRows);
}

std::optional<QString> lengthsProblem(const Params &p)
{
    if (!p.batch.packed.isEmpty() || p.batch.mask || p.batch.documents)
        return u"one batch at a time: not beside packed documents, a mask or document ids"_s;
    const auto parsed = BatchLayout::parseLengths(p.batch.lengths);
    if (const auto *why = std::get_if<QString>(&parsed))
        return *why;
    const std::int64_t width = promptWidth(p);
    for (const std::int64_t n : std::get<BatchLayout::Lengths>(parsed).lengths) {
        if (n > width)
            return u"a length of %1 does not fit a row of %2%3"_s.arg(n).arg(width).arg(
                p.batch.cache > 0 ? u" (the prefill's columns)"_s : QString());
    }
    return std::nullopt;
}

std::optional<QString> packedProblem(const Params &p)
{
    if (p.batch.documents)
        return u"one way of giving documents: not beside document ids"_s;
    const auto parsed = BatchLayout::parsePacked(p.batch.packed);
    if (const auto *why = std::get_if<QString>(&parsed))
        return *why;
    const auto &rows = std::get<0>(parsed);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::int64_t sum = std::accumulate(rows[r].begin(), rows[r].end(), std::int64_t(0));
        if (sum > p.maxLen)
            return u"row %1's documents take %2 positions, more than the row's %3"_s.arg(r).arg(sum).arg(p.maxLen);
    }
    return std::nullopt;
}

std::optional<QString> tableProblem(const BatchTable &table, const Params &p, bool zeroOrOne)
{
    if (table.badCell)
        return u"%1 at row %2, column %3"_s.arg(QString::number(table.badValue, 'g', 9))
            .arg(table.badCell->first)
            .arg(table.badCell->second)
            .prepend(zeroOrOne ? u"a value other than 0 and 1: "_s : u"a value that is not an integer: "_s);
    if (table.cols != p.maxLen)
        return u"%1 columns, not max_len's %2"_s.arg(table.cols).arg(p.maxLen);
    if (table.rows < 1 || table.rows > BatchParams::kMaxRows)
        return u"%1 rows"_s.arg(table.rows);
    return std::nullopt;
}

// The mask beside the documents must be 0 exactly at their padding; beside a cache, 1 at every
// decode step (generation adds a column of ones a step).
std::optional<QString> maskAgreement(const Params &p)
{
    const BatchTable &mask = *p.batch.mask;
    if (p.batch.cache > 0) {
        for (std::int64_t b = 0; b < mask.rows; ++b) {
            const BatchRun &last = mask.runs[std::size_t(mask.rowFirstRun[std::size_t(b + 1)] - 1)];
            if (last.value == 0 || last.start > p.batch.cache)
                return u"row %1 is not 1 from the cache's column %2 on (each decode step is a real token)"_s.arg(b).arg(
                    p.batch.cache);
        }
    }
    if (!hasDocuments(p))
        return std::nullopt;
    Params withoutMask = p;
    withoutMask.batch.mask.reset();
    const BatchLayout documents(withoutMask);
    if (documents.rows() != mask.rows)
        return u"%1 rows beside %2 rows of documents"_s.arg(mask.rows).arg(documents.rows());
    for (std::int64_t b = 0; b < mask.rows; ++b) {
        for (std::int64_t r = mask.rowFirstRun[std::size_t(b)]; r < mask.rowFirstRun[std::size_t(b + 1)]; ++r) {
            const BatchRun &run = mask.runs[std::size_t(r)];
            for (const BatchSegment &s : documents.row(b)) {
                const bool overlap = s.start < run.start + run.length && run.start < s.end();
                if (overlap && s.isReal() != (run.value != 0))
                    return u"row %1 is not 0 exactly at the documents' padding (column %2)"_s.arg(b).arg(
                        std::max(s.start, run.start));
            }
        }
    }
    return std::nullopt;
}

std::optional<QString> cacheProblem(const Params &p)
{
    if (p.batch.cache > 0 && hasDocuments(p))
        return u"a decode step continues one sequence a row, not packed documents"_s;
    return std::nullopt;
}

QString givenText(const Params &p, const QString &key)
{
    if (key == u"batch"_s)
        return ParamError::quoted(p.batch.lengths);
    if (key == u"packed"_s)
        return ParamError::quoted(p.batch.packed);
    if (key == u"attention-mask"_s)
        return p.batch.mask ? p.batch.mask->source : QString();
    if (key == u"document-ids"_s)
        return p.batch.documents ? p.batch.documents->source : QString();
    return QString::number(p.batch.cache);
}

} // namespace

QString allowed(const QString &key, const Params &p)
{
    if (key == u"batch"_s)
        return u"left: or right: and each row's length, such as left:5,8,3: at most %1 rows, each length in "
               "[1, %2], alone"_s.arg(BatchParams::kMaxRows)
                   .arg(promptWidth(p));
    if (key == u"packed"_s)
        return u"each row's documents' lengths, such as 3,4,2/5,4: at most %1 rows, each row's sum at most "
               "max_len (%2)"_s.arg(BatchParams::kMaxRows)
                   .arg(p.maxLen);
    if (key == u"attention-mask"_s) {
        QString text = tableShape(p, u"0 and 1"_s);
        if (p.batch.cache > 0)
            text += u", 1 from column %1 on"_s.arg(p.batch.cache);
        if (hasDocuments(p))
            text += u", 0 exactly at the documents' padding"_s;
        return text;
    }
    if (key == u"document-ids"_s)
        return tableShape(p, u"integers"_s);
    return u"an integer in [0, %1] (max_len), 0 beside packed documents"_s.arg(p.maxLen);
}

std::optional<ParamError> problem(const Params &p, const QString &key)
{
    std::optional<QString> why;
    if (key == u"batch"_s && !p.batch.lengths.isEmpty())
        why = lengthsProblem(p);
    else if (key == u"packed"_s && !p.batch.packed.isEmpty())
        why = packedProblem(p);
    else if (key == u"attention-mask"_s && p.batch.mask) {
        why = tableProblem(*p.batch.mask, p, true);
        if (!why)
            why = maskAgreement(p);
    } else if (key == u"document-ids"_s && p.batch.documents)
        why = tableProblem(*p.batch.documents, p, false);
    else if (key == u"cache"_s)
        why = cacheProblem(p);
    if (!why)
        return std::nullopt;
    return ParamError {key, allowed(key, p), *why, givenText(p, key)};
}

} // namespace posenc::BatchRowRanges
