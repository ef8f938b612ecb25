// Dropout's raw keep bits: the Bernoulli(1 - p) mask checked by statistics (the dropped fraction,
// columns, rows and pairs of cells), the same bits whatever the threads, blocks and column windows,
// another seed another mask, and inverted-dropout arithmetic in mode sum checked bit for bit
// (survivors X / float(1 - p), dropped cells 0), through DropoutMask and the Engine.

#include "DropoutTables.h"
#include "EngineTable.h"
#include "Reference.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "core/DropoutMask.h"
#include "core/Engine.h"

#include <QTest>

#include <cmath>
#include <vector>

namespace tst_dropoutmaskbits {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::cellText;
using testing::dropoutParams;
using testing::wholeTable;

class TestDropoutMaskBits : public QObject
{
    Q_OBJECT

private slots:
    void keepProbability_data();
    void keepProbability();
    void dropFraction_data();
    void dropFraction();
    void maskIsRawBitsInSumMode();
    void survivorsAreInputOverKeep_data();
    void survivorsAreInputOverKeep();
    void maskIndependentOfThreadsAndBlocks_data();
    void maskIndependentOfThreadsAndBlocks();
    void seedChangesMask();
};

void TestDropoutMaskBits::keepProbability_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<bool>("training");
    for (const double p : {0.0, 0.1, 1.0 / 3.0, 0.5, 0.7, 0.9, 1.0}) {
        QTest::addRow("p=%g training", p) << p << true;
        QTest::addRow("p=%g eval", p) << p << false;
    }
}

void TestDropoutMaskBits::keepProbability()
{
    QFETCH(double, p);
    QFETCH(bool, training);
    Params params;
    params.dropout = p;
    params.training = training;
    const DropoutMask mask(params);
    QVERIFY(mask.probability() == p);
    QVERIFY(reference::sameBits(mask.keepProbability(), float(1.0 - p)));
    QCOMPARE(mask.isActive(), training && p > 0.0);
}

void TestDropoutMaskBits::dropFraction_data()
{
    QTest::addColumn<double>("p");
    QTest::newRow("p=0.1") << 0.1;
    QTest::newRow("p=0.5") << 0.5;
}

// On 2048 x 1024 (a quarter of the rows under ThreadSanitizer): the dropped fraction within 4 sigma of p; every column
// and every row within 6 sigma; pairs of cells (columns 1 to 64 apart, and neighbouring rows) both dropped with
// probability p^2.
void TestDropoutMaskBits::dropFraction()
{
    QFETCH(double, p);
    const std::int64_t rows = testing::sized(2048), cols = 1024;
    const Engine engine(dropoutParams(p, rows, cols));
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    QVERIFY((mask.array() == 0.0f || mask.array() == 1.0f).all());
    const Eigen::ArrayXXd dropped = 1.0 - mask.cast<double>().array();
    const double n = double(rows * cols);
    const double fraction = dropped.mean();
    const double sigma = std::sqrt(p * (1.0 - p) / n);
    QVERIFY2(std::abs(fraction - p) < 4.0 * sigma,
             qPrintable(u"dropped fraction %1, expected %2 +- %3"_s.arg(fraction).arg(p).arg(4.0 * sigma)));

    const double columnSigma = std::sqrt(p * (1.0 - p) / double(rows));
    for (std::int64_t j = 0; j < cols; ++j) {
        const double f = dropped.col(j).mean();
        QVERIFY2(std::abs(f - p) < 6.0 * columnSigma, qPrintable(u"column %1 dropped fraction %2"_s.arg(j).arg(f)));
    }
    const double rowSigma = std::sqrt(p * (1.0 - p) / double(cols));
    for (std::int64_t r = 0; r < rows; ++r) {
        const double f = dropped.row(r).mean();
        QVERIFY2(std::abs(f - p) < 6.0 * rowSigma, qPrintable(u"row %1 dropped fraction %2"_s.arg(r).arg(f)));
    }

    // Disjoint pairs, so the counts are binomial.
    const double p2 = p * p;
    const auto checkPairs = [&](const QString &what, double both, double pairs) {
        const double s = std::sqrt(p2 * (1.0 - p2) / pairs);
        QVERIFY2(std::abs(both - p2) < 4.5 * s,
                 qPrintable(u"%1: both dropped %2, expected %3 +- %4"_s.arg(what).arg(both).arg(p2).arg(4.5 * s)));
    };
    // Columns j and j + shift for j with (j / shift) even: disjoint pairs, inside a group of
    // random words and across groups.
    for (const std::int64_t shift : {1, 2, 3, 4, 8, 16, 32, 64}) {
        double both = 0.0, pairs = 0.0;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t j = 0; j + shift < cols; ++j)
                if ((j / shift) % 2 == 0) {
                    both += dropped(r, j) * dropped(r, j + shift);
                    pairs += 1.0;
                }
        checkPairs(u"columns j, j + %1"_s.arg(shift), both / pairs, pairs);
    }
    {
        double both = 0.0, pairs = 0.0;
        for (std::int64_t r = 0; r + 1 < rows; r += 2)
            for (std::int64_t j = 0; j < cols; ++j) {
                both += dropped(r, j) * dropped(r + 1, j);
                pairs += 1.0;
            }
        checkPairs(u"rows p, p + 1"_s, both / pairs, pairs);
    }
}

