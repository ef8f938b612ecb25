// PositionalTable: the sinusoidal table in both layouts and both angle modes, against float64
// sin/cos written afresh in the test (Reference.h), closed forms (sin^2 + cos^2 = 1,
// ||PE_p||^2 = d/2) and exact relations between blocks (column permutation, sub-blocks).

#include "Reference.h"

#include "core/PositionalTable.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;
using posenc::Angles;
using posenc::Block;
using posenc::Layout;
using posenc::PositionalTable;
using posenc::RowMatrixXf;
using reference::kTwoTo24;

namespace {

RowMatrixXf fillBlock(const PositionalTable &table, const Block &block)
{
    RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    table.fill(block, out);
    return out;
}

// The float32-angle error (PositionalTable::forEachErrorRow) of a block, into `out`.
void fillErrorInto(const PositionalTable &table, const Block &block, posenc::BlockRef out)
{
    table.forEachErrorRow(block, [&](std::int64_t position, const float *values) {
        for (std::int64_t c = 0; c < block.cols; ++c)
            out(position - block.row0, c) = values[c];
    });
}

RowMatrixXf fillErrorBlock(const PositionalTable &table, const Block &block)
{
    RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    fillErrorInto(table, block, out);
    return out;
}

QString layoutName(Layout layout)
{
    return layout == Layout::Interleaved ? u"interleaved"_s : u"split"_s;
}

} // namespace

class TestPositionalTable : public QObject
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
    void splitIsColumnPermutationOfInterleaved_data();
    void splitIsColumnPermutationOfInterleaved();
    void partialColumnBlocksEqualFullWidth_data();
    void partialColumnBlocksEqualFullWidth();
    void blockStartDoesNotMatter_data();
    void blockStartDoesNotMatter();
    void float32AnglesMatchReference_data();
    void float32AnglesMatchReference();
    void float32ErrorGrowsWithPosition();
    void fillErrorIsFloat32MinusExact_data();
    void fillErrorIsFloat32MinusExact();
    void squaredNormIsHalfD_data();
    void squaredNormIsHalfD();
    void pairsLieOnUnitCircle_data();
    void pairsLieOnUnitCircle();
    void writesOnlyItsBlock_data();
    void writesOnlyItsBlock();
};

// Values written out from the closed form: d = 4, b = 10^4 gives w = {1, 10^-2}; d = 3 gives
// w_1 = 10^(-8/3).
void TestPositionalTable::knownValues_data()
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

void TestPositionalTable::knownValues()
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

void TestPositionalTable::positionZeroIsExact_data()
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
void TestPositionalTable::positionZeroIsExact()
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

void TestPositionalTable::exactAnglesMatchFloat64_data()
{
    addExactRows();
}

// docs/ARCHITECTURE.md, The mathematics: every stored value is within 1e-6 of float64
// sin/cos(p w_i) for every p < 2^24.
void TestPositionalTable::exactAnglesMatchFloat64()
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

void TestPositionalTable::exactStateWithinHeaderBound_data()
{
    addExactRows();
}

// PositionalTable.h promises the double state stays within ~1e-13 of sin/cos(p w_i): the stored
// float is then the correctly rounded value of sin/cos(p w_i), up to that state error. The
// reference carries p w_i exactly (Reference.h preciseValue), so the rounding of the double
// product p * w_i (up to ~1e-9 near 2^24) is not mistaken for the truth; allowed: half a float
// ulp plus 1e-12, ten times the header's bound.
void TestPositionalTable::exactStateWithinHeaderBound()
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

void TestPositionalTable::splitIsColumnPermutationOfInterleaved_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Angles>("angles");
    for (const std::int64_t d : {1, 2, 3, 7, 64, 511, 512}) {
        QTest::addRow("d=%ld exact", long(d)) << d << Angles::Exact;
        QTest::addRow("d=%ld float32", long(d)) << d << Angles::Float32;
    }
}

