// The check of KERPLE tables, as `posenc table kerple-bias` and the authors' ParallelKerpleLog
// write them (chijames/KERPLE, megatron/mpu/layers.py): each identified with its r1 and r2, fitted
// from tables written here in float64 (support/KerpleReference.h), in float32 and in bfloat16,
// after the query 0 (tril) or a mask's fill; a neighbouring family's table (ALiBi's linear bias,
// Sandwich's cosine sums) is not called KERPLE, and a KERPLE table is not called ALiBi.
#include "core/CheckTables.h"
#include "support/KerpleReference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <cmath>
#include <limits>

namespace tst_tablecheckkerple {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

// A head's bias over rows x rows; after the query the reference's 0, or `fill`.
RowMatrixXf kerpleTable(double r1, double r2, kerpleref::Dtype dtype, std::int64_t rows,
                        std::optional<float> fill = std::nullopt)
{
    return table(rows, rows, [&](std::int64_t i, std::int64_t j) {
        if (fill && j > i)
            return double(*fill);
        return kerpleref::bias(r1, r2, i, j, dtype);
    });
}

// ALiBi's causal bias of slope m, -inf after the query.
RowMatrixXf alibiTable(double m, std::int64_t rows)
{
    return table(rows, rows, [&](std::int64_t i, std::int64_t j) {
        return j > i ? -std::numeric_limits<double>::infinity() : -m * double(i - j);
    });
}

// Sandwich's causal bias of head 1 of 12, d 64 (NeMo's SandwichRelativePositionEmbedding).
RowMatrixXf sandwichTable(std::int64_t rows)
{
    std::vector<double> w;
    for (double k = 1.0; k < 33.0; k += 1.0)
        w.push_back(1.0 / std::pow(10000.0, 2.0 * k / 64.0));
    return table(rows, rows, [&](std::int64_t i, std::int64_t j) {
        const double r = j > i ? 0.0 : double(i - j);
        double sum = 0.0;
        for (const double f : w)
            sum += std::cos(r * f);
        return (sum - 32.0) / (8.0 / 12.0);
    });
}

} // namespace

