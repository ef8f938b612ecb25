// M-RoPE's test record (tests/support/TestFamily.h). Its tables are checked against
// support/MropeReference.h in its own tests (tst_mropetables), which build its prompts.
#include "support/TestFamily.h"

using namespace Qt::StringLiterals;

POSENC_TEST_FAMILY(Mrope)
{
    TestFamily f;
    // A head of 32 within the tests' d_model, its section scaled to the head's 16 pairs.
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Mrope;
        p.rope.headDim = 32;
        p.mrope.section = {4, 6, 6};
        return p;
    };
    f.figureFlags = [](std::int64_t) {
        return QStringList {u"--head-dim"_s, u"32"_s, u"--mrope-section"_s, u"4,6,6"_s};
    };
    f.changes = {
        {u"mrope-section"_s, u"2,1,1"_s}, {u"mrope-interleaved"_s, u"true"_s}, {u"vision-positions"_s, u"qwen2.5-vl"_s},
        {u"mrope-era"_s, u"v5"_s},        {u"spatial-merge-size"_s, u"1"_s},   {u"prompt"_s, u"text:3,image:1x2x2"_s},
        {u"tokens-per-second"_s, u"4"_s}, {u"second-per-grid"_s, u"0.5"_s},    {u"timestamp-tokens"_s, u"3"_s}};
    const TestSetting mrope = {{u"encoding"_s, u"mrope"_s},
                               {u"head-dim"_s, u"8"_s},
                               {u"mrope-section"_s, u"1,1,2"_s},
                               {u"prompt"_s, u"text:2,image:1x4x2,text:1,video:3x2x4,text:2"_s}};
    f.settings = {{u"mrope"_s, mrope},
                  {u"mrope qwen2.5-vl"_s, mrope + TestSetting {{u"vision-positions"_s, u"qwen2.5-vl"_s}}},
                  {u"mrope qwen3-vl"_s, mrope + TestSetting {{u"vision-positions"_s, u"qwen3-vl"_s}}}};
    f.readBack = {{u"mrope-section"_s, u"24,20,20"_s}, {u"vision-positions"_s, u"qwen3-vl"_s},
                  {u"spatial-merge-size"_s, u"4"_s},   {u"prompt"_s, u"text:3,video:2x4x4@0.5,text:1"_s},
                  {u"tokens-per-second"_s, u"25"_s},   {u"second-per-grid"_s, u"0.083"_s},
                  {u"timestamp-tokens"_s, u"7"_s}};
    f.quantities = {u"mrope-positions"_s, u"mrope-axes"_s, u"mrope-cos"_s, u"mrope-sin"_s};
    f.presets = {u"qwen2-5-vl-7b"_s, u"qwen2-vl-7b"_s, u"qwen3-vl-8b"_s};
    // An M-RoPE table's ids are its prompt's: only the prompt declared makes it correct.
    f.presetTables.quantities = {u"mrope-cos"_s, u"mrope-sin"_s};
    f.presetTables.checkFlags = [](const QString &preset, const QJsonObject &) {
        return QStringList {u"--expect"_s, u"mrope"_s, u"--preset"_s, preset};
    };
    f.describeKeys = {u"rope_type"_s,
                      u"vision_positions"_s,
                      u"mrope_era"_s,
                      u"mrope_section"_s,
                      u"section_sum"_s,
                      u"rotary_dim"_s,
                      u"pairs_t"_s,
                      u"pairs_h"_s,
                      u"pairs_w"_s,
                      u"section_honoured"_s,
                      u"fastest_pair_t"_s,
                      u"fastest_pair_t_inv_freq"_s,
                      u"fastest_pair_h"_s,
                      u"fastest_pair_h_inv_freq"_s,
                      u"fastest_pair_w"_s,
                      u"fastest_pair_w_inv_freq"_s,
                      u"tokens"_s,
                      u"image_tokens"_s,
                      u"video_tokens"_s,
                      u"max_position_id"_s,
                      u"rope_deltas"_s,
                      u"next_position"_s,
                      u"collapsed_video_grids"_s,
                      u"attention_factor"_s};
    // Interleaved, so that a head of 4 keeps its section valid; rope-factor, idle under the default
    // type, makes linear a valid other type (tst_paramuse).
    const TestSetting interleaved
        = mrope + TestSetting {{u"mrope-interleaved"_s, u"true"_s}, {u"rope-factor"_s, u"2"_s}};
    f.idleSettings = {{u"mrope qwen2-vl"_s, interleaved},
                      {u"mrope qwen2.5-vl"_s, interleaved + TestSetting {{u"vision-positions"_s, u"qwen2.5-vl"_s}}},
                      {u"mrope qwen3-vl"_s, interleaved + TestSetting {{u"vision-positions"_s, u"qwen3-vl"_s}}}};
    f.otherValues = {
        {u"mrope-section"_s, {u"1,1,2"_s, u"1,0,3"_s}},
        {u"mrope-interleaved"_s, {u"false"_s, u"true"_s}},
        {u"vision-positions"_s, {u"qwen2-vl"_s, u"qwen2.5-vl"_s, u"qwen3-vl"_s}},
        {u"mrope-era"_s, {u"v5"_s, u"v4"_s}},
        {u"spatial-merge-size"_s, {u"1"_s, u"2"_s}},
        {u"prompt"_s, {u"text:3,image:1x2x2"_s, u"text:2,image:1x4x2,text:1,video:3x2x4,text:2"_s}},
        {u"tokens-per-second"_s, {u"4"_s, u"2"_s}},
        {u"second-per-grid"_s, {u"0.5"_s, u"1"_s}},
        {u"timestamp-tokens"_s, {u"3"_s, u"6"_s}},
    };
    // Its rows read under Qwen2-VL but the time rules' of the later eras, which those eras read.
    using I = posenc::ParamUse::Idle;
    for (const QString &key : f.rowKeys) {
        const bool later = key == u"tokens-per-second"_s || key == u"second-per-grid"_s || key == u"timestamp-tokens"_s;
        f.idleCases.append({u"mrope qwen2-vl"_s, {}, key, later ? std::optional(I::FamilySetting) : std::nullopt});
    }
    f.idleCases += {{u"mrope qwen2.5-vl"_s, {}, u"tokens-per-second"_s, std::nullopt},
                    {u"mrope qwen2.5-vl"_s, {}, u"second-per-grid"_s, std::nullopt},
                    {u"mrope qwen3-vl"_s, {}, u"timestamp-tokens"_s, std::nullopt}};
    return f;
}
