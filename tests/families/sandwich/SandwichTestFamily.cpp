// Sandwich's test record (tests/support/TestFamily.h): its bias against the float64 sums of
// support/SandwichReference.h (NVIDIA NeMo's SandwichRelativePositionEmbedding).
#include "support/SandwichReference.h"
#include "support/TestFamily.h"

#include <cmath>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// Sandwich over its rows' corners: heads, head 1 and H, head dims odd and even, both masks. One
// position is too few for any table (and 0 for an even d); two hold distances 0 and 1 alone, which do not tell d from
// the scale, and bidirectional with an even d they are [[0, -m], [-m, 0]], a linear bias, which ALiBi's hypothesis
// reads with a slope get_slopes gives no head. d = 1's one frequency, 1e-8, turns by less than float32 shows over 1,024
// positions: every cell 1/2 / (8K/H), every row the same, which is Sandwich's own table, not the mistake same-row.
QList<TestRoundTrip> roundTrips(bool longMode)
{
    QList<TestRoundTrip> cases;
    const QList<std::int64_t> lengths
        = longMode ? QList<std::int64_t> {1, 2, 3, 64, 1024, 16384} : QList<std::int64_t> {1, 2, 3, 64, 1024};
    for (const std::int64_t L : lengths) {
        for (const std::int64_t heads : {1, 12, 4096}) {
            for (const std::int64_t head : {std::int64_t(1), heads}) {
                for (const std::int64_t d : {1, 2, 5, 64, 4096}) {
                    for (const SandwichMask mask : {SandwichMask::Causal, SandwichMask::Bidirectional}) {
                        Params p;
                        p.encoding = Encoding::Sandwich;
                        p.maxLen = L;
                        p.sandwich = {heads, head, d, mask};
                        QString unknown;
                        if (L == 1)
                            unknown = d % 2 == 0 ? u"every cell is 0"_s : u"too few"_s;
                        else if (d == 1)
                            unknown.clear(); // every cell 1/2 / (8K/H) at any L: Sandwich's own
                        else if (L == 2 && mask == SandwichMask::Bidirectional && d % 2 == 0)
                            unknown = u"linear bias"_s;
                        else if (L == 2)
                            unknown = u"rows"_s;
                        cases.append(
                            {u"sandwich H %1 K %2 d %3 %4 L %5"_s.arg(heads).arg(head).arg(d).arg(int(mask)).arg(L), p,
                             u"sandwich-bias"_s, unknown});
                    }
                }
            }
        }
    }
    return cases;
}

} // namespace

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
    f.roundTrips = roundTrips;
    return f;
}