// In sum mode, training, the Mask quantity is DropoutMask::kept() for every cell, and
// fillRow() gives the same bits for odd column windows.
void TestDropoutMaskBits::maskIsRawBitsInSumMode()
{
    const Engine engine(dropoutParams(0.3, 200, 37));
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    const DropoutMask &bits = engine.dropoutMask();
    for (std::int64_t r = 0; r < 200; ++r)
        for (std::int64_t c = 0; c < 37; ++c)
            QVERIFY2(mask(r, c) == (bits.kept(r, c) ? 1.0f : 0.0f), qPrintable(u"(%1, %2)"_s.arg(r).arg(c)));
    std::vector<float> row(37);
    for (const std::int64_t r : {0, 1, 99, 199})
        for (const auto &[col0, cols] : {std::pair<std::int64_t, std::int64_t> {0, 37}, {1, 1}, {3, 9}, {5, 32}}) {
            bits.fillRow(r, col0, cols, row.data());
            for (std::int64_t c = 0; c < cols; ++c)
                QVERIFY2(row[std::size_t(c)] == mask(r, col0 + c),
                         qPrintable(u"fillRow(%1, %2, %3) column %4"_s.arg(r).arg(col0).arg(cols).arg(col0 + c)));
        }
}

void TestDropoutMaskBits::survivorsAreInputOverKeep_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<Compose>("compose");
    QTest::addColumn<Angles>("angles");
    QTest::addColumn<std::int64_t>("cols");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<bool>("loaded");
    const auto row = [](const char *name, double p, Compose compose, Angles angles, std::int64_t cols,
                        Layout layout = Layout::Interleaved, bool loaded = false) {
        QTest::newRow(name) << p << compose << angles << cols << layout << loaded;
    };
    row("p=0.1 sum exact", 0.1, Compose::Sum, Angles::Exact, 97);
    row("p=0.5 sum exact", 0.5, Compose::Sum, Angles::Exact, 97);
    row("p=1/3 sum float32", 1.0 / 3.0, Compose::Sum, Angles::Float32, 97);
    row("p=0.7 concat exact", 0.7, Compose::Concat, Angles::Exact, 97);
    // Rows wider than the PE's tiles, with embeddings read from a matrix as a model holds them.
    row("p=0.1 sum exact, 777 columns, loaded", 0.1, Compose::Sum, Angles::Exact, 777, Layout::Interleaved, true);
    row("p=0.5 split, 601 columns, loaded", 0.5, Compose::Sum, Angles::Exact, 601, Layout::Split, true);
}

