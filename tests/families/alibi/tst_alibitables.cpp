// ALiBi's tables in the engine (alibi-slopes, alibi-bias) against float64 references written here
// from the reference code: ofirpress/attention_with_linear_biases' get_slopes (for any head
// count, the interleave included) and MPT's gen_slopes, which must agree; every head of 12 in the
// bias matrix, causal and symmetric equal at and below the diagonal, -inf strictly above in
// causal; any block alone equal to the whole table, whatever the threads.
#include "core/EngineTable.h"
#include "support/AlibiReference.h"
#include "support/TestMain.h"

#include "core/Engine.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace tst_alibitables {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params alibi(std::int64_t heads, std::int64_t head, AlibiMask mask, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Alibi;
    p.alibi.heads = heads;
    p.alibi.head = head;
    p.alibi.mask = mask;
    p.maxLen = maxLen;
    p.dModel = 8;
    return p;
}

bool bitEqual(const RowMatrixXf &a, const RowMatrixXf &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
        && std::memcmp(a.data(), b.data(), sizeof(float) * std::size_t(a.size())) == 0;
}

} // namespace

class TestAlibiTables : public QObject
{
    Q_OBJECT

private slots:
    void slopesAreGetSlopes_data();
    void slopesAreGetSlopes();
    void twelveHeadsEndWithTheInterleave();
    void everyHeadOfTwelveInTheBias();
    void causalAndSymmetricAgreeAtAndBelowTheDiagonal();
    void blocksAloneAreTheWholeTable();
    void aWholeTableAtLength65536IsOverTheBudget();
    void tablesNeedTheAlibiEncoding();
};

void TestAlibiTables::slopesAreGetSlopes_data()
{
    QTest::addColumn<qint64>("heads");
    for (const qint64 h : {1, 2, 8, 12, 16, 20, 32, 112, 4096})
        QTest::addRow("%lld heads", h) << h;
}

void TestAlibiTables::slopesAreGetSlopes()
{
    QFETCH(qint64, heads);
    const Params p = alibi(heads, 1, AlibiMask::Causal, 16);
    QVERIFY(p.isValid());
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::AlibiSlopes), (Shape {heads, 4}));
    const RowMatrixXf table = testing::computeTable(engine, Quantity::AlibiSlopes, {0, heads, 0, 4});
    const std::vector<double> reference = alibiref::slopes(heads);
    const std::vector<double> mpt = alibiref::genSlopes(heads);
    const auto closest = std::int64_t(std::pow(2.0, std::floor(std::log2(double(heads)))));
    for (std::int64_t k = 1; k <= heads; ++k) {
        const double m = reference[std::size_t(k - 1)];
        // MPT's formula gives the same slopes, to double rounding: get_slopes raises a rounded ratio
        // to the power k, whose relative error grows as k times the ratio's (2^-53).
        const double tolerance = 2.5e-16 * double(k + 2);
        QVERIFY2(std::abs(mpt[std::size_t(k - 1)] / m - 1.0) < tolerance, qPrintable(u"head %1"_s.arg(k)));
        const auto row = Eigen::Index(k - 1);
        QCOMPARE(table(row, 0), float(k));
        QCOMPARE(table(row, 1), float(m));
        // log2 m_k: -8k/H for the geometric heads, -4(2i + 1)/closest for interleaved head closest + 1 + i.
        const double log2m = k <= closest ? -8.0 * double(k) / double(closest)
                                          : -4.0 * double(2 * (k - closest - 1) + 1) / double(closest);
        QVERIFY2(std::abs(double(table(row, 2)) - log2m) <= 1e-6 * std::abs(log2m),
                 qPrintable(u"head %1: %2, expected %3"_s.arg(k).arg(table(row, 2)).arg(log2m)));
        QCOMPARE(table(row, 3), k > closest ? 1.0f : 0.0f);
    }
}

void TestAlibiTables::twelveHeadsEndWithTheInterleave()
{
    // The numbers: 12 heads end 0.707, 0.354, 0.177, 0.088, and begin 2^-1 .. 2^-8.
    const Engine engine(alibi(12, 1, AlibiMask::Causal, 4));
    const RowMatrixXf table = testing::computeTable(engine, Quantity::AlibiSlopes, {0, 12, 1, 1});
    for (int k = 1; k <= 8; ++k)
        QCOMPARE(table(k - 1, 0), std::ldexp(1.0f, -k));
    const double tail[] = {0.707, 0.354, 0.177, 0.088};
    for (int i = 0; i < 4; ++i)
        QVERIFY2(std::abs(table(8 + i, 0) - tail[i]) < 5e-4, qPrintable(QString::number(table(8 + i, 0))));
}

