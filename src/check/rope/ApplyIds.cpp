#include "check/rope/ApplyIds.h"

#include "check/TableMatch.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::ApplyCheck {

namespace {

// Runs of rows whose positions are their --position-ids + one offset: "rows 3..9 at their ids + 2".
QString idRunText(const std::vector<std::int64_t> &positions, const std::vector<std::int64_t> &ids, std::size_t &r)
{
    const auto offsetOf = [&](std::size_t i) {
        return positions[i] < 0 ? std::optional<std::int64_t>() : std::optional(positions[i] - ids[i]);
    };
    const std::optional<std::int64_t> offset = offsetOf(r);
    const std::size_t first = r;
    while (r + 1 < positions.size() && offsetOf(r + 1) == offset)
        ++r;
    const QString rows = r == first ? u"row %1"_s.arg(first) : u"rows %1..%2"_s.arg(first).arg(r);
    if (!offset)
        return rows + u" unread"_s;
    if (r == first)
        return u"row %1 at %2 (its id %3)"_s.arg(first).arg(positions[first]).arg(ids[first]);
    return u"%1 at their ids %2 %3"_s.arg(rows, *offset < 0 ? u"-"_s : u"+"_s).arg(std::abs(*offset));
}

} // namespace

std::vector<std::vector<std::int64_t>> rowsByPosition(const std::vector<std::int64_t> &ids)
{
    std::vector<std::int64_t> firstRow;
    for (std::size_t r = 0; r < ids.size(); ++r) {
        const auto id = std::size_t(ids[r]);
        if (id >= ids.size())
            continue;
        if (id >= firstRow.size())
            firstRow.resize(id + 1, -1);
        if (firstRow[id] < 0)
            firstRow[id] = std::int64_t(r);
    }
    firstRow.erase(std::find(firstRow.begin(), firstRow.end(), -1), firstRow.end());
    std::vector<std::int64_t> run, longest;
    for (std::size_t r = 0; r < ids.size(); ++r) {
        if (ids[r] == 0)
            run.clear();
        if (ids[r] == std::ssize(run))
            run.push_back(std::int64_t(r));
        if (run.size() > longest.size())
            longest = run;
    }
    std::vector<std::vector<std::int64_t>> lists;
    for (auto *rows : {&firstRow, &longest}) {
        if (rows->size() >= 3 && (lists.empty() || lists.back() != *rows))
            lists.push_back(*rows);
    }
    return lists;
}

QString idLines(Result &result, const std::vector<std::int64_t> &positions, const std::vector<std::int64_t> &ids)
{
    std::optional<std::int64_t> offset;
    bool constant = true, atIndex = true;
    std::optional<std::size_t> notArange;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        if (!notArange && ids[r] != std::int64_t(r))
            notArange = r;
        atIndex = atIndex && positions[r] == std::int64_t(r);
        if (positions[r] < 0) {
            constant = false;
            continue;
        }
        const std::int64_t k = positions[r] - ids[r];
        constant = constant && (!offset || *offset == k);
        offset = offset.value_or(k);
    }
    if (constant && offset) {
        result.positionOffset = *offset;
        if (*offset == 0)
            return {};
        result.mistakes.append(CheckMistakes::kPositionOffset);
        return u"every row is at its --position-ids %1 %2: the positions are off by %3"_s.arg(
            *offset < 0 ? u"-"_s : u"+"_s, QString::number(std::abs(*offset)), QString::number(*offset));
    }
    if (atIndex && notArange) {
        result.mistakes.append(kArangePositions);
        return u"every row r is turned at position r, not at its --position-ids (row %1's id is %2): the rotation "
               "took arange(L) where the batch's ids differ; transformers' generation gives a left-padded row's "
               "real tokens attention_mask.long().cumsum(-1) - 1 (generation/utils.py, "
               "GenerationMixin.prepare_inputs_for_generation)"_s.arg(*notArange)
                   .arg(ids[*notArange]);
    }
    result.mistakes.append(kPositionsOutOfOrder);
    constexpr qsizetype kShown = 8;
    QStringList runs;
    qsizetype away = 0;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        if (positions[r] == ids[r])
            continue;
        const QString run = idRunText(positions, ids, r);
        if (++away <= kShown)
            runs.append(run);
    }
    return u"the rows are not at their --position-ids: %1%2; every other row at its id"_s.arg(
        runs.join(u", "_s), away > kShown ? u", …"_s : QString());
}

} // namespace posenc::ApplyCheck
