// The ids M-RoPE's apply check compares with (docs/ARCHITECTURE.md, Checking a rotation):
// huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py get_rope_index (MropeLayout) for
// the prompt's rows, and compute_3d_position_ids for the rows after it (position_ids =
// arange(past, past + seq) + rope_deltas, the same on the three axes).
#include "check/mrope/MropeApplyIds.h"

#include "core/NumberText.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::MropeApplyCheck {

namespace {

using MropeMistakes::kAxesSwapped;
using MropeMistakes::kIdsDiffer;
using MropeMistakes::kIdsOffset;
using MropeMistakes::kRopeDeltasLost;
using MropeMistakes::kTimeTruncated;

QString idsText(const RowIds &ids)
{
    return u"(%1, %2, %3)"_s.arg(ids.t).arg(ids.h).arg(ids.w);
}

// The axes' permutations but the identity, each with its words.
struct Exchange
{
    std::array<int, 3> from;
    QString words;
};

const std::array<Exchange, 5> kExchanges {{
    {{0, 2, 1}, u"the h and w ids are exchanged"_s},
    {{1, 0, 2}, u"the t and h ids are exchanged"_s},
    {{2, 1, 0}, u"the t and w ids are exchanged"_s},
    {{1, 2, 0}, u"the ids are rotated: t holds h's, h holds w's, w holds t's"_s},
    {{2, 0, 1}, u"the ids are rotated: t holds w's, h holds t's, w holds h's"_s},
}};

std::int64_t idOn(const RowIds &ids, int axis)
{
    return axis == 0 ? ids.t : axis == 1 ? ids.h : ids.w;
}

RowIds exchanged(const RowIds &ids, const std::array<int, 3> &from)
{
    return {idOn(ids, from[0]), idOn(ids, from[1]), idOn(ids, from[2])};
}

RowIds shifted(const RowIds &ids, std::int64_t by)
{
    return {ids.t + by, ids.h + by, ids.w + by};
}

} // namespace

std::variant<IdReference, QString> IdReference::of(const Params &params, std::int64_t rows)
{
    auto built = MropeLayout::build(params.mrope);
    if (const auto *problem = std::get_if<QString>(&built))
        return *problem;
    IdReference reference(std::get<MropeLayout>(std::move(built)));
    const auto &spans = reference.m_layout.spans();
    if (std::any_of(spans.begin(), spans.end(), MropeMistakes::truncationMoves)) {
        auto truncated = MropeLayout::build(MropeMistakes::truncatedTime(params).mrope);
        if (auto *layout = std::get_if<MropeLayout>(&truncated))
            reference.m_truncated = std::move(*layout);
    }
    reference.m_era = params.mrope.era;
    auto other = MropeLayout::build(MropeMistakes::otherEra(params).mrope);
    if (auto *layout = std::get_if<MropeLayout>(&other))
        reference.m_otherEra = std::move(*layout);
    if (reference.maxId() + 1 + std::max<std::int64_t>(rows - reference.tokens(), 0) >= MropePrompt::kMaxId)
        return u"its decode rows' ids reach past 16777215"_s;
    return reference;
}

RowIds IdReference::expected(std::int64_t row) const
{
    if (row >= tokens()) {
        const std::int64_t id = row + ropeDeltas();
        return {id, id, id};
    }
    const MropeIds ids = m_layout.ids(row);
    return {ids.t, ids.h, ids.w};
}

const MropeLayout::Span &IdReference::spanOf(std::int64_t row) const
{
    const auto &spans = m_layout.spans();
    auto span = std::upper_bound(spans.begin(), spans.end(), row,
                                 [](std::int64_t r, const MropeLayout::Span &s) { return r < s.firstRow; });
    return *(span - 1);
}

namespace {

// Where every row is `layout`'s (the decode rows after it at cache position + its rope_deltas)
// and some is not the reference's, the first such row.
std::optional<std::int64_t> firstMoved(const Result &result, const std::optional<MropeLayout> &other,
                                       const IdReference &reference)
{
    if (!other)
        return std::nullopt;
    const MropeLayout &layout = *other;
    std::optional<std::int64_t> first;
    for (std::int64_t r = 0; r < std::ssize(result.ids); ++r) {
        const std::int64_t decode = r + layout.ropeDelta();
        const MropeIds i
            = r < layout.tokens() ? layout.ids(r) : MropeIds {MropeTokenKind::Text, decode, decode, decode};
        const RowIds &got = result.ids[std::size_t(r)];
        if (got != RowIds {i.t, i.h, i.w})
            return std::nullopt;
        if (!first && got != reference.expected(r))
            first = r;
    }
    return first;
}

} // namespace

