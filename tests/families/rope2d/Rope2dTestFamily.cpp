// 2-D RoPE's test record (tests/support/TestFamily.h). Its tables are checked against
// support/Rope2dReference.h in its own tests (tst_rope2dtables), pair by patch.
#include "support/TestFamily.h"

#include <vector>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// The four styles at small and model-sized heads.
QList<TestRoundTrip> roundTrips(bool)
{
    QList<TestRoundTrip> cases;
    struct Grid
    {
        std::int64_t h, w;
    };
    struct Style
    {
        Rope2dStyle style;
        std::int64_t head;
        std::vector<std::int64_t> axes;
        double theta;
    };
    const QList<Style> styles {{Rope2dStyle::QwenVit, 8, {}, 10000.0},
                               {Rope2dStyle::QwenVit, 80, {}, 10000.0},
                               {Rope2dStyle::Pixtral, 8, {}, 10000.0},
                               {Rope2dStyle::Pixtral, 64, {}, 10000.0},
                               {Rope2dStyle::Flux, 16, {4, 6, 6}, 10000.0},
                               {Rope2dStyle::Flux, 128, {16, 56, 56}, 10000.0},
                               {Rope2dStyle::Flux, 128, {32, 32, 32, 32}, 2000.0},
                               {Rope2dStyle::Axial, 16, {}, 100.0},
                               {Rope2dStyle::Axial, 64, {}, 100.0}};
    for (const Style &s : styles) {
        for (const Grid g : {Grid {2, 2}, Grid {4, 6}, Grid {16, 16}}) {
            for (const QString &table : {u"rope2d-cos"_s, u"rope2d-sin"_s}) {
                Params p;
                p.encoding = Encoding::Rope2d;
                p.dModel = s.head;
                p.rope.headDim = s.head;
                p.rope.theta = s.theta;
                p.rope2d.style = s.style;
                if (!s.axes.empty())
                    p.rope2d.axesDim = s.axes;
                p.rope2d.patch = {0, 0};
                p.sincos2d.grid = {g.h, g.w};
                cases.append(
                    {u"rope-2d %1 head %2 %3x%4 %5"_s.arg(int(s.style)).arg(s.head).arg(g.h).arg(g.w).arg(table),
                     p,
                     table,
                     {}});
            }
        }
    }
    return cases;
}

} // namespace

POSENC_TEST_FAMILY(Rope2d)
{
    TestFamily f;
    // A head of 32 within the tests' d_model.
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Rope2d;
        p.rope.headDim = 32;
        p.mrope.section = {4, 6, 6};
        return p;
    };
    f.figureFlags = [](std::int64_t) { return QStringList {u"--head-dim"_s, u"32"_s}; };
    f.changes = {{u"rope-2d-style"_s, u"axial"_s},
                 {u"axes-dim"_s, u"2,4,2"_s},
                 {u"patch"_s, u"1,2"_s},
                 {u"rope-2d-origin"_s, u"28,28"_s}};
    const TestSetting rope2d
        = {{u"encoding"_s, u"rope-2d"_s}, {u"head-dim"_s, u"8"_s}, {u"grid"_s, u"4,6"_s}, {u"patch"_s, u"1,1"_s}};
    f.settings
        = {{u"rope-2d"_s, rope2d},
           {u"rope-2d flux"_s, rope2d + TestSetting {{u"axes-dim"_s, u"2,2,4"_s}, {u"rope-2d-style"_s, u"flux"_s}}}};
    f.roundTrips = roundTrips;
    f.readBack = {{u"rope-2d-style"_s, u"flux"_s},
                  {u"axes-dim"_s, u"32,32,32,32"_s},
                  {u"patch"_s, u"3,5"_s},
                  {u"rope-2d-origin"_s, u"32,30"_s}};
    f.quantities = {u"rope2d-frequencies"_s, u"rope2d-cos"_s, u"rope2d-sin"_s, u"rope2d-score"_s};
    f.presets = {u"flux-1-dev"_s, u"flux-2-dev"_s, u"pixtral-12b-vision"_s};
    // A patch grid's tables have the grid's rows, whatever max_len.
    f.presetTables.positionRows = false;
    f.describeKeys = {u"rope_2d_style"_s,
                      u"patches"_s,
                      u"head_dim"_s,
                      u"pairs_row"_s,
                      u"pairs_column"_s,
                      u"pairs_constant"_s,
                      u"slowest_row_inv_freq"_s,
                      u"slowest_column_inv_freq"_s,
                      u"text_ids"_s};
    // Each style over a patch of 1 by 2, FLUX's axes filling a head of 12 (tst_paramuse).
    const TestSetting patched
        = {{u"encoding"_s, u"rope-2d"_s}, {u"head-dim"_s, u"8"_s}, {u"grid"_s, u"4,6"_s}, {u"patch"_s, u"1,2"_s}};
    f.idleSettings
        = {{u"rope-2d qwen-vit"_s, patched},
           {u"rope-2d pixtral"_s, patched + TestSetting {{u"rope-2d-style"_s, u"pixtral"_s}}},
           {u"rope-2d flux"_s,
            patched
                + TestSetting {{u"head-dim"_s, u"12"_s}, {u"axes-dim"_s, u"2,2,8"_s}, {u"rope-2d-style"_s, u"flux"_s}}},
           {u"rope-2d axial"_s, patched + TestSetting {{u"rope-2d-style"_s, u"axial"_s}}}};
    f.otherValues = {
        {u"rope-2d-style"_s, {u"qwen-vit"_s, u"pixtral"_s, u"axial"_s}},
        {u"axes-dim"_s, {u"2,4,6"_s, u"2,2,8"_s}},
        {u"patch"_s, {u"0,0"_s, u"1,2"_s}},
        {u"rope-2d-origin"_s, {u"0,0"_s, u"28,28"_s}},
    };
    // FLUX's axes fill the head: another head comes with axes of its size.
    f.alongside = [](const posenc::Params &, posenc::Params &changed, const QString &key) {
        if (changed.encoding == posenc::Encoding::Rope2d && changed.rope2d.style == posenc::Rope2dStyle::Flux
            && key == u"head-dim"_s)
            changed.rope2d.axesDim = {2, 2, changed.rope.headDim - 4};
    };
    // Its rows read under Qwen's ViT but FLUX's axes, which FLUX reads.
    using I = posenc::ParamUse::Idle;
    for (const QString &key : f.rowKeys)
        f.idleCases.append(
            {u"rope-2d qwen-vit"_s, {}, key, key == u"axes-dim"_s ? std::optional(I::FamilySetting) : std::nullopt});
    f.idleCases.append({u"rope-2d flux"_s, {}, u"axes-dim"_s, std::nullopt});
    return f;
}