class TestTableCheckKerple : public QObject
{
    Q_OBJECT

private slots:
    void kerpleIsIdentified_data()
    {
        QTest::addColumn<double>("r1");
        QTest::addColumn<double>("r2");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<float>("fill"); // NaN: the reference's 0 after the query
        const float own = std::numeric_limits<float>::quiet_NaN();
        const float minusInf = -std::numeric_limits<float>::infinity();
        const int f32 = int(kerpleref::Dtype::Float32), bf16 = int(kerpleref::Dtype::BFloat16);
        QTest::newRow("r1 1, r2 1, float32") << 1.0 << 1.0 << f32 << 300ll << own;
        QTest::newRow("r1 0.73, r2 2.5, float32") << 0.73 << 2.5 << f32 << 300ll << own;
        QTest::newRow("r2 small, 0.03: nearly linear") << 1.3 << 0.03 << f32 << 500ll << own;
        QTest::newRow("r2 large, 40") << 0.2 << 40.0 << f32 << 300ll << own;
        QTest::newRow("sampled, 3000 rows") << 0.37 << 2.3 << f32 << 3000ll << own;
        QTest::newRow("three rows") << 1.5 << 0.5 << f32 << 3ll << own;
        QTest::newRow("the mask's -inf after the query") << 1.0 << 0.5 << f32 << 200ll << minusInf;
        QTest::newRow("bfloat16, past 256 positions") << 0.73 << 2.5 << bf16 << 600ll << own;
        QTest::newRow("bfloat16, r1 1.7, r2 0.9") << 1.7 << 0.9 << bf16 << 300ll << own;
    }
    void kerpleIsIdentified()
    {
        QFETCH(double, r1);
        QFETCH(double, r2);
        QFETCH(int, dtype);
        QFETCH(qint64, rows);
        QFETCH(float, fill);
        const auto d = kerpleref::Dtype(dtype);
        const auto filled = std::isnan(fill) ? std::nullopt : std::optional(fill);
        const Checked c = check(kerpleTable(r1, r2, d, rows, filled));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        QVERIFY2(m.verdict == CheckVerdict::Correct, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(*m.family, Encoding::Kerple);
        QCOMPARE(m.table, u"kerple-bias"_s);
        // The parameters as the dtype stores them.
        QCOMPARE(number(m, u"r1"_s), kerpleref::used(r1, d));
        QCOMPARE(number(m, u"r2"_s), kerpleref::used(r2, d));
        QCOMPARE(word(m, u"dtype"_s), d == kerpleref::Dtype::BFloat16 ? u"bfloat16"_s : u"float32"_s);
        QVERIFY(m.correctAgainst.contains(u"ParallelKerpleLog"_s));
        QVERIFY(m.params);
        QCOMPARE(m.params->encoding, Encoding::Kerple);
        if (filled)
            QVERIFY(m.notes.join(u'\n').contains(u"mask's fill"_s));
    }

    // r2 below eps is the reference's eps: the table is that of 0.01, and the note says so.
    void r2BelowEpsIsEps()
    {
        const Checked c = check(kerpleTable(0.8, 0.001, kerpleref::Dtype::Float32, 400));
        QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis));
        QCOMPARE(number(c.match, u"r2"_s), double(0.01f));
        QVERIFY(c.match.notes.join(u'\n').contains(u"eps"_s));
    }

    // ALiBi's linear bias is the limit r2 -> 0, which the clamp keeps out: ALiBi's, not KERPLE's.
    void alibiIsNotKerple_data()
    {
        QTest::addColumn<double>("slope");
        QTest::addColumn<qint64>("rows");
        QTest::newRow("8 heads, head 1") << std::pow(2.0, -1.0) << 300ll;
        QTest::newRow("8 heads, head 8") << std::pow(2.0, -8.0) << 300ll;
        QTest::newRow("a slope no head has") << 0.3 << 300ll;
        QTest::newRow("three rows") << 0.5 << 3ll;
    }
    void alibiIsNotKerple()
    {
        QFETCH(double, slope);
        QFETCH(qint64, rows);
        const Checked c = check(alibiTable(slope, rows));
        QVERIFY(c.match.family);
        QCOMPARE(*c.match.family, Encoding::Alibi);
        QVERIFY(c.match.table != u"kerple-bias"_s);
    }

    void sandwichIsNotKerple()
    {
        const Checked c = check(sandwichTable(300));
        QVERIFY(c.match.family);
        QCOMPARE(*c.match.family, Encoding::Sandwich);
    }

    // A KERPLE table, however near a line (r2 at eps, a short table), is not called ALiBi.
    void kerpleIsNotAlibi_data()
    {
        QTest::addColumn<double>("r1");
        QTest::addColumn<double>("r2");
        QTest::addColumn<qint64>("rows");
        QTest::newRow("r2 at eps") << 1.0 << 0.01 << 300ll;
        QTest::newRow("r2 at eps, 16 rows") << 1.0 << 0.01 << 16ll;
        QTest::newRow("r2 0.05, 64 rows") << 2.0 << 0.05 << 64ll;
    }
    void kerpleIsNotAlibi()
    {
        QFETCH(double, r1);
        QFETCH(double, r2);
        QFETCH(qint64, rows);
        const Checked c = check(kerpleTable(r1, r2, kerpleref::Dtype::Float32, rows));
        QVERIFY2(c.match.family && *c.match.family == Encoding::Kerple, qPrintable(c.match.diagnosis));
        QCOMPARE(c.match.verdict, CheckVerdict::Correct);
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckKerple)
} // namespace tst_tablecheckkerple
#include "tst_tablecheckkerple.moc"
