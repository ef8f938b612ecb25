#include "check/rope/ApplyIds.h"

#include "check/TableMatch.h"
#include "check/rope/ApplyColumns.h"
#include "check/rope/ApplyNotTurned.h"
#include "check/rope/ApplyPairs.h"
#include "check/rope/ApplyTwice.h"

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

// The text of runs[i] and of the single rows after it whose positions count down with it, three
// or more ("rows 40..49 at 49..40, reversed"); i moved past them.
QString runText(const std::vector<PositionRun> &runs, std::size_t &i)
{
    const PositionRun &run = runs[i];
    std::size_t last = i;
    while (run.count == 1 && run.position > 0 && last + 1 < runs.size() && runs[last + 1].count == 1
           && runs[last + 1].position >= 0 && runs[last + 1].position == runs[last].position - 1)
        ++last;
    if (last < i + 2) // two rows exchanged are said row by row
        last = i;
    const std::int64_t rows = std::int64_t(last - i) + run.count, end = run.row + rows - 1;
    i = last;
    if (run.position < 0)
        return rows == 1 ? u"row %1 unread"_s.arg(run.row) : u"rows %1..%2 unread"_s.arg(run.row).arg(end);
    if (rows == 1)
        return u"row %1 at %2"_s.arg(run.row).arg(run.position);
    if (rows > run.count)
        return u"rows %1..%2 at %3..%4, reversed"_s.arg(run.row)
            .arg(end)
            .arg(run.position)
            .arg(run.position - rows + 1);
    return u"rows %1..%2 at %3..%4"_s.arg(run.row).arg(end).arg(run.position).arg(run.position + run.count - 1);
}

// "rows 32..63 (32 of the 64) are at no position the frequencies read give": the rows unread, named.
QString unreadWords(const std::vector<std::int64_t> &positions)
{
    std::vector<std::int64_t> unread;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        if (positions[r] < 0)
            unread.push_back(std::int64_t(r));
    }
    return u"%1 (%2 of the %3) %4 at no position the frequencies read give"_s.arg(ApplyNotTurned::rowsText(unread))
        .arg(std::ssize(unread))
        .arg(positions.size())
        .arg(unread.size() == 1 ? u"is"_s : u"are"_s);
}

// Runs of rows a position apart, each from the first row's position, where the ids run on: a
// chunked prefill whose chunks' positions each restart (the chunk's arange, not the cache's offset).
QString restartWords(const std::vector<std::int64_t> &positions, const std::vector<std::int64_t> &ids)
{
    const std::vector<PositionRun> runs = runsOf(positions);
    if (runs.size() < 2 || positions.front() < 0)
        return {};
    QStringList starts;
    for (const PositionRun &run : runs) {
        if (run.position != positions.front())
            return {};
        if (run.row > 0) {
            if (ids[std::size_t(run.row)] != ids[std::size_t(run.row - 1)] + 1)
                return {};
            starts.append(u"row %1 (id %2)"_s.arg(run.row).arg(ids[std::size_t(run.row)]));
        }
    }
    return u"the positions restart at %1 at %2, where the --position-ids run on: each chunk turned at its own "
           "arange from %1, not at the positions after the rows before it (a chunked prefill's position_ids "
           "not offset by the cache)"_s.arg(positions.front())
               .arg(starts.join(u", "_s));
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
        const auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
        return u"every row is at its --position-ids %1 %2: the positions are off by %3 (declared %4..%5, read "
               "%6..%7)%8"_s
                   .arg(*offset < 0 ? u"-"_s : u"+"_s, QString::number(std::abs(*offset)), QString::number(*offset))
                   .arg(*lo)
                   .arg(*hi)
                   .arg(*lo + *offset)
                   .arg(*hi + *offset)
                   .arg(*lo + *offset == 0 ? u": rows after a cache turned from position 0, the cache's length not "
                                             "added (the offset taken before the cache's concatenation, "
                                             "RobertCsordas/moeut#6)"_s
                                           : QString());
    }
    if (const QString restart = restartWords(positions, ids); !restart.isEmpty()) {
        result.mistakes.append(kPositionsOutOfOrder);
        return restart;
    }
    if (atIndex && notArange) {
        result.mistakes.append(kArangePositions);
        return u"every row r is turned at position r, not at its --position-ids (row %1's id is %2): the rotation "
               "took arange(L) where the batch's ids differ; transformers' generation gives a left-padded row's "
               "real tokens attention_mask.long().cumsum(-1) - 1 (generation/utils.py, "
               "GenerationMixin.prepare_inputs_for_generation)"_s.arg(*notArange)
                   .arg(ids[*notArange]);
    }
    // Rows the frequencies read place at no position are not shown elsewhere than their ids: with
    // every row read at its id, no order is wrong (a few rows of a slow rope_theta pin no
    // frequencies: 40 rows at 1e6 read three); the rows stay deviating cells, unnamed.
    bool away = false;
    for (std::size_t r = 0; r < positions.size() && !away; ++r)
        away = positions[r] >= 0 && positions[r] != ids[r];
    if (!away)
        return unreadWords(positions) + u"; every other row is at its --position-ids"_s;
    result.mistakes.append(kPositionsOutOfOrder);
    constexpr qsizetype kShown = 8;
    QStringList runs;
    qsizetype shown = 0;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        if (positions[r] == ids[r])
            continue;
        const QString run = idRunText(positions, ids, r);
        if (++shown <= kShown)
            runs.append(run);
    }
    return u"the rows are not at their --position-ids: %1%2; every other row at its id"_s.arg(
        runs.join(u", "_s), shown > kShown ? u", …"_s : QString());
}