void TestAlibiTables::everyHeadOfTwelveInTheBias()
{
    constexpr std::int64_t L = 40;
    const std::vector<double> slopes = alibiref::slopes(12);
    for (const AlibiMask mask : {AlibiMask::Causal, AlibiMask::Symmetric}) {
        for (std::int64_t head = 1; head <= 12; ++head) {
            const Engine engine(alibi(12, head, mask, L));
            QCOMPARE(engine.shape(Quantity::AlibiBias), (Shape {L, L}));
            const RowMatrixXf bias = testing::computeTable(engine, Quantity::AlibiBias, {0, L, 0, L});
            const double m = slopes[std::size_t(head - 1)];
            for (std::int64_t i = 0; i < L; ++i)
                for (std::int64_t j = 0; j < L; ++j) {
                    const float got = bias(i, j);
                    if (mask == AlibiMask::Causal && j > i) {
                        QVERIFY2(std::isinf(got) && got < 0.0f, qPrintable(u"(%1, %2)"_s.arg(i).arg(j)));
                        continue;
                    }
                    const double expected = -m * double(mask == AlibiMask::Causal ? i - j : std::abs(i - j));
                    QVERIFY2(got == float(expected),
                             qPrintable(u"head %1 (%2, %3): %4, expected %5"_s.arg(head).arg(i).arg(j).arg(got).arg(
                                 expected)));
                }
            // The diagonal is 0, not -0 (a CSV file reads "0").
            for (std::int64_t i = 0; i < L; ++i)
                QVERIFY(bias(i, i) == 0.0f && !std::signbit(bias(i, i)));
        }
    }
}

void TestAlibiTables::causalAndSymmetricAgreeAtAndBelowTheDiagonal()
{
    constexpr std::int64_t L = 257;
    for (const std::int64_t heads : {8, 12, 20}) {
        const RowMatrixXf causal = testing::computeTable(Engine(alibi(heads, heads, AlibiMask::Causal, L)),
                                                         Quantity::AlibiBias, {0, L, 0, L});
        const RowMatrixXf symmetric = testing::computeTable(Engine(alibi(heads, heads, AlibiMask::Symmetric, L)),
                                                            Quantity::AlibiBias, {0, L, 0, L});
        for (std::int64_t i = 0; i < L; ++i)
            for (std::int64_t j = 0; j < L; ++j) {
                if (j <= i)
                    QCOMPARE(causal(i, j), symmetric(i, j));
                else
                    QCOMPARE(causal(i, j), -std::numeric_limits<float>::infinity());
                // Symmetric: the bias of (i, j) is that of (j, i).
                QCOMPARE(symmetric(i, j), symmetric(j, i));
            }
    }
}

void TestAlibiTables::blocksAloneAreTheWholeTable()
{
    constexpr std::int64_t L = 3000;
    for (const AlibiMask mask : {AlibiMask::Causal, AlibiMask::Symmetric}) {
        const Engine engine(alibi(20, 17, mask, L));
        const RowMatrixXf whole = testing::computeTable(engine, Quantity::AlibiBias, {0, L, 0, L});
        QVERIFY(bitEqual(whole, testing::computeTable(engine, Quantity::AlibiBias, {0, L, 0, L}, 1)));
        for (const Block &block : {Block {0, 1, 0, L}, Block {2999, 1, 0, 3000}, Block {1000, 37, 990, 41},
                                   Block {5, 700, 2100, 900}, Block {2500, 500, 0, 1}}) {
            RowMatrixXf alone(block.rows, block.cols);
            engine.computeBlock(Quantity::AlibiBias, block, alone);
            QVERIFY(bitEqual(alone, whole.block(block.row0, block.col0, block.rows, block.cols)));
        }
    }
}

void TestAlibiTables::aWholeTableAtLength65536IsOverTheBudget()
{
    // 2^32 cells, 16 GiB in float32: refused with the cells and GiB; a block of it is computed.
    constexpr std::int64_t L = 65536;
    const Engine engine(alibi(16, 3, AlibiMask::Causal, L));
    const auto refused = engine.check(Quantity::AlibiBias, {0, L, 0, L});
    QVERIFY(refused.has_value());
    QVERIFY2(refused->contains(u"GiB"_s), qPrintable(*refused));
    const Block corner {L - 5, 5, L - 300, 300};
    QVERIFY(!engine.check(Quantity::AlibiBias, corner));
    const RowMatrixXf block = testing::computeTable(engine, Quantity::AlibiBias, corner);
    const double m = alibiref::slopes(16)[2];
    for (std::int64_t r = 0; r < corner.rows; ++r)
        for (std::int64_t c = 0; c < corner.cols; ++c) {
            const std::int64_t i = corner.row0 + r;
            const std::int64_t j = corner.col0 + c;
            const float expected = j > i ? -std::numeric_limits<float>::infinity() : float(-m * double(i - j));
            QCOMPARE(block(r, c), expected);
        }
}

void TestAlibiTables::tablesNeedTheAlibiEncoding()
{
    Params p;
    QVERIFY(Quantities::spec(Quantity::AlibiSlopes).missing(p).has_value());
    QVERIFY(Quantities::spec(Quantity::AlibiBias).missing(p).has_value());
    QVERIFY(!Quantities::available(p).contains(Quantity::AlibiBias));
    p.encoding = Encoding::Alibi;
    QVERIFY(Quantities::available(p).contains(Quantity::AlibiBias));
    QVERIFY(Quantities::available(p).contains(Quantity::AlibiSlopes));
    QVERIFY(!Quantities::available(p).contains(Quantity::T5Bucket));
    // The head picks the bias's slice: one table per head.
    QCOMPARE(Quantities::spec(Quantity::AlibiBias).chooser, u"head"_s);
}

POSENC_TEST_GUILESS_MAIN(TestAlibiTables)
} // namespace tst_alibitables
#include "tst_alibitables.moc"