// split[:, i] == interleaved[:, 2i] and split[:, h + i] == interleaved[:, 2i + 1], bit for bit.
void TestPositionalTable::splitIsColumnPermutationOfInterleaved()
{
    QFETCH(std::int64_t, d);
    QFETCH(Angles, angles);
    const PositionalTable interleaved(d, 10000.0, Layout::Interleaved, angles);
    const PositionalTable split(d, 10000.0, Layout::Split, angles);
    const std::int64_t h = (d + 1) / 2;
    for (const Block rows : {Block {0, 40, 0, d}, Block {1000, 60, 0, d}, Block {kTwoTo24 - 40, 40, 0, d}}) {
        const RowMatrixXf a = fillBlock(interleaved, rows);
        const RowMatrixXf b = fillBlock(split, rows);
        RowMatrixXf permuted(rows.rows, d);
        for (std::int64_t i = 0; i < h; ++i)
            permuted.col(i) = a.col(2 * i);
        for (std::int64_t i = 0; i < d - h; ++i)
            permuted.col(h + i) = a.col(2 * i + 1);
        const QString difference = reference::firstBitDifference(permuted, b, rows.row0);
        QVERIFY2(difference.isEmpty(), qPrintable(u"split vs permuted interleaved: "_s + difference));
    }
}

void TestPositionalTable::partialColumnBlocksEqualFullWidth_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<std::int64_t>("col0");
    QTest::addColumn<std::int64_t>("cols");
    QTest::newRow("d=7 [3, 4)") << std::int64_t(7) << std::int64_t(3) << std::int64_t(1);
    QTest::newRow("d=7 [1, 6)") << std::int64_t(7) << std::int64_t(1) << std::int64_t(5);
    QTest::newRow("d=7 [6, 7)") << std::int64_t(7) << std::int64_t(6) << std::int64_t(1);
    QTest::newRow("d=64 [1, 2)") << std::int64_t(64) << std::int64_t(1) << std::int64_t(1);
    QTest::newRow("d=64 [3, 10)") << std::int64_t(64) << std::int64_t(3) << std::int64_t(7);
    QTest::newRow("d=64 [17, 47)") << std::int64_t(64) << std::int64_t(17) << std::int64_t(30);
    QTest::newRow("d=64 [31, 34)") << std::int64_t(64) << std::int64_t(31) << std::int64_t(3);
    QTest::newRow("d=64 [63, 64)") << std::int64_t(64) << std::int64_t(63) << std::int64_t(1);
    QTest::newRow("d=511 [255, 258)") << std::int64_t(511) << std::int64_t(255) << std::int64_t(3);
    QTest::newRow("d=511 [1, 510)") << std::int64_t(511) << std::int64_t(1) << std::int64_t(509);
    QTest::newRow("d=511 [509, 511)") << std::int64_t(511) << std::int64_t(509) << std::int64_t(2);
    QTest::newRow("d=512 [255, 257)") << std::int64_t(512) << std::int64_t(255) << std::int64_t(2);
    QTest::newRow("d=512 [101, 400)") << std::int64_t(512) << std::int64_t(101) << std::int64_t(299);
}

// Any column window equals the same cells of the full-width block, bit for bit, in both layouts
// and both angle modes, near the start, across an anchor row and at the end of the range.
void TestPositionalTable::partialColumnBlocksEqualFullWidth()
{
    QFETCH(std::int64_t, d);
    QFETCH(std::int64_t, col0);
    QFETCH(std::int64_t, cols);
    for (const Layout layout : {Layout::Interleaved, Layout::Split})
        for (const Angles angles : {Angles::Exact, Angles::Float32}) {
            const PositionalTable table(d, 10000.0, layout, angles);
            for (const reference::RowRange range : {reference::RowRange {0, 40}, reference::RowRange {1000, 70},
                                                    reference::RowRange {kTwoTo24 - 50, 50}}) {
                const RowMatrixXf full = fillBlock(table, Block {range.row0, range.rows, 0, d});
                const RowMatrixXf part = fillBlock(table, Block {range.row0, range.rows, col0, cols});
                const RowMatrixXf expected = full.middleCols(col0, cols);
                const QString difference = reference::firstBitDifference(expected, part, range.row0, col0);
                QVERIFY2(difference.isEmpty(),
                         qPrintable(u"%1 angles %2: "_s.arg(layoutName(layout)).arg(int(angles)) + difference));
                const RowMatrixXf errorFull = fillErrorBlock(table, Block {range.row0, range.rows, 0, d});
                const RowMatrixXf errorPart = fillErrorBlock(table, Block {range.row0, range.rows, col0, cols});
                const RowMatrixXf errorExpected = errorFull.middleCols(col0, cols);
                const QString errorDifference
                    = reference::firstBitDifference(errorExpected, errorPart, range.row0, col0);
                QVERIFY2(errorDifference.isEmpty(),
                         qPrintable(u"fillError %1 angles %2: "_s.arg(layoutName(layout)).arg(int(angles))
                                    + errorDifference));
            }
        }
}

