// Frequencies: w_i = exp(-2 i ln(b) / d) in double, and which column holds which pair in
// both layouts (docs/ARCHITECTURE.md, The mathematics), against references written afresh in Reference.h.

#include "Reference.h"
#include "support/TestMain.h"

#include "core/sinusoidal/Frequencies.h"

#include <QTest>

#include <cmath>
#include <numbers>
#include <vector>

namespace tst_frequencies {
using namespace Qt::StringLiterals;
using posenc::ColumnRole;
using posenc::Layout;
namespace Frequencies = posenc::Frequencies;

class TestFrequencies : public QObject
{
    Q_OBJECT

private slots:
    void pairCount_data();
    void pairCount();
    void angularMatchesFormula_data();
    void angularMatchesFormula();
    void wavelengthIsTwoPiOverOmega_data();
    void wavelengthIsTwoPiOverOmega();
    void roles_data();
    void roles();
    void columnInvertsRole_data();
    void columnInvertsRole();
    void oddDModelLastPairHasNoCosine_data();
    void oddDModelLastPairHasNoCosine();
    void knownRoles_data();
    void knownRoles();
};

void TestFrequencies::pairCount_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<std::int64_t>("pairs");
    QTest::newRow("d=1") << std::int64_t(1) << std::int64_t(1);
    QTest::newRow("d=2") << std::int64_t(2) << std::int64_t(1);
    QTest::newRow("d=3") << std::int64_t(3) << std::int64_t(2);
    QTest::newRow("d=7") << std::int64_t(7) << std::int64_t(4);
    QTest::newRow("d=511") << std::int64_t(511) << std::int64_t(256);
    QTest::newRow("d=512") << std::int64_t(512) << std::int64_t(256);
    QTest::newRow("d=2^20") << std::int64_t(1 << 20) << std::int64_t(1 << 19);
}

void TestFrequencies::pairCount()
{
    QFETCH(std::int64_t, d);
    QFETCH(std::int64_t, pairs);
    QCOMPARE(Frequencies::pairCount(d), pairs);
}

static void addDBaseRows()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<double>("base");
    QTest::newRow("d=1 b=1e4") << std::int64_t(1) << 10000.0;
    QTest::newRow("d=2 b=1e4") << std::int64_t(2) << 10000.0;
    QTest::newRow("d=7 b=1e4") << std::int64_t(7) << 10000.0;
    QTest::newRow("d=64 b=1e4") << std::int64_t(64) << 10000.0;
    QTest::newRow("d=511 b=1e4") << std::int64_t(511) << 10000.0;
    QTest::newRow("d=512 b=1e4") << std::int64_t(512) << 10000.0;
    QTest::newRow("d=4096 b=1e4") << std::int64_t(4096) << 10000.0;
    QTest::newRow("d=128 b=5e5") << std::int64_t(128) << 500000.0;
    QTest::newRow("d=64 b=2") << std::int64_t(64) << 2.0;
    QTest::newRow("d=9 b=1.0001") << std::int64_t(9) << 1.0001;
}

void TestFrequencies::angularMatchesFormula_data()
{
    addDBaseRows();
}

// Compared with exp(-2 i ln b / d) and, as a second closed form, b^(-2i/d).
void TestFrequencies::angularMatchesFormula()
{
    QFETCH(std::int64_t, d);
    QFETCH(double, base);
    QVERIFY(Frequencies::angular(0, d, base) == 1.0);
    const std::int64_t pairs = (d + 1) / 2;
    double previous = 2.0;
    for (std::int64_t i = 0; i < pairs; ++i) {
        const double w = Frequencies::angular(i, d, base);
        const double expected = reference::omega(i, d, base);
        const double viaPow = std::pow(base, -2.0 * double(i) / double(d));
        QVERIFY2(std::abs(w - expected) <= 1e-14 * expected,
                 qPrintable(u"pair %1: expected %2, got %3"_s.arg(i).arg(reference::num(expected), reference::num(w))));
        QVERIFY2(
            std::abs(w - viaPow) <= 1e-13 * viaPow,
            qPrintable(u"pair %1: b^(-2i/d) = %2, got %3"_s.arg(i).arg(reference::num(viaPow), reference::num(w))));
        QVERIFY2(w < previous, qPrintable(u"pair %1: frequencies must decrease"_s.arg(i)));
        previous = w;
    }
}

void TestFrequencies::wavelengthIsTwoPiOverOmega_data()
{
    addDBaseRows();
}

void TestFrequencies::wavelengthIsTwoPiOverOmega()
{
    QFETCH(std::int64_t, d);
    QFETCH(double, base);
    const double twoPi = 2.0 * std::numbers::pi;
    QVERIFY(std::abs(Frequencies::wavelength(0, d, base) - twoPi) <= 1e-15 * twoPi);
    for (std::int64_t i = 0; i < (d + 1) / 2; ++i) {
        const double expected = twoPi / reference::omega(i, d, base);
        const double got = Frequencies::wavelength(i, d, base);
        QVERIFY2(
            std::abs(got - expected) <= 1e-14 * expected,
            qPrintable(u"pair %1: expected %2, got %3"_s.arg(i).arg(reference::num(expected), reference::num(got))));
    }
}

