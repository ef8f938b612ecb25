// KERPLE's table in the engine (kerple-bias) against the float64 formula of the authors'
// ParallelKerpleLog (support/KerpleReference.h), quirks included: every cell of head K of several
// heads in each dtype; the keys after the query at distance 0, bias 0, not -inf (torch.tril); r1 and
// r2 below eps = 0.01 taken as eps; bfloat16's distances rounded past 256 and float16's past 65504
// infinite; float32 within a few roundings of the kernel in float64; its describe entries.
#include "core/EngineTable.h"
#include "support/KerpleReference.h"
#include "support/TestMain.h"

#include "core/Description.h"
#include "core/Engine.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tst_kerplebias {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params kerple(std::vector<double> r1, std::vector<double> r2, std::int64_t heads, std::int64_t head, KerpleDtype dtype,
              std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Kerple;
    p.kerple.heads = heads;
    p.kerple.head = head;
    p.kerple.r1 = std::move(r1);
    p.kerple.r2 = std::move(r2);
    p.kerple.dtype = dtype;
    p.maxLen = maxLen;
    p.dModel = 8;
    return p;
}

kerpleref::Dtype refDtype(KerpleDtype dtype)
{
    return dtype == KerpleDtype::BFloat16 ? kerpleref::Dtype::BFloat16
        : dtype == KerpleDtype::Float16   ? kerpleref::Dtype::Float16
                                          : kerpleref::Dtype::Float32;
}

RowMatrixXf tableOf(const Params &p, Block block)
{
    const QList<ParamError> errors = p.validate();
    if (!errors.isEmpty())
        qFatal("invalid parameters: %s", qPrintable(errors.first().key));
    return testing::computeTable(Engine(p), Quantity::KerpleBias, block);
}

} // namespace

