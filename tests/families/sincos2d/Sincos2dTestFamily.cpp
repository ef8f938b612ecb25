// The 2-D sin-cos table's test record (tests/support/TestFamily.h): its PE against the float64
// table of support/Sincos2dReference.h (MAE's and diffusers' get_2d_sincos_pos_embed). Its figures
// are drawn from the tests' own parameters.
#include "support/Sincos2dReference.h"
#include "support/TestFamily.h"

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// Grids of one row, one column, with and without the class token, diffusers' base_size.
QList<TestRoundTrip> roundTrips(bool)
{
    QList<TestRoundTrip> cases;
    struct Grid
    {
        std::int64_t h, w;
    };
    for (const Grid g : {Grid {1, 8}, Grid {8, 1}, Grid {2, 3}, Grid {14, 14}, Grid {16, 24}}) {
        for (const std::int64_t d : {8, 64}) {
            for (const bool cls : {false, true}) {
                Params p;
                p.encoding = Encoding::Sincos2d;
                p.dModel = d;
                p.sincos2d.grid = {g.h, g.w};
                p.sincos2d.clsToken = cls;
                p.maxLen = g.h * g.w + (cls ? 1 : 0);
                cases.append({u"sincos-2d %1x%2 d %3%4"_s.arg(g.h).arg(g.w).arg(d).arg(cls ? u" cls"_s : QString()),
                              p,
                              u"pe"_s,
                              {}});
                if (cls)
                    continue;
                p.sincos2d.baseSize = 16.0;
                cases.append({u"sincos-2d %1x%2 d %3 base 16"_s.arg(g.h).arg(g.w).arg(d), p, u"pe"_s, {}});
            }
        }
    }
    return cases;
}

} // namespace

POSENC_TEST_FAMILY(Sincos2d)
{
    TestFamily f;
    f.changes = {{u"grid"_s, u"6,4"_s},
                 {u"cls-token"_s, u"true"_s},
                 {u"base-size"_s, u"8"_s},
                 {u"interpolation-scale"_s, u"2"_s}};
    f.settings = {{u"sincos-2d"_s, {{u"encoding"_s, u"sincos-2d"_s}, {u"grid"_s, u"4,4"_s}}}};
    for (const QString &cls : {u"false"_s, u"true"_s}) {
        TestReference pe;
        pe.name = cls == u"true"_s ? u"pe with a class token"_s : u"pe"_s;
        pe.quantity = posenc::Quantity::Pe;
        pe.dModel = 16;
        pe.maxLen = cls == u"true"_s ? 21 : 20;
        pe.setting
            = {{u"encoding"_s, u"sincos-2d"_s}, {u"grid"_s, u"5,4"_s}, {u"cls-token"_s, cls}, {u"base-size"_s, u"8"_s}};
        pe.cell = [](const posenc::Params &p, std::int64_t row, std::int64_t column) {
            return ReferenceCell {sincos2dref::table(p)(row, column), 1e-6};
        };
        f.references.append(pe);
    }
    f.roundTrips = roundTrips;
    f.readBack = {{u"grid"_s, u"14,14"_s}, {u"base-size"_s, u"16"_s}};
    f.presets = {u"dit-xl-2"_s, u"mae-vit-b-16"_s};
    // A patch grid's tables have the grid's rows, whatever max_len.
    f.presetTables.positionRows = false;
    f.describeKeys = {u"tokens"_s,
                      u"grid_h"_s,
                      u"grid_w"_s,
                      u"cls_token"_s,
                      u"frequencies"_s,
                      u"last_row_coordinate"_s,
                      u"last_column_coordinate"_s,
                      u"slowest_frequency"_s};
    f.idleSettings
        = {f.settings.constFirst(),
           {u"sincos-2d diffusers"_s, f.settings.constFirst().second + TestSetting {{u"base-size"_s, u"8"_s}}}};
    f.otherValues = {
        {u"grid"_s, {u"4,6"_s, u"6,4"_s, u"4,4"_s}},
        {u"cls-token"_s, {u"true"_s, u"false"_s}},
        {u"base-size"_s, {u"8"_s, u"unset"_s}},
        {u"interpolation-scale"_s, {u"2"_s, u"1"_s}},
    };
    // The table splits its columns in four: concat gives it 4.
    f.alongside = [](const posenc::Params &, posenc::Params &changed, const QString &key) {
        if (changed.encoding == posenc::Encoding::Sincos2d && key == u"compose"_s
            && changed.compose == posenc::Compose::Concat)
            changed.peDims = 4;
    };
    // Its rows read but the interpolation scale, which only diffusers' base size reads.
    using I = posenc::ParamUse::Idle;
    for (const QString &key : f.rowKeys)
        f.idleCases.append({u"sincos-2d"_s,
                            {},
                            key,
                            key == u"interpolation-scale"_s ? std::optional(I::FamilySetting) : std::nullopt});
    f.idleCases.append({u"sincos-2d diffusers"_s, {}, u"interpolation-scale"_s, std::nullopt});
    return f;
}
