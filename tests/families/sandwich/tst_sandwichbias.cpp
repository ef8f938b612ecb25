// Sandwich's tables in the engine (sandwich-bias, sandwich-distance) against NVIDIA NeMo's own
// output (tests/data/sandwich/nemo_sandwich.csv, written by tests/data/make_sandwich_fixture.py with
// torch 1.13 on CPU) and against float64 formulas written from the reference code
// (support/SandwichReference.h): the odd head dim's extra term, the causal table's distance 0 after
// the query, every head's scale 8h/H; any block alone equal to the whole table; the rows' ranges.
#include "core/EngineTable.h"
#include "support/SandwichReference.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/sandwich/SandwichBias.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>

namespace tst_sandwichbias {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params sandwich(std::int64_t heads, std::int64_t head, std::int64_t headDim, SandwichMask mask, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Sandwich;
    p.sandwich = {heads, head, headDim, mask};
    p.maxLen = maxLen;
    p.dModel = 8;
    return p;
}

// posenc rounds the float64 value once: within half a float32 unit of the reference's, and the
// reference's own double rounding.
double roundedOnce(double reference, std::int64_t heads, std::int64_t head, std::int64_t d)
{
    return std::ldexp(std::fabs(reference), -24) * 1.0001 + 1e-13 * double(d) * double(heads) / double(head);
}

} // namespace

class TestSandwichBias : public QObject
{
    Q_OBJECT

private slots:
    void biasIsNemosOutput();
    void biasIsTheFloat64Formula_data();
    void biasIsTheFloat64Formula();
    void oddHeadDimTakesOneTermMore();
    void distanceHoldsEveryHead();
    void blocksAloneAreTheWholeTable();
    void eachDistanceIsSummedOnce();
    void rowsRefuseWithTheirRanges_data();
    void rowsRefuseWithTheirRanges();
    void tablesNeedTheSandwichEncoding();
};

void TestSandwichBias::biasIsNemosOutput()
{
    QFile file(QStringLiteral(POSENC_NEMO_SANDWICH));
    QVERIFY2(file.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(file.fileName()));
    int rows = 0, oddRows = 0, causalRows = 0, farRows = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QList<QByteArray> f = line.split(',');
        const std::int64_t heads = f[0].toLongLong(), d = f[1].toLongLong(), length = f[2].toLongLong();
        const bool bidirectional = f[3] == "1";
        const std::int64_t head = f[4].toLongLong(), query = f[5].toLongLong();
        QCOMPARE(f.size(), qsizetype(6 + length));
        const Params p
            = sandwich(heads, head, d, bidirectional ? SandwichMask::Bidirectional : SandwichMask::Causal, length);
        QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
        const Engine engine(p);
        const RowMatrixXf row = testing::computeTable(engine, Quantity::SandwichBias, {query, 1, 0, length});
        for (std::int64_t j = 0; j < length; ++j) {
            const double nemo = f[6 + j].toDouble();
            const std::int64_t r = sandwichref::distance(query, j, bidirectional);
            const double allowed = sandwichref::float32Allowance(heads, head, d, r) + std::ldexp(std::fabs(nemo), -22);
            const double got = double(row(0, j));
            QVERIFY2(std::fabs(got - nemo) <= allowed,
                     qPrintable(u"H %1 K %2 d %3 L %4 %5, (%6, %7): posenc %8, NeMo %9, allowed %10"_s.arg(heads)
                                    .arg(head)
                                    .arg(d)
                                    .arg(length)
                                    .arg(bidirectional ? u"bidirectional"_s : u"causal"_s)
                                    .arg(query)
                                    .arg(j)
                                    .arg(got, 0, 'g', 9)
                                    .arg(nemo, 0, 'g', 9)
                                    .arg(allowed, 0, 'g', 3)));
            // Where the distance is 0 NeMo's float32 is exact: sum(cos 0) = terms, minus d/2, over
            // the scale rounded once.
            if (r == 0)
                QCOMPARE(float(got), float(nemo));
        }
        ++rows;
        oddRows += d % 2;
        causalRows += bidirectional ? 0 : 1;
        farRows += length > 512 ? 1 : 0; // NeMo builds its distances again past its cached 512
    }
    QVERIFY(rows > 400);
    QVERIFY(oddRows > 0 && causalRows > 0 && farRows > 0);
}

