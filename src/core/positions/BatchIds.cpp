#include "BatchIds.h"

#include "core/Engine.h"
#include "core/mrope/MropeRotation.h"

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

bool allText(const MropeLayout &prompt)
{
    return std::all_of(prompt.spans().begin(), prompt.spans().end(),
                       [](const MropeLayout::Span &span) { return span.kind == MropeTokenKind::Text; });
}

// Whether M-RoPE's prompt of these parameters is text alone.
bool textPrompt(const Params &params)
{
    const auto layout = MropeLayout::build(params.mrope);
    const auto *prompt = std::get_if<MropeLayout>(&layout);
    return prompt && allText(*prompt);
}

} // namespace

int BatchIds::axesOf(const Params &params)
{
    return params.encoding == Encoding::Mrope ? 3 : 1;
}

bool BatchIds::takesOneId(const Params &params)
{
    return params.encoding != Encoding::Mrope || (BatchLayout(params).hasDocuments() && textPrompt(params));
}

std::optional<QString> BatchIds::problemOf(const Params &params)
{
    if (params.encoding != Encoding::Mrope || !params.isValid())
        return std::nullopt;
    const Engine engine(params);
    return engine.source<BatchIds>().problem();
}

std::optional<QString> BatchIds::distancesProblem(const Params &params)
{
    if (params.encoding != Encoding::Mrope)
        return std::nullopt;
    if (!textPrompt(params))
        return u"M-RoPE's image and video tokens have three ids that differ: the distances are drawn for a text "
               "prompt (--prompt text:N)"_s;
    if (params.batch.cache > 0)
        return u"M-RoPE's decode steps take cache_position + rope_deltas, which the padding can shift: the "
               "distances are drawn without a cache"_s;
    return std::nullopt;
}

QStringList BatchIds::promptKeys()
{
    return {
        u"prompt"_s,          u"vision-positions"_s, u"mrope-era"_s, u"spatial-merge-size"_s, u"tokens-per-second"_s,
        u"second-per-grid"_s, u"timestamp-tokens"_s};
}

BatchIds::BatchIds(const Engine &engine)
    : m_layout(engine.params())
    , m_mrope(engine.params().encoding == Encoding::Mrope)
{
    if (!m_mrope)
        return;
    m_prompt = &engine.source<MropeLayout>();
    m_textOnly = allText(*m_prompt);
    if (m_layout.hasDocuments() && !m_textOnly) {
        // A pack's ids are the flattening collator's, one a token, which Qwen2VLTextModel.forward
        // expands to t, h and w (position_ids[None, ...].expand(3, ...)); for an image in a pack
        // its comment expects the user to build each document's three grids' ids, which the
        // collator does not.
        m_problem = u"packed documents take the flattening collator's ids, one a token, which "
                    "Qwen2VLTextModel.forward gives t, h and w alike; an image or video in a pack needs each "
                    "document's get_rope_index ids, which the collator does not build: give a text prompt "
                    "(--prompt text:N)"_s;
        return;
    }
    for (const MropeLayout::Span &span : m_prompt->spans()) {
        const std::int64_t text = span.start + span.rows - 1;
        m_spanLargest.push_back(span.kind == MropeTokenKind::Text
                                    ? std::array {text, text, text}
                                    : std::array {span.start + span.tOffset(span.gridT - 1),
                                                  span.start + span.gridH - 1, span.start + span.gridW - 1});
    }
    for (std::int64_t b = 0; b < m_layout.rows(); ++b) {
        Prefill prefill;
        for (const BatchSegment &s : m_layout.row(b)) {
            if (s.isReal() && !s.decode)
                prefill.tokens += s.length;
        }
        if (const auto cut = cutSpan(prefill.tokens)) {
            // "row 0's prefill (5) ends inside ...", "row 0's real tokens (9) end inside ...".
            m_problem = u"row %1's %2 %3"_s.arg(b).arg(m_layout.cache() > 0 ? u"prefill"_s : u"real tokens"_s,
                                                       cut->arg(m_layout.cache() > 0 ? u"ends"_s : u"end"_s));
            return;
        }
        prefill.largest = prefixLargest(prefill.tokens);
        m_prefills.push_back(prefill);
    }
    liftByPadding();
}

