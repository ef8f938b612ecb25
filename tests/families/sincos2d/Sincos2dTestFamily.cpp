// The 2-D sin-cos table's test record (tests/support/TestFamily.h): its PE against the float64
// table of support/Sincos2dReference.h (MAE's and diffusers' get_2d_sincos_pos_embed). Its figures
// are drawn from the tests' own parameters.
#include "support/Sincos2dReference.h"
#include "support/TestFamily.h"

using namespace Qt::StringLiterals;

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
    return f;
}