void TestPositionalTable::blockStartDoesNotMatter_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<Angles>("angles");
    QTest::addColumn<std::int64_t>("origin");
    for (const std::int64_t origin : {std::int64_t(0), std::int64_t(1) << 20, kTwoTo24 - 3000}) {
        QTest::addRow("d=64 interleaved exact from %ld", long(origin))
            << std::int64_t(64) << Layout::Interleaved << Angles::Exact << origin;
        QTest::addRow("d=7 split exact from %ld", long(origin))
            << std::int64_t(7) << Layout::Split << Angles::Exact << origin;
        QTest::addRow("d=7 interleaved float32 from %ld", long(origin))
            << std::int64_t(7) << Layout::Interleaved << Angles::Float32 << origin;
    }
}

// A block starting at any row equals the same rows of a block starting at `origin` (0, or
// far out), bit for bit: starts on and off the anchor (1024) and hop (32) rows, and every
// single row of [1000, 1100) computed alone.
void TestPositionalTable::blockStartDoesNotMatter()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Angles, angles);
    QFETCH(std::int64_t, origin);
    const PositionalTable table(d, 10000.0, layout, angles);
    const std::int64_t length = 3000;
    const RowMatrixXf whole = fillBlock(table, Block {origin, length, 0, d});
    for (const std::int64_t offset : {1, 5, 31, 32, 33, 100, 999, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 2900}) {
        const std::int64_t rows = std::min<std::int64_t>(77, length - offset);
        const RowMatrixXf part = fillBlock(table, Block {origin + offset, rows, 0, d});
        const RowMatrixXf expected = whole.middleRows(offset, rows);
        const QString difference = reference::firstBitDifference(expected, part, origin + offset);
        QVERIFY2(difference.isEmpty(), qPrintable(u"start %1: "_s.arg(origin + offset) + difference));
    }
    for (std::int64_t offset = 1000; offset < 1100; ++offset) {
        const RowMatrixXf row = fillBlock(table, Block {origin + offset, 1, 0, d});
        const RowMatrixXf expected = whole.middleRows(offset, 1);
        const QString difference = reference::firstBitDifference(expected, row, origin + offset);
        QVERIFY2(difference.isEmpty(), qPrintable(u"single row: "_s + difference));
    }
}

void TestPositionalTable::float32AnglesMatchReference_data()
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
void TestPositionalTable::float32AnglesMatchReference()
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
void TestPositionalTable::float32ErrorGrowsWithPosition()
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

void TestPositionalTable::fillErrorIsFloat32MinusExact_data()
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
void TestPositionalTable::fillErrorIsFloat32MinusExact()
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

void TestPositionalTable::squaredNormIsHalfD_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    for (const std::int64_t d : {1, 2, 7, 64, 511, 512, 4096}) {
        QTest::addRow("d=%ld interleaved", long(d)) << d << Layout::Interleaved;
        QTest::addRow("d=%ld split", long(d)) << d << Layout::Split;
    }
}