void TestSandwichBias::biasIsTheFloat64Formula_data()
{
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<qint64>("maxLen");
    QTest::newRow("NeMo GPT's 12 x 64, causal") << qint64(12) << qint64(64) << false << qint64(130);
    QTest::newRow("12 x 64 bidirectional") << qint64(12) << qint64(64) << true << qint64(130);
    QTest::newRow("odd d 9") << qint64(5) << qint64(9) << false << qint64(70);
    QTest::newRow("d 1") << qint64(3) << qint64(1) << true << qint64(40);
    QTest::newRow("d 256, 1 head") << qint64(1) << qint64(256) << true << qint64(300);
}

void TestSandwichBias::biasIsTheFloat64Formula()
{
    QFETCH(qint64, heads);
    QFETCH(qint64, headDim);
    QFETCH(bool, bidirectional);
    QFETCH(qint64, maxLen);
    for (std::int64_t head = 1; head <= heads; head += std::max<std::int64_t>(heads / 3, 1)) {
        const Params p = sandwich(heads, head, headDim,
                                  bidirectional ? SandwichMask::Bidirectional : SandwichMask::Causal, maxLen);
        const Engine engine(p);
        const RowMatrixXf table = testing::computeTable(engine, Quantity::SandwichBias, {0, maxLen, 0, maxLen});
        for (std::int64_t i = 0; i < maxLen; ++i)
            for (std::int64_t j = 0; j < maxLen; ++j) {
                const double expected = sandwichref::bias(heads, head, headDim, i, j, bidirectional);
                QVERIFY2(std::fabs(double(table(i, j)) - expected) <= roundedOnce(expected, heads, head, headDim),
                         qPrintable(u"head %1, (%2, %3): %4 against %5"_s.arg(head)
                                        .arg(i)
                                        .arg(j)
                                        .arg(table(i, j))
                                        .arg(expected, 0, 'g', 17)));
            }
    }
}

void TestSandwichBias::oddHeadDimTakesOneTermMore()
{
    // torch.arange(1, 5/2 + 1) is 1, 2, 3: three terms, so distance 0 holds (3 - 5/2) / (8K/H), and a
    // causal table holds it after every query.
    const Params p = sandwich(8, 2, 5, SandwichMask::Causal, 12);
    const Engine engine(p);
    const RowMatrixXf table = testing::computeTable(engine, Quantity::SandwichBias, {0, 12, 0, 12});
    const float atZero = float(0.5 / (2.0 * 8.0 / 8.0));
    QCOMPARE(sandwichref::invFreq(5).size(), std::size_t(3));
    for (std::int64_t i = 0; i < 12; ++i) {
        QCOMPARE(table(i, i), atZero);
        for (std::int64_t j = i + 1; j < 12; ++j)
            QCOMPARE(table(i, j), atZero);
        if (i > 0)
            QVERIFY(table(i, i - 1) < atZero);
    }
    // Even d: 0 at distance 0 and after the query.
    const Engine even(sandwich(8, 2, 6, SandwichMask::Causal, 4));
    QCOMPARE(testing::computeTable(even, Quantity::SandwichBias, {0, 1, 0, 4}), RowMatrixXf::Zero(1, 4));
}

void TestSandwichBias::distanceHoldsEveryHead()
{
    const Params p = sandwich(12, 1, 64, SandwichMask::Causal, 200);
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::SandwichDistance), (Shape {200, 12}));
    const RowMatrixXf table = testing::computeTable(engine, Quantity::SandwichDistance, {0, 200, 0, 12});
    for (std::int64_t r = 0; r < 200; ++r)
        for (std::int64_t h = 1; h <= 12; ++h) {
            const double expected = sandwichref::bias(12, h, 64, r, 0, true);
            QVERIFY2(std::fabs(double(table(r, h - 1)) - expected) <= roundedOnce(expected, 12, h, 64),
                     qPrintable(u"r %1, head %2"_s.arg(r).arg(h)));
        }
    // Head h is head 1 divided by h: the scale 8h/H.
    QVERIFY(std::fabs(double(table(100, 5)) * 6.0 - double(table(100, 0))) <= 1e-5 * std::fabs(double(table(100, 0))));
}

