#include "MropeLessonNumbers.h"

#include "core/FamilySpec.h"
#include "core/mrope/MropePrompt.h"
#include "core/mrope/MropeRotation.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::MropeLessonNumbers {

using namespace LessonNumbers;

namespace {

constexpr double kOffset = 32.0; // the width offset the lesson turns pairs by, in merged patches

const QString kInvalid = u"the M-RoPE settings are not valid"_s;

// The layout of the prompt under `era`, or nothing where the parameters are not valid.
std::optional<MropeLayout> layoutOf(const Params &p, std::optional<MropeEra> era = std::nullopt)
{
    if (!validUnder(p, Encoding::Mrope))
        return std::nullopt;
    MropeParams mrope = p.mrope;
    if (era)
        mrope.era = *era;
    auto built = MropeLayout::build(mrope);
    if (auto *layout = std::get_if<MropeLayout>(&built))
        return std::move(*layout);
    return std::nullopt;
}

// The n-th vision span of `kind` (1 image, 2 video) and the first text span after it.
const MropeLayout::Span *visionSpan(const MropeLayout &layout, MropeTokenKind kind, const MropeLayout::Span **after)
{
    const std::vector<MropeLayout::Span> &spans = layout.spans();
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (spans[i].kind != kind)
            continue;
        *after = nullptr;
        for (std::size_t j = i + 1; j < spans.size() && !*after; ++j)
            if (spans[j].kind == MropeTokenKind::Text)
                *after = &spans[j];
        return &spans[i];
    }
    return nullptr;
}

// A number of the first span of `kind`: `what` of the span and the text after it.
Number spanNumber(const Params &p, MropeTokenKind kind, std::optional<MropeEra> era,
                  const std::function<double(const MropeLayout::Span &, const MropeLayout::Span *)> &what)
{
    const auto layout = layoutOf(p, era);
    if (!layout)
        return none(kInvalid);
    const MropeLayout::Span *after = nullptr;
    const MropeLayout::Span *span = visionSpan(*layout, kind, &after);
    if (!span)
        return none(kind == MropeTokenKind::Image ? u"the prompt has no image"_s : u"the prompt has no video"_s);
    return integer(std::int64_t(what(*span, after)));
}

// The inverse frequencies of RoPE's rows at these parameters, and the split's axes.
struct Split
{
    std::vector<double> inv;
    std::vector<int> axes;
};

std::optional<Split> splitOf(const Params &p, bool interleaved, std::optional<double> theta = std::nullopt)
{
    if (!validUnder(p, Encoding::Mrope))
        return std::nullopt;
    Params rotary = RopeFrequencies::underRope(p);
    if (theta)
        rotary.rope.theta = *theta;
    Split split;
    split.inv = RopeFrequencies::table(rotary).inv;
    MropeParams mrope = p.mrope;
    mrope.interleaved = interleaved;
    if (MropeAxes::sectionProblem(mrope, std::ssize(split.inv)))
        return std::nullopt;
    split.axes = MropeAxes::axes(mrope, std::ssize(split.inv));
    return split;
}

// The fastest w pair's turn for a 32-patch width offset (or the pair itself).
Number widthTurn(const Params &p, bool interleaved, bool pairItself, std::optional<double> theta = std::nullopt)
{
    const auto split = splitOf(p, interleaved, theta);
    if (!split)
        return none(u"the section does not split these pairs"_s);
    const std::int64_t j = MropeAxes::fastestPair(split->axes, 2);
    if (j < 0)
        return none(u"no pair turns with the width"_s);
    return pairItself ? integer(j) : real(kOffset * split->inv[std::size_t(j)]);
}

// <q, R(offset along `axis`) q> / |q|^2 for q all ones: the pairs of other axes do not turn.
Number offsetScore(const Params &p, bool interleaved, int axis, double offset)
{
    const auto split = splitOf(p, interleaved);
    if (!split)
        return none(u"the section does not split these pairs"_s);
    double sum = 0.0;
    for (std::size_t j = 0; j < split->inv.size(); ++j)
        sum += split->axes[j] == axis ? std::cos(offset * split->inv[j]) : 1.0;
    return real(sum / double(split->inv.size()));
}

} // namespace

