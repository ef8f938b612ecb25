// ALiBi's test record (tests/support/TestFamily.h): its bias against the float64 slopes of
// support/AlibiReference.h (the paper's get_slopes).
#include "support/AlibiReference.h"
#include "support/TestFamily.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// Its tables over its rows' corners, at 1 position (every cell 0) to many.
QList<TestRoundTrip> roundTrips(bool longMode)
{
    QList<TestRoundTrip> cases;
    const QList<std::int64_t> lengths
        = longMode ? QList<std::int64_t> {1, 2, 64, 1024, 16384} : QList<std::int64_t> {1, 2, 64, 1024};
    for (const std::int64_t L : lengths) {
        const QString zero = L == 1 ? u"every cell is 0"_s : QString();
        for (const std::int64_t heads : {1, 8, 12, 4096}) {
            for (const std::int64_t head : {std::int64_t(1), heads}) {
                for (const AlibiMask mask : {AlibiMask::Causal, AlibiMask::Symmetric}) {
                    Params p;
                    p.encoding = Encoding::Alibi;
                    p.maxLen = L;
                    p.alibi = {heads, head, mask};
                    cases.append({u"alibi H %1 K %2 %3 L %4"_s.arg(heads).arg(head).arg(int(mask)).arg(L), p,
                                  u"alibi-bias"_s, zero});
                }
            }
        }
    }
    return cases;
}

} // namespace

POSENC_TEST_FAMILY(Alibi)
{
    TestFamily f;
    // 12 heads, head 10: past the power of two, so the interleave is drawn.
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Alibi;
        p.alibi.heads = 12;
        p.alibi.head = 10;
        return p;
    };
    f.figureFlags = [](std::int64_t) { return QStringList {u"--heads"_s, u"12"_s, u"--head"_s, u"10"_s}; };
    f.changes = {{u"heads"_s, u"6"_s}, {u"head"_s, u"2"_s}, {u"alibi"_s, u"symmetric"_s}};
    const TestSetting alibi = {{u"encoding"_s, u"alibi"_s}, {u"heads"_s, u"12"_s}, {u"head"_s, u"3"_s}};
    f.settings = {{u"alibi"_s, alibi}, {u"alibi symmetric"_s, alibi + TestSetting {{u"alibi"_s, u"symmetric"_s}}}};
    for (const QString &mask : {u"causal"_s, u"symmetric"_s}) {
        TestReference bias;
        bias.name = u"alibi-bias "_s + mask;
        bias.quantity = posenc::Quantity::AlibiBias;
        bias.setting = {{u"encoding"_s, u"alibi"_s}, {u"heads"_s, u"12"_s}, {u"head"_s, u"10"_s}, {u"alibi"_s, mask}};
        bias.cell = [](const posenc::Params &p, std::int64_t i, std::int64_t j) {
            const bool causal = p.alibi.mask == posenc::AlibiMask::Causal;
            if (causal && j > i)
                return ReferenceCell {-std::numeric_limits<double>::infinity()};
            const double m = alibiref::slopes(p.alibi.heads)[std::size_t(p.alibi.head - 1)];
            return ReferenceCell {-m * double(causal ? i - j : std::abs(i - j))};
        };
        f.references.append(bias);
    }
    f.roundTrips = roundTrips;
    f.readBack = {{u"heads"_s, u"12"_s}, {u"head"_s, u"3"_s}};
    f.quantities = {u"alibi-slopes"_s, u"alibi-bias"_s};
    f.presets = {u"bloom-560m"_s, u"mpt-7b"_s};
    f.describeKeys = {u"heads"_s,
                      u"head"_s,
                      u"mask"_s,
                      u"slope"_s,
                      u"slopes"_s,
                      u"geometric_heads"_s,
                      u"interleaved_heads"_s,
                      u"half_weight_distance"_s,
                      u"farthest_bias"_s};
    f.helpFlags = {u"--heads N"_s, u"--head N"_s, u"--alibi causal|symmetric"_s};
    f.cliFlags = {u"--heads"_s, u"12"_s, u"--head"_s, u"12"_s, u"--alibi"_s, u"symmetric"_s};
    f.refusals = {
        {u"head 0"_s,
         {u"--encoding"_s, u"alibi"_s, u"--heads"_s, u"12"_s, u"--head"_s, u"0"_s},
         {u"--head: must be an integer in [1, 12] (heads); got 0"_s}},
        {u"head H + 1"_s,
         {u"--encoding"_s, u"alibi"_s, u"--heads"_s, u"12"_s, u"--head"_s, u"13"_s},
         {u"--head: must be an integer in [1, 12] (heads); got 13"_s}},
        {u"zero heads"_s,
         {u"--encoding"_s, u"alibi"_s, u"--heads"_s, u"0"_s},
         {u"--heads: must be an integer in [1, 4096]; got 0"_s}},
        {u"unknown mask"_s,
         {u"--encoding"_s, u"alibi"_s, u"--alibi"_s, u"bidirectional"_s},
         {u"--alibi: must be one of causal, symmetric; got 'bidirectional'"_s}},
    };
    f.otherValues = {
        {u"heads"_s, {u"6"_s, u"12"_s}},
        {u"head"_s, {u"2"_s, u"3"_s}},
        {u"alibi"_s, {u"symmetric"_s, u"causal"_s}},
    };
    // Its panel: 12 heads, head 10 chosen, causal or (flipped) symmetric; a line per head through
    // the ends of the offsets (and 0), -m|k| or masked after q, head K drawn wider, the steepest,
    // the gentlest and K named.
    f.panelParams = [](posenc::Params p, bool flipped) {
        p.alibi.heads = 12;
        p.alibi.head = 10;
        p.alibi.mask = flipped ? posenc::AlibiMask::Symmetric : posenc::AlibiMask::Causal;
        return p;
    };
    f.panel = [](const posenc::Params &p, std::int64_t q, const TestPanel &drawn) -> std::optional<QString> {
        const std::vector<double> slopes = alibiref::slopes(p.alibi.heads);
        const bool causal = p.alibi.mask == posenc::AlibiMask::Causal;
        if (drawn.lines.size() != p.alibi.heads)
            return u"%1 lines"_s.arg(drawn.lines.size());
        for (qsizetype h = 0; h < drawn.lines.size(); ++h) {
            const posenc::FamilyCurve &line = drawn.lines[h];
            const double m = slopes[std::size_t(h)];
            if (drawn.emphasised[h] != (h + 1 == p.alibi.head))
                return u"head %1 emphasised: %2"_s.arg(h + 1).arg(drawn.emphasised[h]);
            const bool named = h + 1 == p.alibi.head || m == *std::max_element(slopes.begin(), slopes.end())
                || m == *std::min_element(slopes.begin(), slopes.end());
            if (drawn.named[h] != named)
                return u"head %1 named: %2"_s.arg(h + 1).arg(drawn.named[h]);
            for (qsizetype n = 0; n < line.offset.size(); ++n) {
                const auto k = std::int64_t(line.offset[n]);
                if (line.lo[n] != alibiref::bias(m, q, q + k, causal))
                    return u"head %1, k %2: %3"_s.arg(h + 1).arg(k).arg(line.lo[n]);
            }
            if (line.offset.front() != double(-q) || line.offset.back() != (causal ? 0.0 : double(p.maxLen - 1 - q)))
                return u"head %1 from %2 to %3"_s.arg(h + 1).arg(line.offset.front()).arg(line.offset.back());
        }
        return std::nullopt;
    };
    f.heatmapSign = -1;
    return f;
}