std::vector<PositionRun> runsOf(const std::vector<std::int64_t> &positions)
{
    std::vector<PositionRun> runs;
    for (std::size_t p = 0; p < positions.size(); ++p) {
        const std::int64_t at = positions[p];
        if (!runs.empty()) {
            PositionRun &last = runs.back();
            const bool follows = at < 0 ? last.position < 0 : last.position >= 0 && at == last.position + last.count;
            if (follows) {
                ++last.count;
                continue;
            }
        }
        runs.push_back({std::int64_t(p), at, 1});
    }
    return runs;
}

std::int64_t unreadRows(const Result &result)
{
    std::int64_t unread = 0;
    for (const PositionRun &run : result.positions)
        unread += run.position < 0 ? run.count : 0;
    return unread;
}

QString positionLines(Result &result, const std::vector<std::int64_t> &positions)
{
    const std::int64_t first = positions.front();
    const bool constant = first >= 0 && result.positions.size() == 1;
    if (constant)
        result.positionOffset = first;
    // Rows at k..k+L-1, nothing declaring their positions: rows after a cache of k tokens (a decoding
    // step, a later chunk of a chunked prefill) turned faithfully, or a sequence's first tokens off by
    // k, which nothing given tells apart. As a RoPE table of a later chunk is (CheckQueryWindows::
    // atFoundWindow), a window whose positions are said, not judged: only --position-ids judges them.
    if (constant && first != 0) {
        result.notes.append(
            u"the rows are positions %1..%2, read from Y, not declared: rows after a cache of %1 token%3 (a "
            "decoding step, a later chunk of a chunked prefill) turned faithfully, a window whose positions "
            "are said, not judged; a sequence's first tokens (HF's position_ids start at 0) would be off by %1. "
            "Declare the rows' positions (--position-ids) to have them judged"_s.arg(first)
                .arg(first + std::int64_t(positions.size()) - 1)
                .arg(first == 1 ? QString() : u"s"_s));
        return {};
    }
    if (constant)
        return {};
    // Every row at one position: a scalar (the cache's length, the last position) broadcast over the
    // sequence where arange was meant, or the rows one token's heads (unknown in conclude).
    if (positions.size() > 1 && first >= 0
        && std::all_of(positions.begin(), positions.end(), [first](std::int64_t p) { return p == first; })) {
        result.mistakes.append(kPositionsConstant);
        return u"every row is at position %1: one position for all %2 rows, a scalar (a cache's length, the last "
               "position) broadcast over the sequence where each token has its own (HF's position_ids are "
               "arange(past, past + L))"_s.arg(first)
                   .arg(positions.size());
    }
    // Rows read at no position beside rows each at its own index order nothing wrongly: the rows the
    // frequencies cannot place (a rotation the reading's pairing does not hold, a slow rope_theta)
    // stay deviating cells, unnamed, as against --position-ids (idLines).
    bool elsewhere = false;
    std::int64_t unread = 0;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        elsewhere = elsewhere || (positions[r] >= 0 && positions[r] != std::int64_t(r));
        unread += positions[r] < 0 ? 1 : 0;
    }
    if (!elsewhere && unread > 0)
        return unreadWords(positions) + u"; every other row is at its own index"_s;
    // The runs away from their own rows, the rest said at once where every one is at its own row.
    result.mistakes.append(kPositionsOutOfOrder);
    // Every row r at s r: the positions scaled, or the rotation applied s times over, R(p w)^s =
    // R(s p w), which at an attention factor of 1 no reading of the rows tells apart.
    std::int64_t scale = positions.size() > 1 ? positions[1] : 0;
    for (std::size_t p = 0; p < positions.size() && scale > 1; ++p)
        scale = positions[p] == scale * std::int64_t(p) ? scale : 0;
    if (scale > 1)
        return u"every row r is at position %1 r, not r: the positions scaled by %1, or the rotation applied %1 "
               "times over%2"_s.arg(scale)
                   .arg(scale == 2 ? u" (R(p w) applied to R(p w) X is R(2 p w) X: RoPE "
                                     "applied twice, once by each of two paths)"_s
                                   : QString());
    const auto own = [](const PositionRun &run) { return run.position == run.row; };
    std::int64_t ownRows = 0;
    for (const PositionRun &run : result.positions)
        ownRows += own(run) ? run.count : 0;
    const bool othersOwn = ownRows > 0;
    constexpr qsizetype kShown = 8;
    QStringList runs;
    qsizetype away = 0;
    for (std::size_t i = 0; i < result.positions.size(); ++i) {
        if (othersOwn && own(result.positions[i]))
            continue;
        if (++away <= kShown)
            runs.append(runText(result.positions, i));
    }
    return u"the rows' positions are out of order, not one run from 0: %1%2%3"_s.arg(
        runs.join(u", "_s), away > kShown ? u", …"_s : QString(),
        othersOwn ? u"; the other %1 row%2 r at position r"_s.arg(ownRows).arg(ownRows == 1 ? QString() : u"s"_s)
                  : QString());
}

