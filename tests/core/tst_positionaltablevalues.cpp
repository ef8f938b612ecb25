// PositionalTable: the sinusoidal table's values in both layouts and both angle modes, against
// float64 sin/cos written afresh in the test (Reference.h) and the float32-angle recipe, and
// the error of float32 angles.

#include "FilledBlocks.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/PositionalTable.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tst_positionaltablevalues {
using namespace Qt::StringLiterals;
using posenc::Angles;
using posenc::Block;
using posenc::Layout;
using posenc::PositionalTable;
using posenc::RowMatrixXf;
using testing::fillBlock;
using testing::fillErrorBlock;
using testing::layoutName;

class TestPositionalTableValues : public QObject
{
    Q_OBJECT

private slots:
    void knownValues_data();
    void knownValues();
    void positionZeroIsExact_data();
    void positionZeroIsExact();
    void exactAnglesMatchFloat64_data();
    void exactAnglesMatchFloat64();
    void exactStateWithinHeaderBound_data();
    void exactStateWithinHeaderBound();
    void float32AnglesMatchReference_data();
    void float32AnglesMatchReference();
    void float32ErrorGrowsWithPosition();
    void fillErrorIsFloat32MinusExact_data();
    void fillErrorIsFloat32MinusExact();
};

// Values written out from the closed form: d = 4, b = 10^4 gives w = {1, 10^-2}; d = 3 gives
// w_1 = 10^(-8/3).
void TestPositionalTableValues::knownValues_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<std::int64_t>("position");
    QTest::addColumn<QList<double>>("expected");
    const double w1of3 = std::pow(10.0, -8.0 / 3.0);
    QTest::newRow("d=4 interleaved p=1") << std::int64_t(4) << Layout::Interleaved << std::int64_t(1)
                                         << QList<double> {std::sin(1.0), std::cos(1.0), std::sin(0.01),
                                                           std::cos(0.01)};
    QTest::newRow("d=4 split p=1") << std::int64_t(4) << Layout::Split << std::int64_t(1)
                                   << QList<double> {std::sin(1.0), std::sin(0.01), std::cos(1.0), std::cos(0.01)};
    QTest::newRow("d=4 interleaved p=100")
        << std::int64_t(4) << Layout::Interleaved << std::int64_t(100)
        << QList<double> {std::sin(100.0), std::cos(100.0), std::sin(1.0), std::cos(1.0)};
    QTest::newRow("d=2 interleaved p=2") << std::int64_t(2) << Layout::Interleaved << std::int64_t(2)
                                         << QList<double> {std::sin(2.0), std::cos(2.0)};
    QTest::newRow("d=3 interleaved p=7") << std::int64_t(3) << Layout::Interleaved << std::int64_t(7)
                                         << QList<double> {std::sin(7.0), std::cos(7.0), std::sin(7.0 * w1of3)};
    QTest::newRow("d=3 split p=7") << std::int64_t(3) << Layout::Split << std::int64_t(7)
                                   << QList<double> {std::sin(7.0), std::sin(7.0 * w1of3), std::cos(7.0)};
    QTest::newRow("d=1 interleaved p=5") << std::int64_t(1) << Layout::Interleaved << std::int64_t(5)
                                         << QList<double> {std::sin(5.0)};
    // Literal digits, so a shared mistake in std::sin use cannot hide: sin(1), cos(1), sin(0.01), cos(0.01).
    QTest::newRow("d=4 interleaved p=1 literal")
        << std::int64_t(4) << Layout::Interleaved << std::int64_t(1)
        << QList<double> {0.8414709848078965, 0.5403023058681398, 0.009999833334166664, 0.9999500004166653};
}

void TestPositionalTableValues::knownValues()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(std::int64_t, position);
    QFETCH(QList<double>, expected);
    for (const Angles angles : {Angles::Exact, Angles::Float32}) {
        const PositionalTable table(d, 10000.0, layout, angles);
        QCOMPARE(table.columns(), d);
        const RowMatrixXf row = fillBlock(table, Block {position, 1, 0, d});
        // float32 angles at p <= 100 stay within a few 1e-6 of the exact value.
        const double tolerance = angles == Angles::Exact ? 1e-6 : 1e-5;
        for (std::int64_t j = 0; j < d; ++j)
            QVERIFY2(std::abs(double(row(0, j)) - expected[j]) <= tolerance,
                     qPrintable(u"angles %1, column %2: expected %3, got %4"_s.arg(int(angles))
                                    .arg(j)
                                    .arg(reference::num(expected[j]), reference::numf(row(0, j)))));
    }
}