QList<Entry> entries()
{
    using Span = MropeLayout::Span;
    constexpr auto image = MropeTokenKind::Image;
    constexpr auto video = MropeTokenKind::Video;
    return {
        {u"mrope_tokens"_s, u"the prompt's tokens"_s,
         [](const Params &p) {
             const auto l = layoutOf(p);
             return l ? integer(l->tokens()) : none(kInvalid);
         }},
        {u"mrope_image_tokens"_s, u"the first image's tokens: T·(h/m)·(w/m)"_s,
         [](const Params &p) {
             return spanNumber(p, image, {}, [](const Span &s, const Span *) { return double(s.rows); });
         }},
        {u"mrope_image_rows"_s, u"the first image's rows of merged patches, h/m"_s,
         [](const Params &p) {
             return spanNumber(p, image, {}, [](const Span &s, const Span *) { return double(s.gridH); });
         }},
        {u"mrope_image_columns"_s, u"the first image's columns of merged patches, w/m"_s,
         [](const Params &p) {
             return spanNumber(p, image, {}, [](const Span &s, const Span *) { return double(s.gridW); });
         }},
        {u"mrope_image_start"_s, u"the id the first image's ids start at"_s,
         [](const Params &p) {
             return spanNumber(p, image, {}, [](const Span &s, const Span *) { return double(s.start); });
         }},
        {u"mrope_image_next"_s, u"the id of the first text token after the first image"_s,
         [](const Params &p) {
             return spanNumber(p, image, {}, [](const Span &, const Span *a) { return a ? double(a->start) : -1.0; });
         }},
        {u"mrope_image_cost"_s, u"the positions the first image takes: the next text's id less its start"_s,
         [](const Params &p) {
             return spanNumber(p, image, {},
                               [](const Span &s, const Span *a) { return a ? double(a->start - s.start) : -1.0; });
         }},
        {u"mrope_video_tokens"_s, u"the first video's tokens"_s,
         [](const Params &p) {
             return spanNumber(p, video, {}, [](const Span &s, const Span *) { return double(s.rows); });
         }},
        {u"mrope_video_grids"_s, u"the first video's temporal grids T"_s,
         [](const Params &p) {
             return spanNumber(p, video, {}, [](const Span &s, const Span *) { return double(s.gridT); });
         }},
        {u"mrope_video_step"_s, u"the t id of the first video's second grid less its first's"_s,
         [](const Params &p) {
             return spanNumber(p, video, {}, [](const Span &s, const Span *) {
                 return double(s.tOffset(std::min<std::int64_t>(1, s.gridT - 1)));
             });
         }},
        {u"mrope_video_next"_s, u"the id of the first text token after the first video"_s,
         [](const Params &p) {
             return spanNumber(p, video, {}, [](const Span &, const Span *a) { return a ? double(a->start) : -1.0; });
         }},
        {u"mrope_video_next_v4"_s, u"the same under transformers 4.x: the largest id so far + 1"_s,
         [](const Params &p) {
             return spanNumber(p, video, MropeEra::V4,
                               [](const Span &, const Span *a) { return a ? double(a->start) : -1.0; });
         }},
        {u"mrope_video_next_v5"_s, u"the same under transformers 5.x: the start + max(h, w)/m"_s,
         [](const Params &p) {
             return spanNumber(p, video, MropeEra::V5,
                               [](const Span &, const Span *a) { return a ? double(a->start) : -1.0; });
         }},
        {u"mrope_max_id"_s, u"the largest id of the prompt"_s,
         [](const Params &p) {
             const auto l = layoutOf(p);
             return l ? integer(l->maxId()) : none(kInvalid);
         }},
        {u"mrope_rope_deltas"_s, u"rope_deltas = max id + 1 − tokens"_s,
         [](const Params &p) {
             const auto l = layoutOf(p);
             return l ? integer(l->ropeDelta()) : none(kInvalid);
         }},
        {u"mrope_next_id"_s, u"the first generated token's id: its cache position (the tokens) + rope_deltas"_s,
         [](const Params &p) {
             const auto l = layoutOf(p);
             return l ? integer(l->maxId() + 1) : none(kInvalid);
         }},
        {u"mrope_deltas_gap"_s, u"how far a generated token lands from its id when rope_deltas is lost: |rope_deltas|"_s,
         [](const Params &p) {
             const auto l = layoutOf(p);
             return l ? integer(std::abs(l->ropeDelta())) : none(kInvalid);
         }},
        {u"mrope_w_pair_chunked"_s, u"the fastest pair of the width axis, chunked"_s,
         [](const Params &p) { return widthTurn(p, false, true); }},
        {u"mrope_w_turn_chunked"_s, u"what a 32-patch width offset turns the fastest w pair by, chunked (rad)"_s,
         [](const Params &p) { return widthTurn(p, false, false); }},
        {u"mrope_w_pair_interleaved"_s, u"the fastest pair of the width axis, interleaved"_s,
         [](const Params &p) { return widthTurn(p, true, true); }},
        {u"mrope_w_turn_interleaved"_s, u"the same turn, interleaved with the same section (rad)"_s,
         [](const Params &p) { return widthTurn(p, true, false); }},
        {u"mrope_w_turn_interleaved_5e6"_s, u"the interleaved turn at Qwen3-VL-8B's θ = 5·10⁶ (rad)"_s,
         [](const Params &p) { return widthTurn(p, true, false, 5e6); }},
        {u"mrope_score_w31_chunked"_s, u"⟨q, R q⟩/‖q‖² for q all ones and a width offset of 31 patches, chunked"_s,
         [](const Params &p) { return offsetScore(p, false, 2, 31.0); }},
        {u"mrope_score_h31_chunked"_s, u"the same for a height offset of 31 patches, chunked"_s,
         [](const Params &p) { return offsetScore(p, false, 1, 31.0); }},
        {u"mrope_score_w31_interleaved"_s, u"the width offset's score, interleaved"_s,
         [](const Params &p) { return offsetScore(p, true, 2, 31.0); }},
    };
}

} // namespace posenc::MropeLessonNumbers
