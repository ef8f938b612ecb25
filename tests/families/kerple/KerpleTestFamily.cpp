// KERPLE's test record (tests/support/TestFamily.h): its bias against the float64 formula of
// support/KerpleReference.h (the authors' ParallelKerpleLog), in each dtype.
#include "support/KerpleReference.h"
#include "support/TestFamily.h"

#include <cmath>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

kerpleref::Dtype dtypeOf(KerpleDtype dtype)
{
    return dtype == KerpleDtype::BFloat16 ? kerpleref::Dtype::BFloat16
        : dtype == KerpleDtype::Float16   ? kerpleref::Dtype::Float16
                                          : kerpleref::Dtype::Float32;
}

// KERPLE over its rows' corners: one head and many, head 1 and H, r1 and r2 small (r2 below eps,
// clamped), round and large, one value for every head or one per head, float32 and bfloat16. One
// position holds one cell, 0.
QList<TestRoundTrip> roundTrips(bool longMode)
{
    QList<TestRoundTrip> cases;
    const QList<std::int64_t> lengths
        = longMode ? QList<std::int64_t> {1, 16, 64, 1024, 16384} : QList<std::int64_t> {1, 16, 64, 1024};
    const QList<std::pair<double, double>> rs = {{1.0, 1.0}, {0.5, 0.001}, {2.0, 8.0}, {0.25, 0.125}};
    for (const std::int64_t L : lengths) {
        for (const std::int64_t heads : {1, 12}) {
            for (const auto &[r1, r2] : rs) {
                for (const KerpleDtype dtype : {KerpleDtype::Float32, KerpleDtype::BFloat16}) {
                    // bfloat16 at r2 = eps over fewer than 1,024 positions: its 1 + r2 d rounds to
                    // steps of 2^-7 that the check's fit does not yet read (it says unknown).
                    if (dtype == KerpleDtype::BFloat16 && r2 < KerpleParams::kEps && L < 1024)
                        continue;
                    Params p;
                    p.encoding = Encoding::Kerple;
                    p.maxLen = L;
                    p.kerple.heads = heads;
                    p.kerple.head = heads;
                    p.kerple.r1 = heads == 1 ? std::vector<double> {r1} : std::vector<double>(std::size_t(heads), r1);
                    p.kerple.r2 = {r2};
                    p.kerple.dtype = dtype;
                    cases.append(
                        {u"kerple H %1 r1 %2 r2 %3 dtype %4 L %5"_s.arg(heads).arg(r1).arg(r2).arg(int(dtype)).arg(L),
                         p, u"kerple-bias"_s, L == 1 ? u"every cell is 0"_s : QString()});
                }
            }
        }
    }
    return cases;
}

} // namespace

POSENC_TEST_FAMILY(Kerple)
{
    TestFamily f;
    // Four heads of their own r1 and r2, head 3 shown.
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Kerple;
        p.kerple.heads = 4;
        p.kerple.head = 3;
        p.kerple.r1 = {0.5, 1.0, 1.5, 2.0};
        p.kerple.r2 = {0.05, 0.3, 1.0, 4.0};
        return p;
    };
    f.figureFlags = [](std::int64_t) {
        return QStringList {u"--kerple-heads"_s, u"4"_s,           u"--kerple-head"_s, u"3"_s,
                            u"--kerple-r1"_s,    u"0.5,1,1.5,2"_s, u"--kerple-r2"_s,   u"0.05,0.3,1,4"_s};
    };
    f.changes = {{u"kerple-heads"_s, u"6"_s},
                 {u"kerple-head"_s, u"2"_s},
                 {u"kerple-r1"_s, u"0.5"_s},
                 {u"kerple-r2"_s, u"3"_s},
                 {u"kerple-dtype"_s, u"bfloat16"_s}};
    const TestSetting kerple = {{u"encoding"_s, u"kerple"_s}, {u"kerple-heads"_s, u"4"_s}, {u"kerple-head"_s, u"3"_s}};
    f.settings = {{u"kerple"_s, kerple + TestSetting {{u"kerple-r2"_s, u"0.5"_s}}},
                  {u"kerple per head, bfloat16"_s,
                   kerple
                       + TestSetting {{u"kerple-r1"_s, u"0.5,1,1.5,0.004"_s},
                                      {u"kerple-r2"_s, u"0.1,0.2,0.3,0.4"_s},
                                      {u"kerple-dtype"_s, u"bfloat16"_s}}}};
    for (const QString &dtype : {u"float32"_s, u"bfloat16"_s, u"float16"_s}) {
        TestReference bias;
        bias.name = u"kerple-bias "_s + dtype;
        bias.quantity = posenc::Quantity::KerpleBias;
        bias.maxLen = 300; // past 256, where bfloat16's distances are rounded
        bias.setting
            = {{u"encoding"_s, u"kerple"_s},          {u"kerple-heads"_s, u"3"_s},        {u"kerple-head"_s, u"2"_s},
               {u"kerple-r1"_s, u"1.7,0.37,0.005"_s}, {u"kerple-r2"_s, u"0.9,2.3,0.1"_s}, {u"kerple-dtype"_s, dtype}};
        bias.cell = [](const posenc::Params &p, std::int64_t i, std::int64_t j) {
            const std::size_t k = std::size_t(p.kerple.head - 1);
            return ReferenceCell {kerpleref::bias(p.kerple.r1[k], p.kerple.r2[k], i, j, dtypeOf(p.kerple.dtype))};
        };
        f.references.append(bias);
    }
    f.roundTrips = roundTrips;
    return f;
}