void TestPositionalTableValues::positionZeroIsExact_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<Angles>("angles");
    for (const std::int64_t d : {1, 2, 7, 512}) {
        for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
            QTest::addRow("d=%ld %s exact", long(d), qPrintable(layoutName(layout))) << d << layout << Angles::Exact;
            QTest::addRow("d=%ld %s float32", long(d), qPrintable(layoutName(layout)))
                << d << layout << Angles::Float32;
        }
    }
}

// Row 0: every sine is exactly 0 and every cosine exactly 1.
void TestPositionalTableValues::positionZeroIsExact()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Angles, angles);
    const PositionalTable table(d, 10000.0, layout, angles);
    const RowMatrixXf row = fillBlock(table, Block {0, 1, 0, d});
    for (std::int64_t j = 0; j < d; ++j) {
        const float expected = reference::role(j, d, layout).isCos ? 1.0f : 0.0f;
        QVERIFY2(row(0, j) == expected,
                 qPrintable(u"column %1: expected %2, got %3"_s.arg(j).arg(reference::numf(expected),
                                                                           reference::numf(row(0, j)))));
    }
}

static void addExactRows()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<double>("base");
    for (const std::int64_t d : {1, 2, 3, 7, 64, 511, 512, 4096}) {
        QTest::addRow("d=%ld interleaved", long(d)) << d << Layout::Interleaved << 10000.0;
        QTest::addRow("d=%ld split", long(d)) << d << Layout::Split << 10000.0;
    }
    QTest::newRow("d=64 interleaved b=2") << std::int64_t(64) << Layout::Interleaved << 2.0;
    QTest::newRow("d=64 split b=5e5") << std::int64_t(64) << Layout::Split << 500000.0;
    QTest::newRow("d=7 interleaved b=1.5") << std::int64_t(7) << Layout::Interleaved << 1.5;
}

void TestPositionalTableValues::exactAnglesMatchFloat64_data()
{
    addExactRows();
}

// docs/ARCHITECTURE.md, The mathematics: every stored value is within 1e-6 of float64
// sin/cos(p w_i) for every p < 2^24.
void TestPositionalTableValues::exactAnglesMatchFloat64()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(double, base);
    const PositionalTable table(d, base, layout, Angles::Exact);
    double worst = 0.0;
    QString worstCell;
    for (const reference::RowRange range : reference::scatteredRows()) {
        const RowMatrixXf got = fillBlock(table, Block {range.row0, range.rows, 0, d});
        for (std::int64_t r = 0; r < range.rows; ++r)
            for (std::int64_t j = 0; j < d; ++j) {
                const double expected = reference::exactValue(range.row0 + r, j, d, base, layout);
                const double error = std::abs(double(got(r, j)) - expected);
                if (!(error <= worst)) {
                    worst = std::isnan(error) ? std::numeric_limits<double>::infinity() : error;
                    worstCell = u"(%1, %2): expected %3, got %4"_s.arg(range.row0 + r)
                                    .arg(j)
                                    .arg(reference::num(expected), reference::numf(got(r, j)));
                }
            }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(u"max error %1 at %2"_s.arg(worst).arg(worstCell)));
}

void TestPositionalTableValues::exactStateWithinHeaderBound_data()
{
    addExactRows();
}

// PositionalTable.h promises the double state stays within ~1e-13 of sin/cos(p w_i): the stored
// float is then the correctly rounded value of sin/cos(p w_i), up to that state error. The
// reference carries p w_i exactly (Reference.h preciseValue), so the rounding of the double
// product p * w_i (up to ~1e-9 near 2^24) is not mistaken for the truth; allowed: half a float
// ulp plus 1e-12, ten times the header's bound.
void TestPositionalTableValues::exactStateWithinHeaderBound()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(double, base);
    const PositionalTable table(d, base, layout, Angles::Exact);
    double worstExcess = -1.0;
    QString worstCell;
    for (const reference::RowRange range : reference::scatteredRows(7u, 4)) {
        const RowMatrixXf got = fillBlock(table, Block {range.row0, range.rows, 0, d});
        for (std::int64_t r = 0; r < range.rows; ++r)
            for (std::int64_t j = 0; j < d; ++j) {
                const double expected = reference::preciseValue(range.row0 + r, j, d, base, layout);
                const float rounded = float(expected);
                const double halfUlp = 0.5 * std::abs(double(std::nextafter(rounded, 2.0f)) - double(rounded));
                const double excess = std::abs(double(got(r, j)) - expected) - halfUlp;
                if (excess > worstExcess) {
                    worstExcess = excess;
                    worstCell
                        = u"(%1, %2): exact %3 rounds to %4, got %5"_s.arg(range.row0 + r)
                              .arg(j)
                              .arg(reference::num(expected), reference::numf(rounded), reference::numf(got(r, j)));
                }
            }
    }
    QVERIFY2(worstExcess <= 1e-12, qPrintable(u"error beyond half an ulp: %1 at %2"_s.arg(worstExcess).arg(worstCell)));
}

