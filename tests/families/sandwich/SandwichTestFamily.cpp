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
    f.readBack = {{u"sandwich-heads"_s, u"16"_s}, {u"sandwich-head"_s, u"4"_s}, {u"sandwich-head-dim"_s, u"33"_s}};
    f.quantities = {u"sandwich-bias"_s, u"sandwich-distance"_s};
    f.presets = {u"nemo-gpt-sandwich"_s};
    f.describeKeys
        = {u"heads"_s,         u"head"_s,  u"head_dim"_s,        u"mask"_s,          u"terms"_s,    u"inv_freq_first"_s,
           u"inv_freq_last"_s, u"scale"_s, u"bias_distance_1"_s, u"farthest_bias"_s, u"far_mean"_s, u"after_query"_s};
    f.helpFlags = {u"--sandwich-heads N"_s, u"--sandwich-head N"_s, u"--sandwich-head-dim N"_s,
                   u"--sandwich-mask causal|bidirectional"_s};
    f.cliFlags = {u"--sandwich-heads"_s,    u"8"_s, u"--sandwich-head"_s, u"3"_s,
                  u"--sandwich-head-dim"_s, u"5"_s, u"--sandwich-mask"_s, u"bidirectional"_s};
    f.refusals = {
        {u"Sandwich head past H"_s,
         {u"--encoding"_s, u"sandwich"_s, u"--sandwich-heads"_s, u"12"_s, u"--sandwich-head"_s, u"13"_s},
         {u"--sandwich-head: must be an integer in [1, 12] (sandwich-heads); got 13"_s}},
        {u"Sandwich head dim 0"_s,
         {u"--encoding"_s, u"sandwich"_s, u"--sandwich-head-dim"_s, u"0"_s},
         {u"--sandwich-head-dim: must be an integer in [1, 4096]; got 0"_s}},
        {u"Sandwich unknown mask"_s,
         {u"--sandwich-mask"_s, u"symmetric"_s},
         {u"--sandwich-mask: must be one of causal, bidirectional; got 'symmetric'"_s}},
    };
    // Its mask and an odd d each alone (tst_paramuse).
    f.idleSettings
        = {f.settings.constFirst(),
           {u"sandwich bidirectional"_s,
            f.settings.constFirst().second + TestSetting {{u"sandwich-mask"_s, u"bidirectional"_s}}},
           {u"sandwich odd d"_s, f.settings.constFirst().second + TestSetting {{u"sandwich-head-dim"_s, u"5"_s}}}};
    f.otherValues = {
        {u"sandwich-heads"_s, {u"6"_s, u"12"_s}},
        {u"sandwich-head"_s, {u"2"_s, u"3"_s}},
        {u"sandwich-head-dim"_s, {u"8"_s, u"6"_s, u"5"_s}},
        {u"sandwich-mask"_s, {u"bidirectional"_s, u"causal"_s}},
    };
    for (const QString &setting : {u"sandwich"_s, u"sandwich bidirectional"_s})
        for (const QString &key : {u"sandwich-heads"_s, u"sandwich-head"_s, u"sandwich-head-dim"_s, u"sandwich-mask"_s})
            f.idleCases.append({setting, {}, key, std::nullopt});
    // Its panel: head K's bias at each offset, exact, bidirectional or (flipped) causal; under the
    // causal mask the offsets after q hold the bias of distance 0 (NeMo's tril), two points at their
    // ends, shaded as masked.
    f.panelParams = [](posenc::Params p, bool flipped) {
        p.sandwich.mask = flipped ? posenc::SandwichMask::Causal : posenc::SandwichMask::Bidirectional;
        return p;
    };
    f.panel = [](const posenc::Params &p, std::int64_t q, const TestPanel &drawn) -> std::optional<QString> {
        const posenc::SandwichParams &s = p.sandwich;
        const bool causal = s.mask == posenc::SandwichMask::Causal;
        if (drawn.curve.offset.size() != (causal ? q + 1 + 2 : p.maxLen))
            return u"%1 points"_s.arg(drawn.curve.offset.size());
        if (drawn.maskedAfterQuery != causal)
            return u"masked after the query: %1"_s.arg(drawn.maskedAfterQuery);
        for (qsizetype n = 0; n < drawn.curve.offset.size(); ++n) {
            const auto k = std::int64_t(drawn.curve.offset[n]);
            const double expected = sandwichref::bias(s.heads, s.head, s.headDim, q, q + k, !causal);
            if (drawn.curve.lo[n] != drawn.curve.hi[n] || std::abs(drawn.curve.lo[n] - expected) >= 1e-9)
                return u"k %1: %2 vs %3"_s.arg(k).arg(drawn.curve.lo[n]).arg(expected);
        }
        return std::nullopt;
    };
    f.heatmapSign = -1; // sum cos - d/2 <= 0
    return f;
}