// ||PE_p||^2 = d/2 for even d; for odd d the lone last sine adds sin^2(p w_{h-1}) to (d-1)/2.
void TestPositionalTable::squaredNormIsHalfD()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    const PositionalTable table(d, 10000.0, layout, Angles::Exact);
    for (const reference::RowRange range : reference::scatteredRows()) {
        const RowMatrixXf got = fillBlock(table, Block {range.row0, range.rows, 0, d});
        for (std::int64_t r = 0; r < range.rows; ++r) {
            const std::int64_t p = range.row0 + r;
            double expected = double(d / 2);
            if (d % 2 == 1) {
                const double s = std::sin(double(p) * reference::omega((d + 1) / 2 - 1, d, 10000.0));
                expected += s * s;
            }
            const double norm2 = got.row(r).cast<double>().squaredNorm();
            QVERIFY2(std::abs(norm2 - expected) <= 1e-5 * std::max(1.0, expected),
                     qPrintable(u"p = %1: ||PE_p||^2 = %2, expected %3"_s.arg(p).arg(reference::num(norm2),
                                                                                     reference::num(expected))));
        }
    }
}

void TestPositionalTable::pairsLieOnUnitCircle_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<Angles>("angles");
    for (const std::int64_t d : {2, 7, 64, 511, 4096})
        for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
            QTest::addRow("d=%ld %s exact", long(d), qPrintable(layoutName(layout))) << d << layout << Angles::Exact;
            QTest::addRow("d=%ld %s float32", long(d), qPrintable(layoutName(layout)))
                << d << layout << Angles::Float32;
        }
}

// sin^2 + cos^2 = 1 for every pair that has both columns.
void TestPositionalTable::pairsLieOnUnitCircle()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Angles, angles);
    const PositionalTable table(d, 10000.0, layout, angles);
    const std::int64_t h = (d + 1) / 2;
    const auto sinColumn = [&](std::int64_t i) { return layout == Layout::Interleaved ? 2 * i : i; };
    const auto cosColumn = [&](std::int64_t i) { return layout == Layout::Interleaved ? 2 * i + 1 : h + i; };
    for (const reference::RowRange range : reference::scatteredRows(3u, 8)) {
        const RowMatrixXf got = fillBlock(table, Block {range.row0, range.rows, 0, d});
        for (std::int64_t r = 0; r < range.rows; ++r)
            for (std::int64_t i = 0; i < d / 2; ++i) {
                const double s = got(r, sinColumn(i));
                const double c = got(r, cosColumn(i));
                QVERIFY2(std::abs(s * s + c * c - 1.0) <= 1e-6,
                         qPrintable(u"p = %1, pair %2: sin^2 + cos^2 = %3"_s.arg(range.row0 + r)
                                        .arg(i)
                                        .arg(reference::num(s * s + c * c))));
            }
    }
}

void TestPositionalTable::writesOnlyItsBlock_data()
{
    QTest::addColumn<Angles>("angles");
    QTest::newRow("exact") << Angles::Exact;
    QTest::newRow("float32") << Angles::Float32;
}

// The destination may be a window of a bigger matrix: nothing outside it is touched.
void TestPositionalTable::writesOnlyItsBlock()
{
    QFETCH(Angles, angles);
    const std::int64_t d = 37;
    const PositionalTable table(d, 10000.0, Layout::Split, angles);
    const Block block {1020, 50, 5, 23};
    for (const bool error : {false, true}) {
        RowMatrixXf big(60, 41);
        big.setConstant(-7.0f);
        auto window = big.block(3, 1, block.rows, block.cols);
        if (error)
            fillErrorInto(table, block, window);
        else
            table.fill(block, window);
        const RowMatrixXf alone = error ? fillErrorBlock(table, block) : fillBlock(table, block);
        QVERIFY(reference::firstBitDifference(alone, big.block(3, 1, block.rows, block.cols)).isEmpty());
        for (Eigen::Index r = 0; r < big.rows(); ++r)
            for (Eigen::Index c = 0; c < big.cols(); ++c) {
                const bool inside = r >= 3 && r < 3 + block.rows && c >= 1 && c < 1 + block.cols;
                if (!inside)
                    QVERIFY2(big(r, c) == -7.0f,
                             qPrintable(u"cell (%1, %2) outside the block was written"_s.arg(r).arg(c)));
            }
    }
}

QTEST_GUILESS_MAIN(TestPositionalTable)
#include "tst_positionaltable.moc"
