#include "MropeParamRows.h"

#include "MropePrompt.h"
#include "MropeRotation.h"
#include "core/TrContext.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::MropeParamRows {

namespace {

constexpr TrContext tr {"MropeParamRows"};

bool underMrope(const Params &p)
{
    return p.encoding == Encoding::Mrope;
}

std::optional<IdleReason> mropeIdle(const Params &p)
{
    return ParamRows::otherEncoding(p, Encoding::Mrope);
}

// Whether some video of the prompt has more than one temporal grid (an unreadable prompt counts
// as one that may).
bool hasLongVideo(const Params &p)
{
    const auto parsed = MropePrompt::parse(p.mrope.prompt, p.mrope.spatialMergeSize);
    const auto *segments = std::get_if<std::vector<MropeSegment>>(&parsed);
    if (!segments)
        return true;
    return std::any_of(segments->begin(), segments->end(),
                       [](const MropeSegment &s) { return s.kind == MropeSegment::Kind::Video && s.t > 1; });
}

// Idle under another encoding, while the model's rule is not `vision`, and while no video has a
// second grid for the rule to place.
std::optional<IdleReason> onlyUnder(const Params &p, MropeVision vision, const QString &why)
{
    if (const auto idle = mropeIdle(p))
        return idle;
    if (p.mrope.vision != vision)
        return IdleReason {IdleReason::Code::FamilySetting, why};
    if (!hasLongVideo(p))
        return IdleReason {IdleReason::Code::FamilySetting, tr("no video of the prompt has a second grid.")};
    return std::nullopt;
}

// Whether transformers 4.x and 5.x place every span of the prompt alike (images and one-grid
// videos: the next text at start + max(h, w)/m in both).
bool erasAgree(const Params &p)
{
    MropeParams v4 = p.mrope, v5 = p.mrope;
    v4.era = MropeEra::V4;
    v5.era = MropeEra::V5;
    const auto a = MropeLayout::build(v4), b = MropeLayout::build(v5);
    const auto *la = std::get_if<MropeLayout>(&a), *lb = std::get_if<MropeLayout>(&b);
    if (!la || !lb || la->spans().size() != lb->spans().size())
        return false;
    // Each span's start and temporal ids; a prompt of very many grids is taken to part.
    std::int64_t grids = 0;
    for (std::size_t i = 0; i < la->spans().size(); ++i) {
        const MropeLayout::Span &x = la->spans()[i], &y = lb->spans()[i];
        if (x.start != y.start || (grids += x.gridT) > 4096)
            return false;
        for (std::int64_t k = 0; k < x.gridT; ++k)
            if (x.tOffset(k) != y.tOffset(k))
                return false;
    }
    return true;
}

ParamSpec sectionRow()
{
    ParamSpec s;
    s.key = u"mrope-section"_s;
    s.group = ParamGroup::Family;
    s.kind = ParamKind::IndexList;
    s.valueName = u"T,H,W"_s;
    s.help = u"mrope_section: the rotary pairs of the t, h and w axes; chunked they are contiguous and sum to\n"
             "      rotary_dim / 2, interleaved h takes pairs 1, 4, ... below 3H and w pairs 2, 5, ... below 3W"_s;
    s.label = u"mrope_section"_s;
    s.value = [](const Params &p) { return ParamValue(p.mrope.section); };
    s.assign = [](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<std::int64_t>>(&v))
            p.mrope.section = *list;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (auto v = ParamTable::parseIndexList(t, 16))
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    const auto pairs = [](const Params &p) { return RopeFrequencies::pairs(p.rope); };
    s.allowed = [pairs](const Params &p) {
        if (underMrope(p) && !p.mrope.interleaved)
            return u"t,h,w: three counts summing to the %1 rotary pairs (rotary_dim / 2)"_s.arg(pairs(p));
        return u"t,h,w: three counts of rotary pairs"_s;
    };
    s.check = [pairs, allowed = s.allowed](const Params &p) -> std::optional<ParamError> {
        // Three counts under another family are never a problem: their problem's text, built for
        // nothing, was a part of every validation (RopeSearch::consider's thousands).
        if (!underMrope(p) && p.mrope.section.size() == 3)
            return std::nullopt;
        const std::int64_t h = underMrope(p) ? pairs(p) : RopeParams::kMaxHeadDim / 2;
        const auto problem = MropeAxes::sectionProblem(p.mrope, std::max<std::int64_t>(h, 1));
        if (!problem)
            return std::nullopt;
        QStringList counts;
        for (const std::int64_t c : p.mrope.section)
            counts.append(QString::number(c));
        return ParamError {u"mrope-section"_s, *problem, QString(), ParamError::quoted(counts.join(u','))};
    };
    s.idle = mropeIdle;
    s.formula = [](const Params &) {
        return tr("The rotary pairs of each axis. Chunked (apply_multimodal_rotary_pos_emb, Qwen2-VL, Qwen2.5-VL): "
                  "t takes the first s<sub>t</sub> pairs, h the next s<sub>h</sub>, w the last s<sub>w</sub>, "
                  "so width gets only the slowest frequencies. Interleaved (apply_interleaved_mrope, Qwen3-VL): "
                  "h takes pairs 1, 4, 7, … below 3s<sub>h</sub>, w pairs 2, 5, 8, … below 3s<sub>w</sub>, t the "
                  "rest; s<sub>t</sub> is never read.");
    };
    return s;
}

ParamSpec interleavedRow()
{
    ParamSpec s = ParamRows::switchRow(u"mrope-interleaved"_s, ParamGroup::Family,
                                       [](Params &p) -> bool & { return p.mrope.interleaved; });
    s.help = u"apply_interleaved_mrope (Qwen3-VL): the axes take turns pair by pair, THWTHW...; without it\n"
             "      each axis a contiguous section (Qwen2-VL, Qwen2.5-VL)"_s;
    s.label = u"mrope_interleaved"_s;
    s.controlText = u"interleaved: THWTHW… (Qwen3-VL)"_s;
    s.idle = mropeIdle;
    s.formula = [](const Params &) {
        return tr("Interleaved, as Qwen3-VL's apply_interleaved_mrope: every axis gets fast and slow pairs. "
                  "transformers does not read the config's mrope_interleaved key: Qwen3-VL always interleaves.");
    };
    return s;
}

ParamSpec visionRow()
{
    ParamSpec s = ParamRows::choice(u"vision-positions"_s, ParamGroup::Family, &Params::mrope, &MropeParams::vision,
                                    visionWords());
    s.help = u"whose get_rope_index gives the ids: qwen2-vl (a video's t id is its grid index), qwen2.5-vl\n"
             "      (t in absolute time), qwen3-vl (each temporal patch a frame between timestamp text)"_s;
    s.label = u"vision_positions"_s;
    s.idle = mropeIdle;
    s.formula = [](const Params &) {
        return tr("get_rope_index of Qwen2-VL (a video's grid k has t id k), Qwen2.5-VL (t id k · "
                  "second_per_grid · tokens_per_second, truncated: absolute time) or Qwen3-VL (video_grid_thw "
                  "repeated per temporal patch, each frame a (1, h, w) span after its timestamp's text).");
    };
    return s;
}

ParamSpec eraRow()
{
    ParamSpec s
        = ParamRows::choice(u"mrope-era"_s, ParamGroup::Family, &Params::mrope, &MropeParams::era, {u"v4"_s, u"v5"_s});
    s.help = u"transformers' rule after a vision span: v4 (4.x, Qwen's own) the next text at the span's\n"
             "      largest id + 1, v5 (5.x, main) at its start + max(H, W) / spatial-merge-size"_s;
    s.label = u"mrope_era"_s;
    s.choiceLabels = {u"v4: next at max id + 1"_s, u"v5: next at start + max(H′, W′)"_s};
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = mropeIdle(p))
            return idle;
        if (!erasAgree(p))
            return std::nullopt;
        return IdleReason {IdleReason::Code::FamilySetting,
                           tr("both eras give this prompt the same ids: they part only after a video of several "
                              "grids (or Qwen2.5-VL's images of several).")};
    };
    s.formula = [](const Params &) {
        return tr("transformers 4.x (Qwen's rule, the docstring's text after a 0, 50, 100 video at 101): the text "
                  "after a span starts at the largest id so far + 1. transformers 5.x (get_vision_position_ids): "
                  "at the span's start + max(H, W) // merge, the time axis left out, so text after a video of "
                  "several grids restarts inside the video's t range.");
    };
    return s;
}

