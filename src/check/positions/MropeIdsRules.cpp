// M-RoPE's id mistakes against a declared prompt (docs/ARCHITECTURE.md, Positions in practice).
// Each class's ids are regenerated for the batch (BatchIds of parameters changed as the mistake
// changes them, or the reference's ids moved as the mistake moves them) and named only where they
// are the given ones, every real token on every axis.
#include "MropeIdsRules.h"

#include "check/mrope/MropeMistakes.h"
#include "core/CountWords.h"
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/positions/BatchIds.h"
#include "core/positions/BatchParamRows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

using namespace Qt::StringLiterals;

namespace posenc::MropeIdsRules {

namespace {

const QString kSecondPerGrid = u"second-per-grid"_s;

// A row's ids under a hypothesis: axis a of column c at out[a · columns + c].
using RowFill = std::function<void(std::int64_t b, std::int64_t *out)>;

std::int64_t given(const RowMatrixXf &ids, std::int64_t rows, int axis, std::int64_t b, std::int64_t c)
{
    const double v = ids(axis * rows + b, c);
    return std::isfinite(v) ? std::llround(v) : std::numeric_limits<std::int64_t>::min();
}

// Whether every real token's three ids are the hypothesis's.
bool holds(const BatchLayout &layout, const RowMatrixXf &ids, const RowFill &fill)
{
    std::vector<std::int64_t> row(std::size_t(3 * layout.cols()));
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        fill(b, row.data());
        for (const BatchSegment &s : layout.row(b)) {
            if (!s.isReal())
                continue;
            for (int a = 0; a < 3; ++a)
                for (std::int64_t c = s.start; c < s.end(); ++c)
                    if (given(ids, layout.rows(), a, b, c) != row[std::size_t(a * layout.cols() + c)])
                        return false;
        }
    }
    return true;
}

// Whether the ids are get_rope_index's for `variant` (the same batch, another prompt or rule).
bool variantHolds(const Params &variant, const RowMatrixXf &ids)
{
    if (!variant.isValid())
        return false;
    const Engine engine(variant);
    const BatchIds &batch = engine.source<BatchIds>();
    if (batch.problem() || batch.axes() != 3)
        return false;
    const BatchLayout &layout = batch.layout();
    return holds(layout, ids,
                 [&](std::int64_t b, std::int64_t *out) { batch.ids(IdsChoice::Reference, b, 0, layout.cols(), out); });
}

QString promptText(std::vector<MropeSegment> segments, const std::vector<std::optional<double>> &seconds)
{
    for (std::size_t i = 0; i < segments.size() && i < seconds.size(); ++i)
        if (seconds[i] && segments[i].kind != MropeSegment::Kind::Text)
            segments[i].secondPerGrid = seconds[i];
    return MropePrompt::text(segments);
}

// The column of row b's k-th real token of its prefill, or nothing.
std::optional<std::int64_t> columnOf(const BatchLayout &layout, std::int64_t b, std::int64_t k)
{
    for (const BatchSegment &s : layout.row(b)) {
        if (s.isReal() && !s.decode && k >= s.realBefore && k < s.realBefore + s.length)
            return s.start + (k - s.realBefore);
    }
    return std::nullopt;
}

QString spanWords(const MropeLayout::Span &span)
{
    const QString kind = span.kind == MropeTokenKind::Text ? u"text"_s
        : span.kind == MropeTokenKind::Image               ? u"image"_s
                                                           : u"video"_s;
    return u"the %1 at prompt %2"_s.arg(
        kind, CountWords::range(span.firstRow, span.firstRow + span.rows - 1, u"token"_s, {}, u"-"_s));
}

class Rules
{
public:
    Rules(const Params &params, const RowMatrixXf &ids, const Declared &declared)
        : m_params(params)
        , m_ids(ids)
        , m_declared(declared)
        , m_engine(params)
        , m_batch(m_engine.source<BatchIds>())
        , m_prompt(m_engine.source<MropeLayout>())
    { }

    bool hasVision() const
    {
        return std::any_of(m_prompt.spans().begin(), m_prompt.spans().end(),
                           [](const MropeLayout::Span &s) { return s.kind != MropeTokenKind::Text; });
    }