// Mode sum: Y = kept ? X / keep : 0 with keep = float(1.0 - p), float division, bit for bit.
void TestDropoutMaskBits::survivorsAreInputOverKeep()
{
    QFETCH(double, p);
    QFETCH(Compose, compose);
    QFETCH(Angles, angles);
    QFETCH(std::int64_t, cols);
    QFETCH(Layout, layout);
    QFETCH(bool, loaded);
    Params params = dropoutParams(p, 512, cols);
    params.compose = compose;
    params.sinusoidal.angles = angles;
    params.sinusoidal.layout = layout;
    if (loaded)
        params.embeddings = Embeddings::materialize(Embeddings::fromParams(params), 512, 2);
    QVERIFY(params.isValid());
    const Engine engine(params);
    const float keep = float(1.0 - p);
    const RowMatrixXf x = wholeTable(engine, Quantity::Input);
    const RowMatrixXf y = wholeTable(engine, Quantity::Output);
    const RowMatrixXf mask = wholeTable(engine, Quantity::Mask);
    QVERIFY(y.allFinite());
    std::int64_t dropped = 0;
    for (std::int64_t r = 0; r < 512; ++r)
        for (std::int64_t c = 0; c < cols; ++c) {
            const bool kept = engine.dropoutMask().kept(r, c);
            QVERIFY2(mask(r, c) == (kept ? 1.0f : 0.0f), qPrintable(u"mask (%1, %2)"_s.arg(r).arg(c)));
            const float expected = kept ? x(r, c) / keep : 0.0f;
            QVERIFY2(reference::sameBits(y(r, c), expected) || (expected == 0.0f && y(r, c) == 0.0f),
                     qPrintable(cellText(r, c, u"Y"_s, expected, y(r, c))));
            dropped += kept ? 0 : 1;
        }
    QVERIFY(dropped > 0);
}

void TestDropoutMaskBits::maskIndependentOfThreadsAndBlocks_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::newRow("mask") << Quantity::Mask;
    QTest::newRow("output") << Quantity::Output;
}

// The same mask (and output) with 1, 2 and the machine's threads, and for blocks computed alone.
void TestDropoutMaskBits::maskIndependentOfThreadsAndBlocks()
{
    QFETCH(Quantity, quantity);
    const Engine engine(dropoutParams(0.3, 1000, 100));
    const RowMatrixXf serial = wholeTable(engine, quantity, 1);
    QCOMPARE(reference::firstBitDifference(serial, wholeTable(engine, quantity, 2)), QString());
    QCOMPARE(reference::firstBitDifference(serial, wholeTable(engine, quantity, 0)), QString());
    for (const Block block : {Block {0, 1, 0, 1}, Block {1, 7, 3, 5}, Block {511, 100, 1, 98}, Block {999, 1, 99, 1},
                              Block {100, 333, 4, 4}, Block {37, 63, 63, 37}}) {
        RowMatrixXf alone(block.rows, block.cols);
        engine.computeBlock(quantity, block, alone);
        const RowMatrixXf expected = serial.block(block.row0, block.col0, block.rows, block.cols);
        const QString difference = reference::firstBitDifference(expected, alone, block.row0, block.col0);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }
}

// Another seed gives another mask: about p^2 + (1 - p)^2 of the cells agree at p = 0.5.
void TestDropoutMaskBits::seedChangesMask()
{
    Params a = dropoutParams(0.5, 256, 256);
    Params b = a;
    b.seed = a.seed + 1;
    const RowMatrixXf ma = wholeTable(Engine(a), Quantity::Mask);
    const RowMatrixXf mb = wholeTable(Engine(b), Quantity::Mask);
    const double agree = (ma.array() == mb.array()).cast<double>().mean();
    QVERIFY2(std::abs(agree - 0.5) < 4.0 * 0.5 / 256.0, qPrintable(u"masks agree on %1 of cells"_s.arg(agree)));
}

POSENC_TEST_GUILESS_MAIN(TestDropoutMaskBits)
} // namespace tst_dropoutmaskbits
#include "tst_dropoutmaskbits.moc"