bool IdReference::otherEra(const Result &result, QStringList &lines) const
{
    const auto first = firstMoved(result, m_otherEra, *this);
    if (!first)
        return false;
    lines.append(u"%1 (row %2: %3, not %4)"_s.arg(MropeMistakes::otherEraLine(m_era))
                     .arg(*first)
                     .arg(idsText(result.ids[std::size_t(*first)]), idsText(expected(*first))));
    return true;
}

// Every row get_rope_index's of the prompt with second_per_grid truncated to an integer (the
// decode rows after it at cache position + its rope_deltas).
bool IdReference::timeTruncated(const Result &result, QStringList &lines) const
{
    const auto moved = firstMoved(result, m_truncated, *this);
    if (!moved)
        return false;
    const std::int64_t first = *moved;
    const auto video = std::find_if(m_layout.spans().begin(), m_layout.spans().end(), MropeMistakes::truncationMoves);
    lines.append(u"the video's temporal ids are truncated: second_per_grid %1 is cast to the integer %2 before the "
                 "product with tokens_per_second %3 (transformers 4.x before PR #48669), where get_rope_index "
                 "gives trunc(k * %1 * %3) (row %4: t %5, not %6)"_s
                     .arg(NumberText::exact(video->secondPerGrid), NumberText::exact(std::trunc(video->secondPerGrid)),
                          NumberText::exact(video->tokensPerSecond))
                     .arg(first)
                     .arg(result.ids[std::size_t(first)].t)
                     .arg(expected(first).t));
    return true;
}

// Every row that differs a video row whose h and w are the reference's and whose t stays at its
// span's start: a video's temporal ids truncated to 0.
bool IdReference::temporalZero(const Result &result, QStringList &lines) const
{
    std::int64_t rows = 0, first = -1;
    for (std::int64_t r = 0; r < std::ssize(result.ids); ++r) {
        const RowIds want = expected(r), &got = result.ids[std::size_t(r)];
        if (got == want)
            continue;
        if (r >= tokens() || got.h != want.h || got.w != want.w)
            return false;
        const MropeLayout::Span &span = spanOf(r);
        if (span.kind != MropeTokenKind::Video || got.t != span.start)
            return false;
        first = first < 0 ? r : first;
        ++rows;
    }
    if (rows == 0)
        return false;
    const RowIds want = expected(first);
    lines.append(u"the temporal ids are truncated to 0: %1 video rows keep t at their span's start, where "
                 "get_rope_index advances it with each temporal grid (row %2: t %3, not %4)"_s.arg(rows)
                     .arg(first)
                     .arg(result.ids[std::size_t(first)].t)
                     .arg(want.t));
    return true;
}

// The prompt's rows the reference's, the rows after it at their cache positions (or from 0)
// without rope_deltas.
bool IdReference::decodeLost(const Result &result, QStringList &lines) const
{
    const std::int64_t rows = std::ssize(result.ids);
    if (rows <= tokens() || ropeDeltas() == 0)
        return false;
    for (std::int64_t r = 0; r < tokens(); ++r) {
        if (result.ids[std::size_t(r)] != expected(r))
            return false;
    }
    for (const std::int64_t start : {tokens(), std::int64_t(0)}) {
        bool all = true;
        for (std::int64_t r = tokens(); r < rows && all; ++r) {
            const std::int64_t id = start + r - tokens();
            all = result.ids[std::size_t(r)] == RowIds {id, id, id};
        }
        if (!all)
            continue;
        lines.append(u"the rope_deltas offset is lost after the prompt: the %1 decode rows are at %2 %3..%4, where "
                     "get_rope_index's prompt ends at id %5 and they belong at cache position + rope_deltas %6, "
                     "%7..%8"_s.arg(rows - tokens())
                         .arg(start == 0 ? u"ids restarting from"_s : u"their cache positions"_s)
                         .arg(start)
                         .arg(start + rows - tokens() - 1)
                         .arg(maxId())
                         .arg(ropeDeltas())
                         .arg(maxId() + 1)
                         .arg(maxId() + rows - tokens()));
        return true;
    }
    return false;
}

