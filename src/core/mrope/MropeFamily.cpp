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
    FamilySpec family = Families::fromWords(FamilyWords(u"Mrope"_s), FamilyKind::Rotation);
    family.rows = MropeParamRows::rows;
    // It turns by RoPE's frequencies and reads RoPE's rows: the family it is built on, named.
    family.borrows = {{Encoding::Rope, {}}};
    family.describe = mropeEntries;
    family.defaultFigures = {{u"mrope-positions"_s, {}},
                             {u"mrope-axes"_s, {}},
                             {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}},
                             {u"magnitudes"_s, {}}};
    family.lessonNumbers = MropeLessonNumbers::entries;
    return family;
}

} // namespace posenc