ParamSpec mergeRow()
{
    ParamSpec s = ParamRows::integer(
        u"spatial-merge-size"_s, ParamGroup::Family,
        [](Params &p) -> std::int64_t & { return p.mrope.spatialMergeSize; },
        [](const Params &) { return std::pair<std::int64_t, std::int64_t>(1, MropeParams::kMaxMergeSize); });
    s.help = u"vision_config.spatial_merge_size m: m x m patches merge into one token, so a grid of h x w\n"
             "      patches gives (h/m) x (w/m) tokens; h and w must be multiples of m"_s;
    s.label = u"spatial_merge_size"_s;
    s.controlMin = 0;
    s.controlMax = MropeParams::kMaxMergeSize;
    // rope-2d reads it too (FamilySpec::borrows), for the Qwen ViT's order alone.
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (p.encoding != Encoding::Rope2d)
            return mropeIdle(p);
        if (p.rope2d.style == Rope2dStyle::QwenVit)
            return std::nullopt;
        return IdleReason {IdleReason::Code::FamilySetting,
                           tr("only rope-2d's qwen-vit orders its patches by "
                              "merge blocks.")};
    };
    s.formula = [](const Params &) {
        return tr("m: an image of h × w patches becomes (h/m) × (w/m) tokens, each one position on h and w; the "
                  "Qwen ViT (rope-2d qwen-vit) lists its patches m × m block by block.");
    };
    return s;
}