    std::optional<Named> oneDimensional() const
    {
        Params p = m_params;
        p.mrope.prompt = u"text:%1"_s.arg(m_prompt.tokens());
        if (!variantHolds(p, m_ids))
            return someAsText();
        return Named {
            kOneDimensional,
            u"t = h = w = the token's index on every axis: 1-D text positions over the prompt's %1 image "
            "and video tokens, where get_rope_index gives each its (t, h, w) grid ids and the text after "
            "a vision block resumes at the block's largest id + 1 (position_ids not taken from "
            "get_rope_index: linkedin/Liger-Kernel#276)"_s.arg(m_prompt.imageTokens() + m_prompt.videoTokens())};
    }

    // Some vision blocks given text positions, the others their grid ids: one block, or every block
    // from one on (Blaizzy/mlx-vlm#1282: get_rope_index counted one image of two, the second image's tokens
    // read as text), each tried as get_rope_index of the prompt with those blocks text of their length.
    std::optional<Named> someAsText() const
    {
        const auto parsed = MropePrompt::parse(m_params.mrope.prompt, m_params.mrope.spatialMergeSize);
        const auto *segments = std::get_if<std::vector<MropeSegment>>(&parsed);
        const auto &spans = m_prompt.spans();
        if (!segments || segments->size() != spans.size())
            return std::nullopt;
        std::vector<std::size_t> vision;
        for (std::size_t i = 0; i < spans.size(); ++i)
            if (spans[i].kind != MropeTokenKind::Text)
                vision.push_back(i);
        if (vision.size() < 2)
            return std::nullopt; // one block as text is the whole prompt's, said by oneDimensional
        for (std::size_t k = 0; k < vision.size(); ++k) {
            for (const bool onward : {false, true}) {
                if (onward && (k == 0 || k + 1 == vision.size()))
                    continue; // every block (oneDimensional's), or the last alone (tried without onward)
                std::vector<MropeSegment> merged;
                QStringList blocks;
                for (std::size_t i = 0; i < segments->size(); ++i) {
                    const auto block = std::size_t(std::find(vision.begin(), vision.end(), i) - vision.begin());
                    const bool asText = block < vision.size() && (onward ? block >= k : block == k);
                    MropeSegment segment = (*segments)[i];
                    if (asText) {
                        segment = MropeSegment {};
                        segment.n = spans[i].rows;
                        blocks.append(spanWords(spans[i]));
                    }
                    if (segment.kind == MropeSegment::Kind::Text && !merged.empty()
                        && merged.back().kind == MropeSegment::Kind::Text)
                        merged.back().n += segment.n;
                    else
                        merged.push_back(segment);
                }
                Params p = m_params;
                p.mrope.prompt = MropePrompt::text(merged);
                if (!variantHolds(p, m_ids))
                    continue;
                return Named {kOneDimensional,
                              u"t = h = w, one text position a token, over %1, where get_rope_index gives a vision "
                              "block's tokens their (t, h, w) grid ids: %2 of the prompt's %3 vision blocks read "
                              "as text (Blaizzy/mlx-vlm#1282: every vision start but the first lost from the "
                              "count of images)"_s.arg(blocks.join(u" and "_s))
                                  .arg(blocks.size())
                                  .arg(vision.size())};
            }
        }
        return std::nullopt;
    }

