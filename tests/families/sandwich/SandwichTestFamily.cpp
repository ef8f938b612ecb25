// Sandwich's test record (tests/support/TestFamily.h): its bias against the float64 sums of
// support/SandwichReference.h (NVIDIA NeMo's SandwichRelativePositionEmbedding).
#include "support/SandwichReference.h"
#include "support/TestFamily.h"

#include <cmath>

using namespace Qt::StringLiterals;

POSENC_TEST_FAMILY(Sandwich)
{
    TestFamily f;
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Sandwich;
        return p;
    };
    f.changes = {{u"sandwich-heads"_s, u"6"_s},
                 {u"sandwich-head"_s, u"2"_s},
                 {u"sandwich-head-dim"_s, u"8"_s},
                 {u"sandwich-mask"_s, u"bidirectional"_s}};
    // A small head dim, so that 16 positions see its sum turn, odd and even.
    const TestSetting sandwich
        = {{u"encoding"_s, u"sandwich"_s}, {u"sandwich-heads"_s, u"12"_s}, {u"sandwich-head"_s, u"3"_s}};
    f.settings
        = {{u"sandwich"_s, sandwich + TestSetting {{u"sandwich-head-dim"_s, u"6"_s}}},
           {u"sandwich bidirectional, odd d"_s,
            sandwich + TestSetting {{u"sandwich-mask"_s, u"bidirectional"_s}, {u"sandwich-head-dim"_s, u"5"_s}}}};
    for (const QString &mask : {u"causal"_s, u"bidirectional"_s}) {
        TestReference bias;
        bias.name = u"sandwich-bias "_s + mask;
        bias.quantity = posenc::Quantity::SandwichBias;
        bias.maxLen = 40;
        bias.setting = {{u"encoding"_s, u"sandwich"_s},
                        {u"sandwich-heads"_s, u"12"_s},
                        {u"sandwich-head"_s, u"5"_s},
                        {u"sandwich-head-dim"_s, u"10"_s},
                        {u"sandwich-mask"_s, mask}};
        bias.cell = [](const posenc::Params &p, std::int64_t i, std::int64_t j) {
            const posenc::SandwichParams &s = p.sandwich;
            const bool bidirectional = s.mask == posenc::SandwichMask::Bidirectional;
            const double value = sandwichref::bias(s.heads, s.head, s.headDim, i, j, bidirectional);
            const std::int64_t r = sandwichref::distance(i, j, bidirectional);
            return ReferenceCell {value,
                                  sandwichref::float32Allowance(s.heads, s.head, s.headDim, r)
                                      + std::ldexp(std::fabs(value), -22)};
        };
        f.references.append(bias);
    }
    return f;
}