// Ids of a class `posenc check --position-ids` names (MropeIdsRules), said in words under
// mrope-ids-differ: every row at (r, r, r), 1-D positions over the vision rows
// (linkedin/Liger-Kernel#276); or each span's ids moved to its first row, the text after a block
// resuming at the token count.
std::optional<QString> IdReference::knownClass(const Result &result) const
{
    const std::int64_t rows = std::ssize(result.ids);
    bool oneD = true, count = true;
    for (std::int64_t r = 0; r < rows; ++r) {
        const RowIds &got = result.ids[std::size_t(r)];
        oneD = oneD && got == RowIds {r, r, r};
        const std::int64_t by = r < tokens() ? spanOf(r).firstRow - spanOf(r).start : -ropeDeltas();
        count = count && got == shifted(expected(r), by);
    }
    if (oneD)
        return u"every row r is at ids (r, r, r): 1-D text positions over the prompt's image and video rows, where "
               "get_rope_index gives them (t, h, w) grid ids (position_ids not taken from get_rope_index: "
               "linkedin/Liger-Kernel#276; posenc check --position-ids names it mrope-1d-positions)"_s;
    if (count)
        return u"the text after each image or video resumes at the token count (the block's first id + its rows), "
               "where get_rope_index resumes at the block's largest id + 1 (posenc check --position-ids names it "
               "mrope-text-resume)"_s;
    return std::nullopt;
}

bool IdReference::compare(Result &result, QStringList &lines) const
{
    const std::int64_t rows = std::ssize(result.ids);
    const auto all = [&](auto &&same) {
        for (std::int64_t r = 0; r < rows; ++r) {
            if (!same(result.ids[std::size_t(r)], expected(r)))
                return false;
        }
        return true;
    };
    if (all([](const RowIds &got, const RowIds &want) { return got == want; })) {
        result.idOffset = 0;
        return true;
    }
    const std::int64_t offset = result.ids.front().t - expected(0).t;
    if (result.ids.front().t >= 0
        && all([&](const RowIds &got, const RowIds &want) { return got == shifted(want, offset); })) {
        result.idOffset = offset;
        result.mistakes.append(kIdsOffset);
        lines.append(u"every id is get_rope_index's + %1 on all three axes: the ids are off by %1"_s.arg(offset));
        return true;
    }
    for (const Exchange &e : kExchanges) {
        if (all([&](const RowIds &got, const RowIds &want) { return got == exchanged(want, e.from); })) {
            result.mistakes.append(kAxesSwapped);
            lines.append(e.words
                         + u" against get_rope_index's (t, h, w), whose w index runs fastest in a vision span"_s);
            return true;
        }
    }
    if (timeTruncated(result, lines) || temporalZero(result, lines)) {
        result.mistakes.append(kTimeTruncated);
        return true;
    }
    if (decodeLost(result, lines)) {
        result.mistakes.append(kRopeDeltasLost);
        return true;
    }
    if (otherEra(result, lines)) {
        result.mistakes.append(MropeMistakes::kOtherEra);
        return true;
    }
    if (const auto words = knownClass(result)) {
        result.mistakes.append(kIdsDiffer);
        lines.append(*words);
        return true;
    }
    std::int64_t differ = 0, first = -1;
    for (std::int64_t r = 0; r < rows; ++r) {
        if (result.ids[std::size_t(r)] != expected(r)) {
            ++differ;
            first = first < 0 ? r : first;
        }
    }
    result.mistakes.append(kIdsDiffer);
    lines.append(
        u"%1 rows' ids differ from get_rope_index's; the first, row %2: %3, not %4 (t, h, w; -1 not read)"_s.arg(differ)
            .arg(first)
            .arg(idsText(result.ids[std::size_t(first)]), idsText(expected(first))));
    return true;
}

bool IdReference::textFromZero(Result &result, QStringList &lines)
{
    const RowIds &front = result.ids.front();
    const bool text = front.t >= 0 && front.t == front.h && front.h == front.w;
    const std::int64_t offset = front.t;
    bool run = text;
    for (std::int64_t r = 0; r < std::ssize(result.ids) && run; ++r)
        run = result.ids[std::size_t(r)] == shifted(RowIds {r, r, r}, offset);
    if (text && offset != 0) {
        result.mistakes.append(kIdsOffset);
        result.idOffset = offset;
        lines.append(run ? u"every row r is at ids (r + %1, r + %1, r + %1): the ids are off by %1 (get_rope_index "
                           "starts every prompt at 0)"_s.arg(offset)
                         : u"row 0's ids are (%1, %1, %1): get_rope_index starts every prompt at 0 on all three "
                           "axes"_s.arg(offset));
    }
    if (run && offset == 0)
        result.idOffset = 0;
    if (!run)
        result.notes.append(u"without --prompt the ids read are not compared with get_rope_index's: give the prompt "
                            "to name an offset, exchanged axes, truncated temporal ids or a lost rope_deltas"_s);
    return run;
}

} // namespace posenc::MropeApplyCheck