    std::optional<Named> temporal() const;
    std::optional<Named> otherEra() const
    {
        if (!variantHolds(MropeMistakes::otherEra(m_params), m_ids))
            return std::nullopt;
        const QString line = MropeMistakes::otherEraLine(m_params.mrope.era, m_declared.era);
        return Named {m_declared.era ? MropeMistakes::kOtherEra : QString(),
                      m_declared.era ? line : line + u" (both are transformers' own)"_s};
    }
    std::optional<Named> truncated() const
    {
        const auto &spans = m_prompt.spans();
        if (std::none_of(spans.begin(), spans.end(), MropeMistakes::truncationMoves)
            || !variantHolds(MropeMistakes::truncatedTime(m_params), m_ids))
            return std::nullopt;
        return Named {MropeMistakes::kTimeTruncated,
                      u"the videos' t ids are those of second_per_grid truncated to an integer before the product "
                      "with tokens_per_second (transformers 4.x before PR #48669: torch.as_tensor(second_per_grid_t, "
                      "dtype=range_tensor.dtype))"_s};
    }
    std::optional<Named> textResume() const;
    std::optional<Named> axesSwapped() const;
    std::optional<Named> ropeDeltasLost() const;
    std::optional<Named> axisOffsets() const;
    std::optional<Named> resumeOneOff() const;

private:
    void reference(std::int64_t b, std::int64_t *out) const
    {
        m_batch.ids(IdsChoice::Reference, b, 0, m_batch.layout().cols(), out);
    }
    // The prompt's span of token k, or nothing past the prompt.
    const MropeLayout::Span *spanOf(std::int64_t k) const
    {
        if (k >= m_prompt.tokens())
            return nullptr;
        const auto &spans = m_prompt.spans();
        auto it = std::upper_bound(spans.begin(), spans.end(), k,
                                   [](std::int64_t r, const MropeLayout::Span &s) { return r < s.firstRow; });
        return &*(it - 1);
    }
    // Each real token's span (its index, spans().size() past the prompt and for decode steps).
    template<typename Visit> void tokens(Visit &&visit) const
    {
        const BatchLayout &layout = m_batch.layout();
        std::vector<std::int64_t> row(std::size_t(3 * layout.cols()));
        for (std::int64_t b = 0; b < layout.rows(); ++b) {
            reference(b, row.data());
            for (const BatchSegment &s : layout.row(b)) {
                if (!s.isReal())
                    continue;
                for (std::int64_t c = s.start; c < s.end(); ++c) {
                    const std::int64_t k = s.realBefore + (c - s.start);
                    const MropeLayout::Span *span = s.decode ? nullptr : spanOf(k);
                    const std::size_t index
                        = span ? std::size_t(span - m_prompt.spans().data()) : m_prompt.spans().size();
                    std::array<std::int64_t, 3> want {}, got {};
                    for (int a = 0; a < 3; ++a) {
                        want[std::size_t(a)] = row[std::size_t(a * layout.cols() + c)];
                        got[std::size_t(a)] = given(m_ids, layout.rows(), a, b, c);
                    }
                    if (!visit(index, want, got))
                        return;
                }
            }
        }
    }

