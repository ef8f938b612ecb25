// The sinusoid's test record (tests/support/TestFamily.h): its PE against the float64 sums of
// support/SinusoidalReference.h. Its figures are drawn from the tests' own parameters.
#include "support/SinusoidalReference.h"
#include "support/TestFamily.h"

using namespace Qt::StringLiterals;

POSENC_TEST_FAMILY(Sinusoidal)
{
    TestFamily f;
    f.changes = {{u"base"_s, u"500"_s},       {u"layout"_s, u"split"_s},
                 {u"angles"_s, u"float32"_s}, {u"flip-sin-to-cos"_s, u"true"_s},
                 {u"freq-shift"_s, u"1"_s},   {u"timestep-scale"_s, u"1000"_s}};
    f.settings = {
        {u"float32 split"_s, {{u"angles"_s, u"float32"_s}, {u"layout"_s, u"split"_s}}},
        {u"diffusers' timestep embedding"_s,
         {{u"layout"_s, u"split"_s},
          {u"flip-sin-to-cos"_s, u"true"_s},
          {u"freq-shift"_s, u"1"_s},
          {u"timestep-scale"_s, u"1000"_s}}},
    };
    for (const QString &layout : {u"interleaved"_s, u"split"_s}) {
        TestReference pe;
        pe.name = u"pe "_s + layout;
        pe.quantity = posenc::Quantity::Pe;
        pe.dModel = 16;
        pe.maxLen = 40;
        pe.setting = {{u"layout"_s, layout}, {u"base"_s, u"500"_s}};
        pe.cell = [](const posenc::Params &p, std::int64_t row, std::int64_t column) {
            return ReferenceCell {
                reference::preciseValue(row, column, p.dModel, p.sinusoidal.base, p.sinusoidal.layout), 1e-6};
        };
        f.references.append(pe);
    }
    return f;
}
