// ALiBi's test record (tests/support/TestFamily.h): its bias against the float64 slopes of
// support/AlibiReference.h (the paper's get_slopes).
#include "support/AlibiReference.h"
#include "support/TestFamily.h"

#include <cstdlib>
#include <limits>

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
    return f;
}