// get_rope_index's branch without vision (no row's prefill reaches an image or video, so
// image_grid_thw is None) takes rope_deltas from position_ids.max(...) over the whole row, the
// padding's filled 1 among the ids: a padded row of one real token gets 2 - columns, not 1 - columns,
// and its decode steps ids from 2 on.
void BatchIds::liftByPadding()
{
    std::int64_t firstVision = std::numeric_limits<std::int64_t>::max();
    for (const MropeLayout::Span &span : m_prompt->spans()) {
        if (span.kind != MropeTokenKind::Text)
            firstVision = std::min(firstVision, span.firstRow);
    }
    const std::int64_t columns = m_layout.cache() > 0 ? m_layout.cache() : m_layout.cols();
    if (std::any_of(m_prefills.begin(), m_prefills.end(), [&](const Prefill &p) { return p.tokens > firstVision; }))
        return;
    for (Prefill &prefill : m_prefills) {
        if (prefill.tokens < columns && prefill.largest < BatchLayout::kPaddingId) {
            prefill.largest = BatchLayout::kPaddingId;
            m_lifted = m_layout.cache() > 0;
        }
    }
}

std::optional<QString> BatchIds::cutSpan(std::int64_t tokens) const
{
    if (tokens <= 0 || tokens >= m_prompt->tokens())
        return std::nullopt;
    const MropeIds last = m_prompt->ids(tokens - 1), next = m_prompt->ids(tokens);
    if (last.kind == MropeTokenKind::Text || next.kind != last.kind)
        return std::nullopt;
    for (const MropeLayout::Span &span : m_prompt->spans()) {
        if (span.firstRow < tokens && tokens < span.firstRow + span.rows)
            return u"(%1) %5 inside the prompt's %2 at tokens %3 to %4: get_rope_index needs whole grids"_s.arg(tokens)
                .arg(span.kind == MropeTokenKind::Image ? u"image"_s : u"video"_s)
                .arg(span.firstRow)
                .arg(span.firstRow + span.rows - 1);
    }
    return std::nullopt;
}

std::int64_t BatchIds::prefixLargest(std::int64_t tokens) const
{
    if (tokens > m_prompt->tokens())
        return m_prompt->maxId() + (tokens - m_prompt->tokens());
    std::int64_t largest = -1;
    const auto &spans = m_prompt->spans();
    for (std::size_t i = 0; i < spans.size() && spans[i].firstRow < tokens; ++i) {
        const bool whole = spans[i].firstRow + spans[i].rows <= tokens;
        const auto &most = m_spanLargest[i];
        largest = std::max(
            largest, whole ? std::max({most[0], most[1], most[2]}) : spans[i].start + (tokens - spans[i].firstRow) - 1);
    }
    return largest;
}

// The k-th real token of row b: the prompt's k-th, text after it, and a decode step after the
// prefill: the prefill's largest id + 1 onwards, which is cache_position + rope_deltas.
MropeIds BatchIds::promptIds(std::int64_t b, std::int64_t k) const
{
    const Prefill &prefill = m_prefills[std::size_t(b)];
    if (k >= prefill.tokens) {
        const std::int64_t id = prefill.largest + 1 + (k - prefill.tokens);
        return {MropeTokenKind::Text, id, id, id};
    }
    if (k >= m_prompt->tokens()) {
        const std::int64_t id = m_prompt->maxId() + 1 + (k - m_prompt->tokens());
        return {MropeTokenKind::Text, id, id, id};
    }
    return m_prompt->ids(k);
}