    const Params &m_params;
    const RowMatrixXf &m_ids;
    Declared m_declared;
    const Engine m_engine;
    const BatchIds &m_batch;
    const MropeLayout &m_prompt;
};

// A video's t ids by another temporal rule: Qwen2-VL's grid index where Qwen2.5-VL's absolute time
// is declared, Qwen2.5-VL's at another second_per_grid (read from the ids' step), or its time
// where Qwen2-VL's index is declared.
std::optional<Named> Rules::temporal() const
{
    const MropeParams &m = m_params.mrope;
    if (m.vision == MropeVision::Qwen3Vl || m_prompt.videoTokens() == 0)
        return std::nullopt;
    const QString step = u"trunc(k · second_per_grid · tokens_per_second)"_s;
    if (m.vision == MropeVision::Qwen25Vl) {
        Params p = m_params;
        p.mrope.vision = MropeVision::Qwen2Vl;
        if (variantHolds(p, m_ids))
            return Named {kSecondPerGrid,
                          u"the videos' t ids are the grid index k, Qwen2-VL's rule (Qwen2VLModel.get_rope_index: "
                          "t_index = arange(llm_grid_t)), where Qwen2.5-VL's get_rope_index gives %1 at the "
                          "declared second_per_grid and tokens_per_second %2: second_per_grid_ts not used"_s.arg(
                              step, NumberText::exact(m.tokensPerSecond))};
    }
    // Each video's t offsets o_k = trunc(k · x) as row 0 gives them, x = second_per_grid ·
    // tokens_per_second: x in [o_k / k, (o_k + 1) / k) for every grid k; its lower end (exact where
    // the products are whole), else the middle of the range, is tried.
    const auto parsed = MropePrompt::parse(m.prompt, m.spatialMergeSize);
    const auto *segments = std::get_if<std::vector<MropeSegment>>(&parsed);
    if (!segments || segments->size() != m_prompt.spans().size())
        return std::nullopt;
    const BatchLayout &layout = m_batch.layout();
    std::vector<std::optional<double>> low(segments->size()), middle(segments->size());
    QStringList read, ranges;
    bool whole = true; // every product a whole step: the seconds exact, else their ranges said
    for (std::size_t i = 0; i < segments->size(); ++i) {
        const MropeLayout::Span &span = m_prompt.spans()[i];
        if (span.kind != MropeTokenKind::Video || span.gridT < 2)
            continue;
        const auto c0 = columnOf(layout, 0, span.firstRow);
        double lo = 0.0, hi = 1e12;
        for (std::int64_t k = 1; k < span.gridT && c0; ++k) {
            const auto ck = columnOf(layout, 0, span.firstRow + k * span.gridH * span.gridW);
            if (!ck)
                return std::nullopt;
            const std::int64_t o = given(m_ids, layout.rows(), 0, 0, *ck) - given(m_ids, layout.rows(), 0, 0, *c0);
            if (o < 0 || o > 100000000)
                return std::nullopt;
            lo = std::max(lo, double(o) / double(k));
            hi = std::min(hi, double(o + 1) / double(k));
        }
        if (!c0 || !(lo < hi))
            return std::nullopt;
        low[i] = lo / m.tokensPerSecond;
        middle[i] = (lo + hi) / 2.0 / m.tokensPerSecond;
        whole = whole && lo == std::floor(lo);
        read.append(NumberText::exact(*low[i]));
        ranges.append(
            u"[%1, %2)"_s.arg(NumberText::compact(*low[i], 6), NumberText::compact(hi / m.tokensPerSecond, 6)));
    }
    if (read.isEmpty())
        return std::nullopt;
    Params p = m_params;
    p.mrope.vision = MropeVision::Qwen25Vl;
    p.mrope.prompt = promptText(*segments, low);
    bool found = variantHolds(p, m_ids);
    if (!found) {
        p.mrope.prompt = promptText(*segments, middle);
        found = variantHolds(p, m_ids);
    }
    if (!whole || read.isEmpty())
        read = {u"in "_s + ranges.join(u", "_s)};
    if (!found)
        return std::nullopt;
    const QString at
        = u"second_per_grid %1 at tokens_per_second %2"_s.arg(read.join(u", "_s), NumberText::exact(m.tokensPerSecond));
    if (m.vision == MropeVision::Qwen25Vl)
        return Named {
            kSecondPerGrid,
            u"the videos' t ids are Qwen2.5-VL's %1 at %2, not at the declared second_per_grid "
            "(Qwen2_5_VLModel.get_rope_index: time_tensor = expanded_range * second_per_grid_t * "
            "tokens_per_second): the video's second_per_grid_ts is not the one its processor gives"_s.arg(step, at)};
    const QString words
        = u"the videos' t ids are Qwen2.5-VL's absolute time, %1 at %2 (Qwen2_5_VLModel.get_rope_index), where "
          "Qwen2-VL's get_rope_index gives the grid index k (t_index = arange(llm_grid_t))"_s.arg(step, at);
    if (m_declared.vision)
        return Named {kTemporalRule, words};
    return Named {QString(),
                  words
                      + u"; --vision-positions is not declared: if the model is Qwen2.5-VL, declare "
                        "--vision-positions qwen2.5-vl and the videos' seconds"_s};
}

// The text after a vision block at the 1-D token count (the block's first id + its tokens), where
// get_rope_index resumes at its largest id + 1 (4.x) or start + max(h, w) (5.x); each span's ids
// the reference's moved by its first token's index less its start.
std::optional<Named> Rules::textResume() const
{
    bool moved = false, all = true;
    tokens([&](std::size_t index, const std::array<std::int64_t, 3> &want, const std::array<std::int64_t, 3> &got) {
        const std::int64_t shift = index < m_prompt.spans().size()
            ? m_prompt.spans()[index].firstRow - m_prompt.spans()[index].start
            : -m_prompt.ropeDelta();
        for (std::size_t a = 0; a < 3; ++a)
            all = all && got[a] == want[a] + shift;
        moved = moved || shift != 0;
        return all;
    });
    if (!all || !moved)
        return std::nullopt;
    const auto &spans = m_prompt.spans();
    const auto after = std::find_if(spans.begin(), spans.end(), [](const MropeLayout::Span &s) {
        return s.kind == MropeTokenKind::Text && s.start != s.firstRow;
    });
    const QString example = after == spans.end()
        ? QString()
        : u" (%1 at %2, not %3)"_s.arg(spanWords(*after)).arg(after->firstRow).arg(after->start);
    return Named {kTextResume,
                  u"the text after each image or video resumes at the token count, the block's first id + its "
                  "tokens, as 1-D positions would%1, where get_rope_index resumes at %2 (st_idx = "
                  "llm_pos_ids_list[-1].max() + 1)"_s.arg(example,
                                                          m_params.mrope.era == MropeEra::V4
                                                              ? u"the block's largest id + 1"_s
                                                              : u"the block's start + max(h, w)"_s)};
}

std::optional<Named> Rules::axesSwapped() const
{
    static const std::array<std::pair<std::array<std::size_t, 3>, const char16_t *>, 5> exchanges {{
        {{0, 2, 1}, u"the h and w ids are exchanged"},
        {{1, 0, 2}, u"the t and h ids are exchanged"},
        {{2, 1, 0}, u"the t and w ids are exchanged"},
        {{1, 2, 0}, u"the ids are rotated: t holds h's, h holds w's, w holds t's"},
        {{2, 0, 1}, u"the ids are rotated: t holds w's, h holds t's, w holds h's"},
    }};
    for (const auto &exchange : exchanges) {
        const std::array<std::size_t, 3> &from = exchange.first; // a structured binding no lambda captures (clang 14)
        bool all = true;
        tokens([&](std::size_t, const std::array<std::int64_t, 3> &want, const std::array<std::int64_t, 3> &got) {
            for (std::size_t a = 0; a < 3; ++a)
                all = all && got[a] == want[from[a]];
            return all;
        });
        if (all)
            return Named {MropeMistakes::kAxesSwapped,
                          QString::fromUtf16(exchange.second)
                              + u" against get_rope_index's (t, h, w), whose w index runs fastest in a vision span"_s};
    }
    return std::nullopt;
}

// The prompt's ids the reference's, and the tokens after it (decode steps) at their cache position
// on every axis, the rope_deltas get_rope_index returns (the prompt's largest id + 1 - its tokens)
// not added: a decode step's ids are cache_position + rope_deltas (Qwen2VLModel.forward), which a
// server that loses the prefill's delta drops (sgl-project/sglang#8219, PD-disaggregated decode).
std::optional<Named> Rules::ropeDeltasLost() const
{
    const std::int64_t delta = m_prompt.ropeDelta();
    if (delta == 0)
        return std::nullopt;
    bool all = true, after = false;
    std::int64_t first = -1, last = -1;
    tokens([&](std::size_t index, const std::array<std::int64_t, 3> &want, const std::array<std::int64_t, 3> &got) {
        const bool decode = index >= m_prompt.spans().size();
        for (std::size_t a = 0; a < 3; ++a)
            all = all && got[a] == want[a] - (decode ? delta : 0);
        if (decode && all) {
            first = after ? first : got[0];
            last = got[0];
            after = true;
        }
        return all;
    });
    if (!all || !after)
        return std::nullopt;
    return Named {MropeMistakes::kRopeDeltasLost,
                  u"the tokens after the prompt hold their cache positions %1..%2 on t, h and w, without the "
                  "rope_deltas %3 that get_rope_index returns for the prompt (its largest id + 1 − its %4 tokens): a "
                  "decode step's ids are cache_position + rope_deltas, %5..%6 here; every id of the prompt is the "
                  "reference's"_s.arg(first)
                      .arg(last)
                      .arg(delta)
                      .arg(m_prompt.tokens())
                      .arg(first + delta)
                      .arg(last + delta)};
}

// Each span's axes off the reference's by a constant of their own, not all the same (a constant
// on every id is position-offset): an axis's start forgotten or added twice.
std::optional<Named> Rules::axisOffsets() const
{
    std::map<std::size_t, std::array<std::set<std::int64_t>, 3>> shifts;
    bool constant = true;
    tokens([&](std::size_t index, const std::array<std::int64_t, 3> &want, const std::array<std::int64_t, 3> &got) {
        auto &span = shifts[index];
        for (std::size_t a = 0; a < 3; ++a) {
            span[a].insert(got[a] - want[a]);
            constant = constant && span[a].size() == 1;
        }
        return constant;
    });
    if (!constant)
        return std::nullopt;
    std::set<std::int64_t> every;
    QStringList parts;
    for (const auto &[index, axes] : shifts) {
        QStringList off;
        for (std::size_t a = 0; a < 3; ++a) {
            const std::int64_t d = *axes[a].begin();
            every.insert(d);
            if (d != 0)
                off.append(u"%1 %2%3"_s.arg(QStringList {u"t"_s, u"h"_s, u"w"_s}[qsizetype(a)], d > 0 ? u"+"_s : u"−"_s,
                                            QString::number(std::abs(d))));
        }
        if (off.isEmpty())
            continue;
        parts.append(u"%1: %2"_s.arg(index < m_prompt.spans().size() ? spanWords(m_prompt.spans()[index])
                                                                     : u"the tokens after the prompt"_s,
                                     off.join(u", "_s)));
    }
    if (parts.isEmpty() || every.size() < 2)
        return std::nullopt;
    return Named {
        kAxisOffset,
        u"axes off get_rope_index's by a constant of their own (a block's start, st_idx + text_len, "
        "left out of an axis or added twice): %1; every other id is the reference's"_s.arg(parts.join(u"; "_s))};
}

// Every id from the text after one vision block on one more (or less) than the reference's, on
// every axis, the ids before it exact: that text resumed at the block's largest id + 2 (or + 0),
// not + 1 (r28a, finding 4: it was named mrope-axis-offset, an axis's own constant). off-by-one.
std::optional<Named> Rules::resumeOneOff() const
{
    std::map<std::size_t, std::set<std::int64_t>> shifts;
    bool ok = true;
    tokens([&](std::size_t index, const std::array<std::int64_t, 3> &want, const std::array<std::int64_t, 3> &got) {
        for (std::size_t a = 0; a < 3; ++a)
            shifts[index].insert(got[a] - want[a]);
        ok = ok && shifts[index].size() == 1;
        return ok;
    });
    if (!ok || shifts.empty())
        return std::nullopt;
    const auto &spans = m_prompt.spans();
    std::optional<std::size_t> from;
    std::int64_t k = 0;
    for (const auto &[index, shift] : shifts) {
        const std::int64_t d = *shift.begin();
        if (!from && d == 0)
            continue;
        if (!from) {
            // The first span off: a text span after a vision block, off by one.
            const bool textAfterVision = index < spans.size() && index > 0
                && spans[index].kind == MropeTokenKind::Text && spans[index - 1].kind != MropeTokenKind::Text;
            if (!textAfterVision || std::abs(d) != 1)
                return std::nullopt;
            from = index;
            k = d;
        } else if (d != k) {
            return std::nullopt;
        }
    }
    if (!from)
        return std::nullopt;
    const MropeLayout::Span &text = spans[*from];
    return Named {BatchParamRows::choiceWords().value(int(IdsChoice::OffByOne)),
                  u"%1 starts at id %2 where get_rope_index starts it at %3, the block before it's largest id "
                  "+ 1 (st_idx = llm_pos_ids_list[-1].max() + 1): its resume one off, and every id after it %4 "
                  "with it, on t, h and w alike; every id before it is the reference's"_s.arg(spanWords(text))
                      .arg(text.start + k)
                      .arg(text.start)
                      .arg(k > 0 ? u"one more"_s : u"one less"_s)};
}

} // namespace

QStringList ids()
{
    return {kOneDimensional, kTemporalRule, kTextResume, MropeMistakes::kRopeDeltasLost, kAxisOffset};
}

std::optional<Named> name(const Params &params, const RowMatrixXf &ids, const Declared &declared)
{
    if (params.encoding != Encoding::Mrope || ids.rows() != 3 * BatchLayout(params).rows())
        return std::nullopt;
    const Rules rules(params, ids, declared);
    if (!rules.hasVision())
        return std::nullopt;
    for (const auto &rule : {&Rules::oneDimensional, &Rules::truncated, &Rules::temporal, &Rules::otherEra,
                             &Rules::textResume, &Rules::axesSwapped, &Rules::resumeOneOff, &Rules::ropeDeltasLost,
                             &Rules::axisOffsets}) {
        if (auto named = (rules.*rule)())
            return named;
    }
    return std::nullopt;
}

} // namespace posenc::MropeIdsRules