class TestKerpleBias : public QObject
{
    Q_OBJECT

private slots:
    void everyCellIsTheReference_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<qint64>("head");
        for (const KerpleDtype d : {KerpleDtype::Float32, KerpleDtype::BFloat16, KerpleDtype::Float16})
            for (const qint64 head : {1ll, 2ll, 3ll})
                QTest::addRow("dtype %d, head %lld", int(d), head) << int(d) << head;
    }
    void everyCellIsTheReference()
    {
        QFETCH(int, dtype);
        QFETCH(qint64, head);
        const std::vector<double> r1 {1.7, 0.37, 0.005}, r2 {0.9, 2.3, 0.1};
        const std::int64_t L = 400;
        const RowMatrixXf t = tableOf(kerple(r1, r2, 3, head, KerpleDtype(dtype), L), {0, L, 0, L});
        const auto k = std::size_t(head - 1);
        for (std::int64_t i = 0; i < L; ++i)
            for (std::int64_t j = 0; j < L; ++j) {
                const double want = kerpleref::bias(r1[k], r2[k], i, j, refDtype(KerpleDtype(dtype)));
                if (double(t(i, j)) != want)
                    QFAIL(qPrintable(u"(%1, %2): %3, want %4"_s.arg(i).arg(j).arg(t(i, j)).arg(want)));
            }
    }

    // In float32 each of four operations rounds once: within a few units of float32 of the kernel,
    // and, where 1 + r2 (i - j) is near 1, its rounding (and r2's) moves the logarithm by up to a
    // unit of float32 of 1 each: the reference's log(1 + x), not log1p(x).
    void float32IsTheKernelToItsRoundings()
    {
        const std::int64_t L = 3000;
        for (const auto &[r1, r2] : {std::pair(1.0, 1.0), std::pair(0.37, 2.3), std::pair(5.0, 0.02)}) {
            const RowMatrixXf t = tableOf(kerple({r1}, {r2}, 1, 1, KerpleDtype::Float32, L), {L - 1, 1, 0, L});
            for (std::int64_t j = 0; j < L; ++j) {
                const double exact = kerpleref::exact(r1, r2, L - 1, j);
                QVERIFY2(
                    std::fabs(double(t(0, j)) - exact) <= std::ldexp(4.0 * std::fabs(exact) + 3.0 * r1, -24),
                    qPrintable(u"r1 %1 r2 %2 key %3: %4 against %5"_s.arg(r1).arg(r2).arg(j).arg(t(0, j)).arg(exact)));
            }
        }
    }

    // torch.tril: the keys after the query hold distance 0's bias, 0, not -inf.
    void afterTheQueryIsZero()
    {
        const RowMatrixXf t = tableOf(kerple({2.0}, {3.0}, 1, 1, KerpleDtype::Float32, 50), {0, 50, 0, 50});
        for (std::int64_t i = 0; i < 50; ++i)
            for (std::int64_t j = i; j < 50; ++j)
                QCOMPARE(t(i, j), 0.0f);
        QVERIFY(t(1, 0) < 0.0f);
    }

    // clamp(min=eps): r1 and r2 below 0.01 act as 0.01.
    void belowEpsIsEps()
    {
        const RowMatrixXf small = tableOf(kerple({0.001}, {0.0001}, 1, 1, KerpleDtype::Float32, 64), {0, 64, 0, 64});
        const RowMatrixXf eps = tableOf(kerple({0.01}, {0.01}, 1, 1, KerpleDtype::Float32, 64), {0, 64, 0, 64});
        QVERIFY(small == eps);
        QCOMPARE(double(small(63, 0)), kerpleref::bias(0.01, 0.01, 63, 0, kerpleref::Dtype::Float32));
    }

    // diff.to(bfloat16) holds 8 significant bits: 257 is 256 and 259 is 260; float16's past 65504 is
    // inf, and so is the bias.
    void distancesRoundToTheDtype()
    {
        const RowMatrixXf b = tableOf(kerple({1.0}, {1.0}, 1, 1, KerpleDtype::BFloat16, 300), {299, 1, 0, 300});
        QCOMPARE(b(0, 299 - 257), b(0, 299 - 256));
        QCOMPARE(b(0, 299 - 259), b(0, 299 - 260));
        QVERIFY(b(0, 299 - 128) != b(0, 299 - 256));
        const std::int64_t L = 65600;
        const RowMatrixXf h = tableOf(kerple({1.0}, {1.0}, 1, 1, KerpleDtype::Float16, L), {L - 1, 1, 0, 100});
        const RowMatrixXf f = tableOf(kerple({1.0}, {1.0}, 1, 1, KerpleDtype::Float32, L), {L - 1, 1, 0, 100});
        // Key j at distance 65599 - j: from 65520 on, float16's inf.
        for (std::int64_t j = 0; j < 100; ++j) {
            const bool overflows = L - 1 - j >= 65520;
            QCOMPARE(std::isinf(h(0, j)), overflows);
            QVERIFY(std::isfinite(f(0, j)));
            QCOMPARE(double(h(0, j)), kerpleref::bias(1.0, 1.0, L - 1, j, kerpleref::Dtype::Float16));
        }
    }

    // posenc describe: head K's r1 and r2 as used, every head's, the clamped heads, the biases.
    void describeSaysTheHeads()
    {
        const Params p = kerple({0.5, 1.0, 0.004}, {2.0}, 3, 3, KerpleDtype::Float32, 100);
        const auto entries = Description::entries(p);
        QVERIFY(entries);
        const auto at = [&](const QString &key) {
            for (const auto &[k, v] : *entries)
                if (k == key)
                    return v;
            qFatal("no %s", qPrintable(key));
        };
        QCOMPARE(std::get<std::int64_t>(at(u"heads"_s)), 3);
        QCOMPARE(std::get<double>(at(u"r1"_s)), double(0.01f));
        QCOMPARE(std::get<std::int64_t>(at(u"clamped_heads"_s)), 1);
        QCOMPARE(std::get<std::vector<double>>(at(u"r1_heads"_s)).size(), std::size_t(3));
        QCOMPARE(std::get<double>(at(u"farthest_bias"_s)),
                 kerpleref::bias(0.004, 2.0, 99, 0, kerpleref::Dtype::Float32));
        // In float16 a distance past 65504 is inf: describe says "-inf" in a word, not a number
        // describe --json could not print (tst_finitetables' draw at max_len 2^24).
        const auto far = Description::entries(kerple({1.0}, {1.0}, 1, 1, KerpleDtype::Float16, 65600));
        QVERIFY(far);
        const auto said = std::ranges::find_if(*far, [](const auto &e) { return e.first == u"farthest_bias"_s; });
        QVERIFY(said != far->end());
        QCOMPARE(std::get<QString>(said->second), u"-inf"_s);
    }

    void listsMustFitTheHeads()
    {
        QVERIFY(kerple({1.0, 2.0}, {1.0}, 3, 1, KerpleDtype::Float32, 10).validate().size() == 1);
        QVERIFY(kerple({1.0, 2.0, 3.0}, {1.0}, 3, 1, KerpleDtype::Float32, 10).validate().isEmpty());
    }
};

POSENC_TEST_GUILESS_MAIN(TestKerpleBias)
} // namespace tst_kerplebias
#include "tst_kerplebias.moc"
