// PositionalTable: closed forms (sin^2 + cos^2 = 1, ||PE_p||^2 = d/2) and exact relations between
// blocks (column permutation, sub-blocks, any start), and a block written and nothing else.

#include "FilledBlocks.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/PositionalTable.h"

#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_positionaltableidentities {
using namespace Qt::StringLiterals;
using posenc::Angles;
using posenc::Block;
using posenc::Layout;
using posenc::PositionalTable;
using posenc::RowMatrixXf;
using reference::kTwoTo24;
using testing::fillBlock;
using testing::fillErrorBlock;
using testing::fillErrorInto;
using testing::layoutName;

class TestPositionalTableIdentities : public QObject
{
    Q_OBJECT

private slots:
    void splitIsColumnPermutationOfInterleaved_data();
    void splitIsColumnPermutationOfInterleaved();
    void partialColumnBlocksEqualFullWidth_data();
    void partialColumnBlocksEqualFullWidth();
    void blockStartDoesNotMatter_data();
    void blockStartDoesNotMatter();
    void squaredNormIsHalfD_data();
    void squaredNormIsHalfD();
    void pairsLieOnUnitCircle_data();
    void pairsLieOnUnitCircle();
    void writesOnlyItsBlock_data();
    void writesOnlyItsBlock();
};

void TestPositionalTableIdentities::splitIsColumnPermutationOfInterleaved_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Angles>("angles");
    for (const std::int64_t d : {1, 2, 3, 7, 64, 511, 512}) {
        QTest::addRow("d=%ld exact", long(d)) << d << Angles::Exact;
        QTest::addRow("d=%ld float32", long(d)) << d << Angles::Float32;
    }
}

// split[:, i] == interleaved[:, 2i] and split[:, h + i] == interleaved[:, 2i + 1], bit for bit.
void TestPositionalTableIdentities::splitIsColumnPermutationOfInterleaved()
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

void TestPositionalTableIdentities::partialColumnBlocksEqualFullWidth_data()
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
void TestPositionalTableIdentities::partialColumnBlocksEqualFullWidth()
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

void TestPositionalTableIdentities::blockStartDoesNotMatter_data()
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
void TestPositionalTableIdentities::blockStartDoesNotMatter()
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

void TestPositionalTableIdentities::squaredNormIsHalfD_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    for (const std::int64_t d : {1, 2, 7, 64, 511, 512, 4096}) {
        QTest::addRow("d=%ld interleaved", long(d)) << d << Layout::Interleaved;
        QTest::addRow("d=%ld split", long(d)) << d << Layout::Split;
    }
}

// ||PE_p||^2 = d/2 for even d; for odd d the lone last sine adds sin^2(p w_{h-1}) to (d-1)/2.
void TestPositionalTableIdentities::squaredNormIsHalfD()
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

void TestPositionalTableIdentities::pairsLieOnUnitCircle_data()
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
void TestPositionalTableIdentities::pairsLieOnUnitCircle()
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

void TestPositionalTableIdentities::writesOnlyItsBlock_data()
{
    QTest::addColumn<Angles>("angles");
    QTest::newRow("exact") << Angles::Exact;
    QTest::newRow("float32") << Angles::Float32;
}

// The destination may be a window of a bigger matrix: nothing outside it is touched.
void TestPositionalTableIdentities::writesOnlyItsBlock()
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

POSENC_TEST_GUILESS_MAIN(TestPositionalTableIdentities)
} // namespace tst_positionaltableidentities
#include "tst_positionaltableidentities.moc"