void BatchIds::mropeIds(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const
{
    for (const BatchSegment &s : m_layout.row(b)) {
        const std::int64_t from = std::max(c0, s.start), to = std::min(c0 + count, s.end());
        for (std::int64_t c = from; c < to; ++c) {
            std::int64_t v[3];
            if (!s.isReal()) {
                const std::int64_t pad = choice == IdsChoice::ArangeWithPadding ? c : BatchLayout::kPaddingId;
                v[0] = v[1] = v[2] = pad;
            } else if (choice == IdsChoice::CacheOffset && s.decode) {
                v[0] = v[1] = v[2] = c; // cache_position alone: rope_deltas lost
            } else {
                const std::int64_t k = s.realBefore + (c - s.start);
                const MropeIds ids = promptIds(b, k);
                // Without the mask, get_rope_index counts the padding before a token as text.
                const std::int64_t shift = choice == IdsChoice::ArangeWithPadding ? c - k
                    : choice == IdsChoice::OffByOne                               ? 1
                                                                                  : 0;
                v[0] = ids.t + shift;
                v[1] = ids.h + shift;
                v[2] = ids.w + shift;
            }
            for (int a = 0; a < 3; ++a)
                out[a * count + (c - c0)] = v[a];
        }
    }
}

void BatchIds::ids(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const
{
    if (!m_mrope) {
        m_layout.ids(choice, b, c0, count, out);
    } else if (m_layout.hasDocuments() || m_layout.byColumn()) {
        // A text pack: the collator's ids on every axis; by column, the column on every axis.
        m_layout.ids(choice, b, c0, count, out);
        std::copy(out, out + count, out + count);
        std::copy(out, out + count, out + 2 * count);
    } else {
        mropeIds(choice, b, c0, count, out);
    }
}

std::int64_t BatchIds::id(IdsChoice choice, std::int64_t b, std::int64_t c, int axis) const
{
    if (!m_mrope || m_layout.hasDocuments() || m_layout.byColumn())
        return m_layout.id(choice, b, c);
    std::int64_t v[3];
    mropeIds(choice, b, c, 1, v);
    return v[axis];
}

// The largest id of row b's real tokens [k0, k1) on `axis`, or any (-1). Past the prompt every axis
// holds the same ids (text, decode steps), each above the prompt's.
std::int64_t BatchIds::rangeLargest(std::int64_t b, std::int64_t k0, std::int64_t k1, int axis) const
{
    const Prefill &prefill = m_prefills[std::size_t(b)];
    std::int64_t largest = -1;
    if (k1 > prefill.tokens) {
        largest = prefill.largest + (k1 - prefill.tokens); // the decode steps', increasing
        k1 = prefill.tokens;
    }
    if (k1 > m_prompt->tokens()) {
        largest = std::max(largest, m_prompt->maxId() + (k1 - m_prompt->tokens()));
        k1 = m_prompt->tokens();
    }
    const auto &spans = m_prompt->spans();
    for (std::size_t i = 0; i < spans.size() && spans[i].firstRow < k1; ++i) {
        const std::int64_t from = std::max(k0, spans[i].firstRow), to = std::min(k1, spans[i].firstRow + spans[i].rows);
        if (from >= to)
            continue;
        if (from == spans[i].firstRow && to == spans[i].firstRow + spans[i].rows) {
            const auto &most = m_spanLargest[i];
            largest = std::max(largest, axis < 0 ? std::max({most[0], most[1], most[2]}) : most[std::size_t(axis)]);
            continue;
        }
        for (std::int64_t k = from; k < to; ++k) {
            const MropeIds ids = m_prompt->ids(k);
            largest = std::max(largest,
                               axis < 0 ? std::max({ids.t, ids.h, ids.w})
                                        : std::array {ids.t, ids.h, ids.w}[std::size_t(axis)]);
        }
    }
    return largest;
}

std::int64_t BatchIds::maxId(IdsChoice choice, int axis) const
{
    if (!m_mrope || m_layout.hasDocuments() || m_layout.byColumn())
        return m_layout.maxId(choice);
    std::int64_t most = -1;
    for (std::int64_t b = 0; b < m_layout.rows(); ++b) {
        for (const BatchSegment &s : m_layout.row(b)) {
            if (!s.isReal())
                continue;
            std::int64_t largest = rangeLargest(b, s.realBefore, s.realBefore + s.length, axis);
            if (choice == IdsChoice::ArangeWithPadding)
                largest += s.start - s.realBefore;
            else if (choice == IdsChoice::CacheOffset && s.decode)
                largest = s.end() - 1;
            else if (choice == IdsChoice::OffByOne)
                largest += 1;
            most = std::max(most, largest);
        }
    }
    return most;
}

std::vector<int> BatchIds::pairAxes(const Params &params, std::int64_t pairs) const
{
    if (!m_mrope)
        return std::vector<int>(std::size_t(pairs), 0);
    return MropeAxes::axes(params.mrope, pairs);
}

std::int64_t BatchIds::ropeDelta(std::int64_t b) const
{
    if (!m_mrope || m_layout.hasDocuments() || m_layout.byColumn())
        return 0;
    const std::int64_t columns = m_layout.cache() > 0 ? m_layout.cache() : m_layout.cols();
    return m_prefills[std::size_t(b)].largest + 1 - columns;
}

} // namespace posenc
