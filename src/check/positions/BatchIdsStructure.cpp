#include "BatchIdsStructure.h"

#include <QString>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc::BatchIdsStructure {

namespace {

struct Row
{
    std::int64_t left = 0, right = 0; // columns of padding before the first token or after the last
    QString problem; // the first id generation does not give, in words
};

// Whether `v` is a padding fill generation's ids are known with: masked_fill's 1, a clamp's 0, or
// cumsum − 1 left unfilled (−1 before a row's first token).
bool fill(double v)
{
    return v == 1.0 || v == 0.0 || v == -1.0;
}

Row readRow(const RowMatrixXf &ids, std::int64_t b)
{
    const std::int64_t columns = ids.cols();
    const auto at = [&](std::int64_t c) { return double(ids(b, c)); };
    Row row;
    // Left padding: a run of one fill before the first token's 0 (a run of 0s ends in that token).
    std::int64_t c = 0;
    while (c < columns && fill(at(0)) && at(c) == at(0))
        ++c;
    if (at(0) == 0.0 && c > 1)
        row.left = c - 1;
    else if (at(0) != 0.0 && c > 0 && c < columns && at(c) == 0.0)
        row.left = c;
    c = row.left;
    double next = 0.0;
    for (; c < columns; ++c) {
        if (at(c) == next) {
            next += 1.0;
            continue;
        }
        // Right padding: the rest one fill after at least one token, cumsum − 1's last id repeated
        // among them.
        const double f = at(c);
        std::int64_t end = c;
        while (end < columns && at(end) == f)
            ++end;
        if (end == columns && next > 0.0 && row.left == 0 && (fill(f) || f == next - 1.0)) {
            row.right = columns - c;
            return row;
        }
        row.problem = u"column %1 holds %2 where generation's ids give %3"_s.arg(c).arg(at(c)).arg(next);
        return row;
    }
    return row;
}

} // namespace

PositionIdsCheck::Report read(const RowMatrixXf &ids)
{
    PositionIdsCheck::Report report;
    report.rows = ids.rows();
    report.columns = ids.cols();
    report.axes = 1;
    report.reference = u"transformers' generation read from the ids themselves, no batch declared "
                       "(generation/utils.py prepare_inputs_for_generation: attention_mask.long().cumsum(-1) - 1, "
                       "the padding filled with 1)"_s;
    QStringList read, problems;
    bool padded = false;
    for (std::int64_t b = 0; b < ids.rows(); ++b) {
        const Row row = readRow(ids, b);
        if (!row.problem.isEmpty()) {
            problems.append(u"row %1: %2"_s.arg(b).arg(row.problem));
            report.realTokens += ids.cols();
            continue;
        }
        report.realTokens += ids.cols() - row.left - row.right;
        padded = padded || row.left > 0 || row.right > 0;
        if (row.left > 0)
            read.append(u"row %1 left-padded by %2"_s.arg(b).arg(row.left));
        else if (row.right > 0)
            read.append(u"row %1 right-padded by %2"_s.arg(b).arg(row.right));
    }
    const QString declare = u"--attention-mask FILE (or --batch left:… / right:…) checks every row against "
                            "generation's ids for that mask and names the mistake"_s;
    if (!problems.isEmpty()) {
        report.verdict = PositionIdsCheck::Verdict::Unknown;
        report.detail = u"the ids are not generation's for any padding: %1"_s.arg(problems.join(u"; "_s));
        report.notes.append(declare);
        return report;
    }
    if (!padded) {
        report.verdict = PositionIdsCheck::Verdict::Unknown;
        report.detail = u"every row is arange(L): right for rows without padding, and what arange(L) gives a "
                        "left-padded row too (arange-with-padding); the ids alone cannot tell"_s;
        report.notes.append(declare);
        return report;
    }
    report.verdict = PositionIdsCheck::Verdict::Correct;
    report.detail = u"every id is generation's for the padding its fill shows: %1; the other rows "
                    "unpadded"_s.arg(read.join(u", "_s));
    report.notes.append(declare);
    return report;
}

} // namespace posenc::BatchIdsStructure
