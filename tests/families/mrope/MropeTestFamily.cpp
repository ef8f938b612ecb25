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
    return f;
}