void conclude(Result &result, const Declared &declared, const std::vector<std::int64_t> &positions, QStringList lines,
              bool reversed)
{
    ApplyPairs::layoutMistakes(result, declared.layout, lines);
    const QString turn = result.rotation == RopeLayout::Half ? u"rotate_half"_s : u"rotate_every_two"_s;
    if (reversed && declared.quarterTurned) {
        result.mistakes.append(ApplyColumns::kCosSinSwapped);
        lines.append(u"cos and sin are exchanged in the rotation: Y = q * sin + %1(q) * cos turns each pair by "
                     "pi/2 - angle (row 0, at position 0, is %1(q): X turned a quarter); HF's apply_rotary_pos_emb "
                     "takes q * cos + %1(q) * sin (each row's position is read with Y turned back a quarter and "
                     "its angles negated)"_s.arg(turn));
    } else if (reversed && !declared.reference) {
        // Undeclared, the sign is a convention: y1 = x1 cos + x2 sin, y2 = x2 cos - x1 sin (modded-
        // nanogpt's and vukrosic/leo-optimizer's Rotary) turns by -angle and is still relative (q·k
        // depends on n - m alone). Only a declared reference makes it HF's mistake.
        result.notes.append(u"each pair turns by -angle: Y = q * cos - %1(q) * sin (y1 = x1 cos + x2 sin, as "
                            "modded-nanogpt's Rotary), the reverse of HF's apply_rotary_pos_emb, which adds "
                            "%1(q) * sin; a convention of its own (still a relative rotation). Declare the "
                            "reference (--expect rope and its flags, --preset or --expect-config) to have it named "
                            "rotation-reversed"_s.arg(turn));
    } else if (reversed) {
        result.mistakes.append(kRotationReversed);
        lines.append(u"the rotation turns the wrong way: Y = q * cos - %1(q) * sin turns each pair by -angle, "
                     "as sin negated or every position negated would; HF's apply_rotary_pos_emb adds %1(q) * sin "
                     "(each row's position is read with its angles negated)"_s.arg(turn));
    }
    // Most rows at no position the frequencies read give, nothing declared: the reading explains too
    // few rows to say where they are (a few rows of a slow rope_theta pin no frequencies), no order.
    const auto unread = std::count(positions.begin(), positions.end(), std::int64_t(-1));
    if (!declared.reference && declared.ids.empty() && result.mistakes.isEmpty()
        && 2 * unread > std::ssize(positions)) {
        result.verdict = CheckVerdict::Unknown;
        result.correctAgainst.clear();
        result.diagnosis = u"Y is X turned pair by pair, but the frequencies read from it (%1) place %2 of its %3 "
                           "rows and the others at no position: too few rows to pin the frequencies, or no RoPE's; "
                           "declare the reference (--expect rope and its flags, --preset or --config) to have each "
                           "row compared"_s.arg(result.frequencies)
                               .arg(std::ssize(positions) - unread)
                               .arg(std::ssize(positions));
        return;
    }
    const QString line
        = declared.ids.empty() ? positionLines(result, positions) : idLines(result, positions, declared.ids);
    if (!line.isEmpty())
        lines.append(line);
    ApplyTwice::nameDoubled(result, declared, positions, lines);
    if (ApplyPairs::concludeMistakes(result, lines, u"their positions"_s)) {
        // Every row at one position and nothing else amiss, no --position-ids: a scalar broadcast, or
        // one token's heads; nothing given tells them apart: unknown, named (docs/ARCHITECTURE.md,
        // Checking a rotation). Rows at r + k are a window said (positionLines), no mistake.
        const bool positionsAlone = result.mistakes == QStringList {CheckMistakes::kPositionOffset}
            || result.mistakes == QStringList {kPositionsConstant};
        if (declared.ids.empty() && positionsAlone && result.deviatingRows == 0) {
            result.verdict = CheckVerdict::Unknown;
            result.correctAgainst.clear();
        }
        // Rows off the frequencies fitted to them, nothing named and nothing declared: a fit of few
        // rows (a slow rope_theta's pairs read as proportional's still tail) is no reference, and
        // no faithful computation is shown to differ.
        if (!declared.reference && result.mistakes.isEmpty() && result.correctAgainst.isEmpty()) {
            result.verdict = CheckVerdict::Unknown;
            result.diagnosis += u"; no published form's frequencies and no named mistake explain them: declare the "
                                "reference (--expect rope and its flags, --preset or --config) to have them "
                                "compared"_s;
        }
        return;
    }
    result.verdict = result.correctAgainst.isEmpty() || reversed ? CheckVerdict::Variant : CheckVerdict::Correct;
    QString part;
    if (result.rotaryDim < result.headDim)
        part = u", rotary_dim %1 of head_dim %2 (columns %1..%3 pass through unchanged)"_s.arg(result.rotaryDim)
                   .arg(result.headDim)
                   .arg(result.headDim - 1);
    const std::int64_t from = result.positionOffset.value_or(0);
    const QString at = declared.ids.empty()
        ? u"positions %1..%2%3"_s.arg(from)
              .arg(from + std::int64_t(positions.size()) - 1)
              .arg(from == 0 ? QString() : u" (read from Y, not declared: a window of a sequence)"_s)
        : u"its --position-ids (%1 rows at positions %2..%3)"_s.arg(positions.size())
              .arg(*std::min_element(declared.ids.begin(), declared.ids.end()))
              .arg(*std::max_element(declared.ids.begin(), declared.ids.end()));
    result.diagnosis = u"Y is X turned by RoPE at %1 with %2 pairs, the table's and the rotation's "
                       "alike%3, attention factor %4"_s.arg(at, ApplyPairs::layoutWords(result.rotation), part)
                           .arg(result.attentionFactor);
    if (reversed) { // undeclared (else named above): a variant of HF's, the turn said
        result.correctAgainst.clear();
        result.diagnosis += u"; a variant: every pair turned by -angle (the reverse of HF's rotation)"_s;
    }
}

} // namespace posenc::ApplyCheck