void TestSandwichBias::blocksAloneAreTheWholeTable()
{
    for (const SandwichMask mask : {SandwichMask::Causal, SandwichMask::Bidirectional}) {
        const Engine engine(sandwich(16, 3, 48, mask, 333));
        const RowMatrixXf whole = testing::computeTable(engine, Quantity::SandwichBias, {0, 333, 0, 333}, 2);
        RowMatrixXf block(37, 101);
        engine.computeBlock(Quantity::SandwichBias, {200, 37, 17, 101}, block);
        const RowMatrixXf part = whole.block(200, 17, 37, 101);
        QVERIFY(std::memcmp(block.data(), part.data(), sizeof(float) * std::size_t(block.size())) == 0);
        const RowMatrixXf serial = testing::computeTable(engine, Quantity::SandwichBias, {0, 333, 0, 333}, 1);
        QVERIFY(std::memcmp(serial.data(), whole.data(), sizeof(float) * std::size_t(whole.size())) == 0);
    }
}

// A head dim of 1024 sums 512 cosines a distance, and a table's row tiles share most of their
// distances: the engine sums each distance once for the table (a chunk past it at most), from any of
// its threads, not once a tile. Before, every tile summed its rows + cols - 1 offsets again: 11.6 s
// for posenc's 4096 x 4096 table at head dim 4096, minutes at 16384. A block far out sums only the
// distances it holds.
void TestSandwichBias::eachDistanceIsSummedOnce()
{
    constexpr std::int64_t length = 1024;
    for (const SandwichMask mask : {SandwichMask::Causal, SandwichMask::Bidirectional}) {
        const Engine engine(sandwich(8, 3, 1024, mask, length));
        const std::int64_t before = SandwichBias::sumsComputed();
        const RowMatrixXf table = testing::computeTable(engine, Quantity::SandwichBias, {0, length, 0, length}, 2);
        const std::int64_t summed = SandwichBias::sumsComputed() - before;
        QVERIFY2(summed > 0 && summed <= length + 256, qPrintable(QString::number(summed)));
        for (const auto &[i, j] : {std::pair<std::int64_t, std::int64_t> {0, 0}, {1000, 3}, {3, 1000}, {777, 1023}}) {
            const double expected = sandwichref::bias(8, 3, 1024, i, j, mask == SandwichMask::Bidirectional);
            QVERIFY2(std::fabs(double(table(i, j)) - expected) <= roundedOnce(expected, 8, 3, 1024),
                     qPrintable(u"row %1, column %2"_s.arg(i).arg(j)));
        }
    }
    const Engine far(sandwich(8, 3, 1024, SandwichMask::Bidirectional, 131072));
    const std::int64_t before = SandwichBias::sumsComputed();
    RowMatrixXf block(4, 8);
    far.computeBlock(Quantity::SandwichBias, {100000, 4, 100002, 8}, block);
    const std::int64_t summed = SandwichBias::sumsComputed() - before;
    QVERIFY2(summed > 0 && summed <= 2 * 256, qPrintable(QString::number(summed)));
}

void TestSandwichBias::rowsRefuseWithTheirRanges_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("allowed");
    QTest::newRow("no heads") << u"sandwich-heads"_s << u"0"_s << u"an integer in [1, 4096]"_s;
    QTest::newRow("head past H") << u"sandwich-head"_s << u"13"_s << u"an integer in [1, 12] (sandwich-heads)"_s;
    QTest::newRow("head 0") << u"sandwich-head"_s << u"0"_s << u"an integer in [1, 12] (sandwich-heads)"_s;
    QTest::newRow("head dim 0") << u"sandwich-head-dim"_s << u"0"_s << u"an integer in [1, 4096]"_s;
    QTest::newRow("head dim too large") << u"sandwich-head-dim"_s << u"4097"_s << u"an integer in [1, 4096]"_s;
}

void TestSandwichBias::rowsRefuseWithTheirRanges()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, allowed);
    Params p = sandwich(12, 1, 64, SandwichMask::Causal, 16);
    QVERIFY(!ParamText::set(p, key, value));
    const QList<ParamError> errors = p.validate();
    QCOMPARE(errors.size(), qsizetype(1));
    QCOMPARE(errors[0].key, key);
    QCOMPARE(errors[0].allowed, allowed);
}

void TestSandwichBias::tablesNeedTheSandwichEncoding()
{
    Params p = sandwich(12, 1, 64, SandwichMask::Causal, 16);
    p.encoding = Encoding::Alibi;
    const Engine engine(p);
    for (const Quantity q : {Quantity::SandwichBias, Quantity::SandwichDistance}) {
        const auto refusal = engine.check(q, {0, 1, 0, 1});
        QVERIFY2(refusal && refusal->contains(u"sandwich"_s), qPrintable(refusal.value_or(u"none"_s)));
    }
}

POSENC_TEST_GUILESS_MAIN(TestSandwichBias)
} // namespace tst_sandwichbias
#include "tst_sandwichbias.moc"
