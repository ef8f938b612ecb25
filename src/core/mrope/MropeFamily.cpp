// Multimodal RoPE (docs/ARCHITECTURE.md, Encoding families): no term added to X; each token has
// three ids (t, h, w), and each rotary pair turns by the id of its axis, as Qwen2-VL, Qwen2.5-VL
// and Qwen3-VL compute them in HF transformers.
#include "core/FamilySpec.h"

#include "core/ParamText.h"
#include "core/mrope/MropeLessonNumbers.h"
#include "core/mrope/MropeParamRows.h"
#include "core/mrope/MropePrompt.h"
#include "core/mrope/MropeRotation.h"
#include "core/rope/RopeTypes.h"

#include <numeric>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries mropeEntries(const Params &params)
{
    const MropeLayout layout(params);
    const MropeRotation rotation(params, layout);
    const std::vector<std::int64_t> owned = MropeAxes::pairsPerAxis(rotation.axes());
    const std::vector<std::int64_t> &section = params.mrope.section;
    Description::Entries entries = {
        // M-RoPE's frequencies are a rope_type's (default for Qwen2-VL to Qwen3.5's text models).
        {u"rope_type"_s, RopeTypes::word(params.rope.type)},
        {u"vision_positions"_s, ParamText::get(params, u"vision-positions"_s)},
        {u"mrope_era"_s, ParamText::get(params, u"mrope-era"_s)},
        {u"mrope_section"_s, section},
        {u"section_sum"_s, std::accumulate(section.begin(), section.end(), std::int64_t(0))},
        {u"rotary_dim"_s, rotation.rotaryDim()},
        {u"pairs_t"_s, owned[0]},
        {u"pairs_h"_s, owned[1]},
        {u"pairs_w"_s, owned[2]},
        // Whether each axis owns the pairs its section gives it: interleaved, a count past a third
        // of the pairs runs off the end (Qwen2.5-VL's 16,24,24 fed to Qwen3-VL's interleave).
        {u"section_honoured"_s, section.size() == 3 && owned == section},
    };
    static const char *const names[] = {"t", "h", "w"};
    for (int axis = 0; axis < 3; ++axis) {
        const std::int64_t j = MropeAxes::fastestPair(rotation.axes(), axis);
        const QString key = u"fastest_pair_%1"_s.arg(QLatin1StringView(names[axis]));
        entries.push_back({key, j >= 0 ? Description::Value(j) : Description::Value()});
        entries.push_back({key + u"_inv_freq"_s,
                           j >= 0 ? Description::Value(rotation.inverseFrequencies()[static_cast<std::size_t>(j)])
                                  : Description::Value()});
    }
    entries.push_back({u"tokens"_s, layout.tokens()});
    entries.push_back({u"image_tokens"_s, layout.imageTokens()});
    entries.push_back({u"video_tokens"_s, layout.videoTokens()});
    entries.push_back({u"max_position_id"_s, layout.maxId()});
    entries.push_back({u"rope_deltas"_s, layout.ropeDelta()});
    entries.push_back({u"next_position"_s, layout.maxId() + 1});
    entries.push_back({u"collapsed_video_grids"_s, layout.collapsedGrids()});
    entries.push_back({u"attention_factor"_s, rotation.attentionFactor()});
    return entries;
}

} // namespace

FamilySpec makeMropeFamily()
{
    FamilySpec family;
    family.word = u"mrope"_s;
    family.kind = FamilyKind::Rotation;
    family.help = u"multimodal RoPE, ids (t, h, w) per token (mrope)"_s;
    family.formula = u"no term added, X = s·E; each token has ids (t, h, w) and rotary pair i turns by the id of "
                     "its axis times θ<sub>i</sub>: sections chunked (Qwen2-VL, Qwen2.5-VL) or interleaved "
                     "(Qwen3-VL)"_s;
    family.heading = u"M-RoPE"_s;
    family.rows = MropeParamRows::rows;
    // It turns by RoPE's frequencies and reads RoPE's rows: the family it is built on, named.
    family.borrows = {{Encoding::Rope, {}}};
    family.describe = mropeEntries;
    family.describeSource = u"HF transformers' get_rope_index and the multimodal rotary merge"_s;
    family.describeKeys = {
        {u"rope_type"_s, u"the rope_type whose frequencies the pairs turn at"_s},
        {u"vision_positions, mrope_era"_s, u"whose ids and which transformers' rule"_s},
        {u"mrope_section, section_sum"_s, u"the pairs of t, h and w as given, and their sum"_s},
        {u"rotary_dim"_s, u"the columns of a head that turn"_s},
        {u"pairs_t, pairs_h, pairs_w"_s, u"the pairs each axis owns as the attention applies them"_s},
        {u"section_honoured"_s,
         u"whether they are the section's counts (interleaved, a count past a third of the pairs runs off the end)"_s},
        {u"fastest_pair_t, fastest_pair_h, fastest_pair_w"_s, u"each axis's fastest pair (null if none)"_s},
        {u"fastest_pair_t_inv_freq, fastest_pair_h_inv_freq, fastest_pair_w_inv_freq"_s, u"its frequency"_s},
        {u"tokens, image_tokens, video_tokens"_s, u"the prompt's tokens"_s},
        {u"max_position_id"_s, u"the largest id on any axis"_s},
        {u"rope_deltas"_s, u"max_position_id + 1 - tokens: what generated tokens add to their cache position"_s},
        {u"next_position"_s, u"max_position_id + 1: the first generated token's id on all axes"_s},
        {u"collapsed_video_grids"_s,
         u"the video grids whose t id equals the grid before's: time truncated away (second_per_grid * tokens_per_second below 1)"_s},
        {u"attention_factor"_s, u"what multiplies cos and sin"_s},
    };
    family.defaultFigures = {{u"mrope-positions"_s, {}},
                             {u"mrope-axes"_s, {}},
                             {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}},
                             {u"magnitudes"_s, {}}};
    family.lessonNumbers = MropeLessonNumbers::entries;
    return family;
}

} // namespace posenc