ParamSpec numberRow(const QString &key, double MropeParams::*field, double lo, double hi, bool open)
{
    ParamSpec s
        = ParamRows::numberRow(key, ParamGroup::Family, [field](Params &p) -> double & { return p.mrope.*field; });
    const QString range = open ? u"a number in (%1, %2]"_s : u"a number in [%1, %2]"_s;
    const QString allowed = range.arg(NumberText::exact(lo), u"1e6"_s);
    s.allowed = [allowed](const Params &) { return allowed; };
    s.check = [key, field, lo, hi, open, allowed](const Params &p) -> std::optional<ParamError> {
        const double v = p.mrope.*field;
        if (std::isfinite(v) && (open ? v > lo : v >= lo) && v <= hi)
            return std::nullopt;
        return ParamError {key, allowed, QString(), NumberText::exact(v)};
    };
    return s;
}

ParamSpec tokensPerSecondRow()
{
    ParamSpec s
        = numberRow(u"tokens-per-second"_s, &MropeParams::tokensPerSecond, 0.0, MropeParams::kMaxTokensPerSecond, true);
    s.help = u"vision_config.tokens_per_second (Qwen2.5-VL): the t ids one second of video moves"_s;
    s.label = u"tokens_per_second"_s;
    s.idle = [](const Params &p) {
        return onlyUnder(p, MropeVision::Qwen25Vl, tr("only qwen2.5-vl's t ids are in absolute time."));
    };
    s.formula = [](const Params &) {
        return tr("Qwen2.5-VL's video grid k has t id trunc(k · second_per_grid · tokens_per_second), in float32 "
                  "(2 for Qwen2.5-VL-7B).");
    };
    return s;
}

ParamSpec secondPerGridRow()
{
    ParamSpec s
        = numberRow(u"second-per-grid"_s, &MropeParams::secondPerGrid, 0.0, MropeParams::kMaxSecondPerGrid, false);
    s.help = u"second_per_grid_ts of a video that gives none (video:TxHxW@SECONDS): temporal_patch_size / fps"_s;
    s.label = u"second_per_grid"_s;
    s.idle = [](const Params &p) {
        return onlyUnder(p, MropeVision::Qwen25Vl, tr("only qwen2.5-vl's t ids are in absolute time."));
    };
    s.formula = [](const Params &) {
        return tr("The seconds one temporal grid spans, temporal_patch_size / fps: 1 at 2 fps. The product with "
                  "tokens_per_second is truncated, not rounded: 0.083 · 2 gives 0 for the first grids.");
    };
    return s;
}

