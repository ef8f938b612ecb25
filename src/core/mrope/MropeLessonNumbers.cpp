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

// The first vision span of `kind` and the span right after it, whatever it holds: an image
// followed by a video without text between gives the video the id the text would have taken
// (get_rope_index moves its running start past each span alike), so what the image costs is that
// span's start less its own, not the next text's.
const MropeLayout::Span *visionSpan(const MropeLayout &layout, MropeTokenKind kind, const MropeLayout::Span **after)
{
    const std::vector<MropeLayout::Span> &spans = layout.spans();
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (spans[i].kind != kind)
            continue;
        *after = i + 1 < spans.size() ? &spans[i + 1] : nullptr;
        return &spans[i];
    }
    return nullptr;
}

// What the span after a vision span of `kind` holds, as a sentence names it: "the text", "the
// video", "the next image".
Number thenWords(const Params &p, MropeTokenKind kind)
{
    const auto layout = layoutOf(p);
    if (!layout)
        return none(kInvalid);
    const MropeLayout::Span *after = nullptr;
    if (!visionSpan(*layout, kind, &after))
        return none(kind == MropeTokenKind::Image ? u"the prompt has no image"_s : u"the prompt has no video"_s);
    if (!after)
        return none(u"nothing follows it"_s);
    switch (after->kind) {
    case MropeTokenKind::Text:
        return word(u"the text"_s);
    case MropeTokenKind::Image:
        return word(kind == MropeTokenKind::Image ? u"the next image"_s : u"the image"_s);
    case MropeTokenKind::Video:
        return word(kind == MropeTokenKind::Video ? u"the next video"_s : u"the video"_s);
    }
    return none(u"nothing follows it"_s);
}

// A number of the first span of `kind`: `what` of the span and the text after it, or none where
// `what` is negative (no text after the span, no second grid).
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
    const double value = what(*span, after);
    return value < 0.0 ? none(u"nothing follows it, or it has one grid"_s) : integer(std::int64_t(value));
}

// The first video's temporal grids T as its segment of the prompt gives them: Qwen3-VL lays each out
// as a span of its own (one frame, gridT 1), so the first span alone would count one.
Number videoGrids(const Params &p)
{
    if (!layoutOf(p))
        return none(kInvalid);
    const auto parsed = MropePrompt::parse(p.mrope.prompt, p.mrope.spatialMergeSize);
    if (const auto *segments = std::get_if<std::vector<MropeSegment>>(&parsed)) {
        for (const MropeSegment &segment : *segments)
            if (segment.kind == MropeSegment::Kind::Video)
                return integer(segment.t);
    }
    return none(u"the prompt has no video"_s);
}

// The inverse frequencies of RoPE's rows at these parameters, and the split's axes.
struct Split
{
    std::vector<double> inv;
    std::vector<int> axes;
};