void TestPositionalTableValues::float32AnglesMatchReference_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    for (const std::int64_t d : {1, 7, 64, 512, 4096}) {
        QTest::addRow("d=%ld interleaved", long(d)) << d << Layout::Interleaved;
        QTest::addRow("d=%ld split", long(d)) << d << Layout::Split;
    }
}

// Reference: wf = float(w_i); a = float(p) * wf; value = float(sin/cos(double(a))).
// Tolerance chosen: within 1 float ulp of the reference (not 1e-7 absolute).
void TestPositionalTableValues::float32AnglesMatchReference()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    const PositionalTable table(d, 10000.0, layout, Angles::Float32);
    QCOMPARE(table.angles(), Angles::Float32);
    QCOMPARE(table.layout(), layout);
    for (const reference::RowRange range : reference::scatteredRows()) {
        const RowMatrixXf got = fillBlock(table, Block {range.row0, range.rows, 0, d});
        for (std::int64_t r = 0; r < range.rows; ++r)
            for (std::int64_t j = 0; j < d; ++j) {
                const float expected = reference::float32AngleValue(range.row0 + r, j, d, 10000.0, layout);
                QVERIFY2(reference::ulpDistance(got(r, j), expected) <= 1,
                         qPrintable(u"(%1, %2): expected %3, got %4"_s.arg(range.row0 + r)
                                        .arg(j)
                                        .arg(reference::numf(expected), reference::numf(got(r, j)))));
            }
    }
}

// The precision view: float32 angles drift from the float64 value as the position grows.
void TestPositionalTableValues::float32ErrorGrowsWithPosition()
{
    const std::int64_t d = 4096;
    const PositionalTable table(d, 10000.0, Layout::Interleaved, Angles::Float32);
    const auto maxError = [&](std::int64_t row0, std::int64_t rows) {
        const RowMatrixXf got = fillBlock(table, Block {row0, rows, 0, d});
        double worst = 0.0;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t j = 0; j < d; ++j)
                worst = std::max(
                    worst,
                    std::abs(double(got(r, j)) - reference::exactValue(row0 + r, j, d, 10000.0, Layout::Interleaved)));
        return worst;
    };
    const double early = maxError(0, 16);
    const double late = maxError(16384 - 128, 128);
    QVERIFY2(early < 1e-6, qPrintable(u"max error for p < 16: %1, expected < 1e-6"_s.arg(early)));
    QVERIFY2(late > 1e-4, qPrintable(u"max error for p in [16256, 16384): %1, expected > 1e-4"_s.arg(late)));
    const double far = maxError((1 << 20), 16);
    QVERIFY2(far > late, qPrintable(u"max error near 2^20: %1, expected above %2"_s.arg(far).arg(late)));
}

void TestPositionalTableValues::fillErrorIsFloat32MinusExact_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<Angles>("angles");
    for (const std::int64_t d : {7, 512, 4096}) {
        QTest::addRow("d=%ld interleaved", long(d)) << d << Layout::Interleaved << Angles::Exact;
        QTest::addRow("d=%ld split", long(d)) << d << Layout::Split << Angles::Exact;
    }
    QTest::newRow("d=512 interleaved, table built float32")
        << std::int64_t(512) << Layout::Interleaved << Angles::Float32;
}

// The error rows = (float32-angle value) - (float64 exact value), within 1e-7.
void TestPositionalTableValues::fillErrorIsFloat32MinusExact()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Angles, angles);
    const PositionalTable table(d, 10000.0, layout, angles);
    for (const reference::RowRange range : reference::scatteredRows(99u, 8)) {
        const RowMatrixXf got = fillErrorBlock(table, Block {range.row0, range.rows, 0, d});
        for (std::int64_t r = 0; r < range.rows; ++r)
            for (std::int64_t j = 0; j < d; ++j) {
                const std::int64_t p = range.row0 + r;
                const double expected = double(reference::float32AngleValue(p, j, d, 10000.0, layout))
                    - reference::exactValue(p, j, d, 10000.0, layout);
                QVERIFY2(std::abs(double(got(r, j)) - expected) <= 1e-7,
                         qPrintable(u"(%1, %2): expected %3, got %4"_s.arg(p).arg(j).arg(reference::num(expected),
                                                                                         reference::numf(got(r, j)))));
            }
    }
}

POSENC_TEST_GUILESS_MAIN(TestPositionalTableValues)
} // namespace tst_positionaltablevalues
#include "tst_positionaltablevalues.moc"