ParamSpec timestampRow()
{
    ParamSpec s = ParamRows::integer(
        u"timestamp-tokens"_s, ParamGroup::Family, [](Params &p) -> std::int64_t & { return p.mrope.timestampTokens; },
        [](const Params &) { return std::pair<std::int64_t, std::int64_t>(0, MropeParams::kMaxTimestampTokens); });
    s.help = u"Qwen3-VL: the tokens of one \"<t.t seconds>\" timestamp, which the tokenizer decides; between\n"
             "      two frames of a video it and <|vision_end|>, <|vision_start|> take positions"_s;
    s.label = u"timestamp_tokens"_s;
    s.controlMin = 0;
    s.controlMax = MropeParams::kMaxTimestampTokens;
    s.idle = [](const Params &p) {
        return onlyUnder(p, MropeVision::Qwen3Vl, tr("only qwen3-vl puts timestamp text between frames."));
    };
    s.formula = [](const Params &) {
        return tr("Qwen3-VL's processor writes \"<t.t seconds>\" before each temporal patch of a video: its tokens, "
                  "a guess here since the tokenizer counts them, plus <|vision_end|> and <|vision_start|> sit "
                  "between two frames.");
    };
    return s;
}

ParamSpec promptRow()
{
    ParamSpec s;
    s.key = u"prompt"_s;
    s.group = ParamGroup::Family;
    s.kind = ParamKind::Text;
    s.valueName = u"SEGMENTS"_s;
    s.help = u"the prompt: text:N, image:TxHxW, video:TxHxW[@SECONDS] joined by commas, grids in patches\n"
             "      before the merge as image_grid_thw and video_grid_thw; or image:HxWpx, video:HxWpx@Ds[@Ffps]\n"
             "      in pixels and seconds, which become the grids Qwen2-VL's processors make of them"_s;
    s.label = u"prompt"_s;
    s.value = [](const Params &p) { return ParamValue(p.mrope.prompt); };
    s.assign = [](Params &p, const ParamValue &v) {
        if (const auto *text = std::get_if<QString>(&v))
            p.mrope.prompt = *text;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> { return ParamValue(t.trimmed()); };
    s.allowed = [](const Params &) { return MropePrompt::form(); };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        const auto problem = [&]() -> std::optional<QString> {
            if (!underMrope(p)) {
                const auto parsed = MropePrompt::parse(p.mrope.prompt, p.mrope.spatialMergeSize);
                if (const auto *why = std::get_if<QString>(&parsed))
                    return *why;
                return std::nullopt;
            }
            // A rule's input out of its range is its own row's error, not the prompt's.
            for (const QString &key :
                 {u"spatial-merge-size"_s, u"tokens-per-second"_s, u"second-per-grid"_s, u"timestamp-tokens"_s}) {
                if (const ParamSpec *row = ParamTable::find(key); row && row->check && row->check(p))
                    return std::nullopt;
            }
            const auto built = MropeLayout::build(p.mrope);
            if (const auto *why = std::get_if<QString>(&built))
                return *why;
            return std::nullopt;
        }();
        if (!problem)
            return std::nullopt;
        return ParamError {u"prompt"_s, MropePrompt::form(), *problem, ParamError::quoted(p.mrope.prompt)};
    };
    s.idle = mropeIdle;
    s.formula = [](const Params &) {
        return tr("A text run of N tokens gets ids p, p + 1, … on all three axes. An image or video grid of t × h × w "
                  "patches becomes t · (h/m) · (w/m) tokens with ids (start + t, start + row, start + column): it "
                  "costs max(h/m, w/m) positions, not their product.");
    };
    return s;
}

} // namespace

const QStringList &visionWords()
{
    static const QStringList words = {u"qwen2-vl"_s, u"qwen2.5-vl"_s, u"qwen3-vl"_s};
    return words;
}

QList<ParamSpec> rows()
{
    return {sectionRow(), interleavedRow(),     visionRow(),        eraRow(),      mergeRow(),
            promptRow(),  tokensPerSecondRow(), secondPerGridRow(), timestampRow()};
}

} // namespace posenc::MropeParamRows