std::optional<Split> splitOf(const Params &p, bool interleaved)
{
    if (!validUnder(p, Encoding::Mrope))
        return std::nullopt;
    const Params rotary = RopeFrequencies::underRope(p);
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
Number widthTurn(const Params &p, bool interleaved, bool pairItself)
{
    const auto split = splitOf(p, interleaved);
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

bool isMrope(const Params &p)
{
    return p.encoding == Encoding::Mrope;
}

const QString kNotMrope = u"not here: the encoding is not mrope"_s;

// The model whose get_rope_index gives the ids, in words.
QString visionWords(MropeVision vision)
{
    switch (vision) {
    case MropeVision::Qwen2Vl:
        return u"Qwen2-VL's"_s;
    case MropeVision::Qwen25Vl:
        return u"Qwen2.5-VL's"_s;
    case MropeVision::Qwen3Vl:
        return u"Qwen3-VL's"_s;
    }
    return {};
}

// A condition per model of vision positions, "mrope_vision_qwen2_5_vl".
QList<Entry> visionConditions()
{
    QList<Entry> list;
    const std::pair<MropeVision, QString> models[] = {{MropeVision::Qwen2Vl, u"qwen2_vl"_s},
                                                      {MropeVision::Qwen25Vl, u"qwen2_5_vl"_s},
                                                      {MropeVision::Qwen3Vl, u"qwen3_vl"_s}};
    for (const auto &model : models) {
        const MropeVision vision = model.first; // a variable: clang 14 captures no structured binding
        const QString &name = model.second;
        list.append({u"mrope_vision_"_s + name,
                     u"a condition: the ids are %1 get_rope_index's"_s.arg(visionWords(vision)),
                     [vision](const Params &p) {
                         return !isMrope(p) ? none(kNotMrope)
                                            : condition(p.mrope.vision == vision, u"its ids are another model's"_s);
                     }});
    }
    return list;
}

// What follows the first image and the first video, in words.
QList<Entry> thenEntries()
{
    return {{u"mrope_image_then"_s, u"what follows the first image: \"the text\", \"the video\", \"the next image\""_s,
             [](const Params &p) { return thenWords(p, MropeTokenKind::Image); }},
            {u"mrope_video_then"_s, u"what follows the first video: \"the text\", \"the image\", \"the next video\""_s,
             [](const Params &p) { return thenWords(p, MropeTokenKind::Video); }}};
}

// Whether two scores read apart at prose's three digits. A score other than 1 reads in the digits
// that tell it from 1 (Qwen3-VL's 0.99999999 and 0.9998), and both of those barely move.
bool readApart(double a, double b)
{
    return QString::number(a, 'g', 3) != QString::number(b, 'g', 3);
}

} // namespace

QList<Entry> entries()
{
    using Span = MropeLayout::Span;
    constexpr auto image = MropeTokenKind::Image;
    constexpr auto video = MropeTokenKind::Video;
    return visionConditions() + thenEntries()
        + QList<Entry> {
            {u"mrope_vision"_s, u"the model whose get_rope_index gives the ids"_s,
             [](const Params &p) { return isMrope(p) ? word(visionWords(p.mrope.vision)) : none(kNotMrope); }},
            {u"mrope_chunked"_s, u"a condition: the section's pairs are chunked (Qwen2-VL, Qwen2.5-VL)"_s,
             [](const Params &p) {
                 return isMrope(p) ? condition(!p.mrope.interleaved, u"the axes are interleaved"_s) : none(kNotMrope);
             }},
            {u"mrope_interleaved"_s, u"a condition: the axes are interleaved (Qwen3-VL)"_s,
             [](const Params &p) {
                 return isMrope(p) ? condition(p.mrope.interleaved, u"the section's pairs are chunked"_s)
                                   : none(kNotMrope);
             }},
            {u"mrope_theta"_s, u"rope_theta of the multimodal RoPE"_s,
             [](const Params &p) { return isMrope(p) ? real(p.rope.theta) : none(kNotMrope); }},
            {u"mrope_w_turn_ratio"_s, u"the interleaved turn of a 32-patch width offset over the chunked one"_s,
             [](const Params &p) {
                 const Number interleaved = widthTurn(p, true, false), chunked = widthTurn(p, false, false);
                 if (!interleaved.value || !chunked.value || *chunked.value <= 0.0)
                     return none(u"the section does not split these pairs"_s);
                 return real(*interleaved.value / *chunked.value);
             }},
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
            {u"mrope_image_next"_s, u"the id of the first token after the first image, text or vision"_s,
             [](const Params &p) {
                 return spanNumber(p, image, {},
                                   [](const Span &, const Span *a) { return a ? double(a->start) : -1.0; });
             }},
            {u"mrope_image_cost"_s, u"the positions the first image takes: the next span's id less its start"_s,
             [](const Params &p) {
                 return spanNumber(p, image, {},
                                   [](const Span &s, const Span *a) { return a ? double(a->start - s.start) : -1.0; });
             }},
            {u"mrope_video_tokens"_s, u"the first video's tokens"_s,
             [](const Params &p) {
                 return spanNumber(p, video, {}, [](const Span &s, const Span *) { return double(s.rows); });
             }},
            {u"mrope_video_grids"_s, u"the first video's temporal grids T, as the prompt gives them"_s,
             [](const Params &p) { return videoGrids(p); }},
            {u"mrope_video_many"_s, u"a condition: the first video has two temporal grids or more"_s,
             [](const Params &p) {
                 const Number grids = videoGrids(p);
                 return grids.value ? condition(*grids.value >= 2.0, u"the video has one grid"_s) : grids;
             }},
            {u"mrope_video_step"_s, u"the t id of the first video's second grid less its first's"_s,
             [](const Params &p) {
                 return spanNumber(p, video, {}, [](const Span &s, const Span *) {
                     return s.gridT < 2 ? -1.0 : double(s.tOffset(1) - s.tOffset(0));
                 });
             }},
            {u"mrope_video_next"_s, u"the id of the first token after the first video, text or vision"_s,
             [](const Params &p) {
                 return spanNumber(p, video, {},
                                   [](const Span &, const Span *a) { return a ? double(a->start) : -1.0; });
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
            {u"mrope_eras_differ"_s,
             u"a condition: transformers 4.x and 5.x start what follows the first video at other ids"_s,
             [](const Params &p) {
                 const auto next = [&p](MropeEra era) {
                     return spanNumber(p, MropeTokenKind::Video, era,
                                       [](const Span &, const Span *a) { return a ? double(a->start) : -1.0; });
                 };
                 const Number v4 = next(MropeEra::V4), v5 = next(MropeEra::V5);
                 if (!v4.value || !v5.value)
                     return none(u"nothing follows a video"_s);
                 return condition(*v4.value != *v5.value, u"both start it at the same id"_s);
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
            {u"mrope_deltas_gap"_s,
             u"how far a generated token lands from its id when rope_deltas is lost: |rope_deltas|"_s,
             [](const Params &p) {
                 const auto l = layoutOf(p);
                 if (!l)
                     return none(kInvalid);
                 return l->ropeDelta() != 0 ? integer(std::abs(l->ropeDelta())) : none(u"rope_deltas is 0"_s);
             }},
            {u"mrope_w_pair_chunked"_s, u"the fastest pair of the width axis, chunked"_s,
             [](const Params &p) { return widthTurn(p, false, true); }},
            {u"mrope_w_turn_chunked"_s, u"what a 32-patch width offset turns the fastest w pair by, chunked (rad)"_s,
             [](const Params &p) { return widthTurn(p, false, false); }},
            {u"mrope_w_pair_interleaved"_s, u"the fastest pair of the width axis, interleaved"_s,
             [](const Params &p) { return widthTurn(p, true, true); }},
            {u"mrope_w_turn_interleaved"_s, u"the same turn, interleaved with the same section (rad)"_s,
             [](const Params &p) { return widthTurn(p, true, false); }},
            {u"mrope_score_w31_chunked"_s, u"⟨q, R q⟩/‖q‖² for q all ones and a width offset of 31 patches, chunked"_s,
             [](const Params &p) { return offsetScore(p, false, 2, 31.0); }},
            {u"mrope_score_h31_chunked"_s, u"the same for a height offset of 31 patches, chunked"_s,
             [](const Params &p) { return offsetScore(p, false, 1, 31.0); }},
            {u"mrope_height_moves"_s,
             u"a condition: chunked, the 31-patch height offset's score reads lower than the width's"_s,
             [](const Params &p) {
                 const Number w = offsetScore(p, false, 2, 31.0), h = offsetScore(p, false, 1, 31.0);
                 if (!w.present() || !h.present())
                     return w.present() ? h : w;
                 return condition(readApart(*h.value, *w.value) && *h.value < *w.value,
                                  u"the height offset scores as the width's"_s);
             }},
            {u"mrope_score_w31_interleaved"_s, u"the width offset's score, interleaved"_s,
             [](const Params &p) { return offsetScore(p, true, 2, 31.0); }},
        };
}

} // namespace posenc::MropeLessonNumbers