static void addDLayoutRows()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    for (const std::int64_t d : {1, 2, 3, 7, 8, 64, 511, 512}) {
        QTest::addRow("d=%ld interleaved", d) << d << Layout::Interleaved;
        QTest::addRow("d=%ld split", d) << d << Layout::Split;
    }
}

void TestFrequencies::roles_data()
{
    addDLayoutRows();
}

// Every column against the layout rules; every pair has exactly one sine, and a cosine iff
// pair < floor(d/2).
void TestFrequencies::roles()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    const std::int64_t pairs = (d + 1) / 2;
    std::vector<int> sines(std::size_t(pairs), 0);
    std::vector<int> cosines(std::size_t(pairs), 0);
    for (std::int64_t j = 0; j < d; ++j) {
        const ColumnRole got = Frequencies::role(j, d, layout);
        const reference::Role expected = reference::role(j, d, layout);
        QVERIFY2(got.pair == expected.pair && got.isCos == expected.isCos,
                 qPrintable(u"column %1: expected pair %2 %3, got pair %4 %5"_s.arg(j)
                                .arg(expected.pair)
                                .arg(expected.isCos ? u"cos"_s : u"sin"_s)
                                .arg(got.pair)
                                .arg(got.isCos ? u"cos"_s : u"sin"_s)));
        QVERIFY(got.pair >= 0 && got.pair < pairs);
        ++(got.isCos ? cosines : sines)[std::size_t(got.pair)];
    }
    for (std::int64_t i = 0; i < pairs; ++i) {
        QCOMPARE(sines[std::size_t(i)], 1);
        QCOMPARE(cosines[std::size_t(i)], i < d / 2 ? 1 : 0);
    }
}

void TestFrequencies::columnInvertsRole_data()
{
    addDLayoutRows();
}

void TestFrequencies::columnInvertsRole()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    for (std::int64_t j = 0; j < d; ++j) {
        const reference::Role r = reference::role(j, d, layout);
        QCOMPARE(Frequencies::column(ColumnRole {r.pair, r.isCos}, d, layout), j);
    }
}

void TestFrequencies::oddDModelLastPairHasNoCosine_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    for (const std::int64_t d : {1, 3, 7, 511}) {
        QTest::addRow("d=%ld interleaved", d) << d << Layout::Interleaved;
        QTest::addRow("d=%ld split", d) << d << Layout::Split;
    }
}

void TestFrequencies::oddDModelLastPairHasNoCosine()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    const std::int64_t last = (d + 1) / 2 - 1;
    QCOMPARE(Frequencies::column(ColumnRole {last, true}, d, layout), std::int64_t(-1));
    const std::int64_t sineColumn = Frequencies::column(ColumnRole {last, false}, d, layout);
    QCOMPARE(sineColumn, layout == Layout::Interleaved ? d - 1 : last);
}

// A few columns written out by hand, so the layouts are pinned by more than one formula.
void TestFrequencies::knownRoles_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<QList<std::int64_t>>("pairs");
    QTest::addColumn<QList<bool>>("cosines");
    QTest::newRow("d=6 interleaved") << std::int64_t(6) << Layout::Interleaved << QList<std::int64_t> {0, 0, 1, 1, 2, 2}
                                     << QList<bool> {false, true, false, true, false, true};
    QTest::newRow("d=6 split") << std::int64_t(6) << Layout::Split << QList<std::int64_t> {0, 1, 2, 0, 1, 2}
                               << QList<bool> {false, false, false, true, true, true};
    QTest::newRow("d=5 interleaved") << std::int64_t(5) << Layout::Interleaved << QList<std::int64_t> {0, 0, 1, 1, 2}
                                     << QList<bool> {false, true, false, true, false};
    QTest::newRow("d=5 split") << std::int64_t(5) << Layout::Split << QList<std::int64_t> {0, 1, 2, 0, 1}
                               << QList<bool> {false, false, false, true, true};
    QTest::newRow("d=1 split") << std::int64_t(1) << Layout::Split << QList<std::int64_t> {0} << QList<bool> {false};
}

void TestFrequencies::knownRoles()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(QList<std::int64_t>, pairs);
    QFETCH(QList<bool>, cosines);
    for (std::int64_t j = 0; j < d; ++j) {
        const ColumnRole got = Frequencies::role(j, d, layout);
        QCOMPARE(got.pair, pairs[j]);
        QCOMPARE(got.isCos, cosines[j]);
    }
}

POSENC_TEST_GUILESS_MAIN(TestFrequencies)
} // namespace tst_frequencies
#include "tst_frequencies.moc"
