// T5's and DeBERTa's bucket tables in the engine (t5-bucket, deberta-bucket) against float64
// references (tests/support/T5Reference.h, DebertaReference.h) written from HF transformers'
// T5Attention._relative_position_bucket and DeBERTa-v2's make_log_bucket_position, at the issue's distances; and, over
// every distance below 65536 for the presets' settings, the float32 arithmetic of the reference code (torch's tensors)
// against float64: where the two differ the product follows float32, as the models do. Each cell
// of an L x L table is the bucket of its offset, whatever the block and the threads.
#include "EngineTable.h"
#include "support/TestMain.h"

#include "support/DebertaReference.h"
#include "support/T5Reference.h"

#include "core/Engine.h"
#include "core/deberta/DebertaBuckets.h"
#include "core/t5/T5Buckets.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>

namespace tst_buckettables {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params t5(std::int64_t buckets, std::int64_t maxDistance, bool causal, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::T5;
    p.t5.buckets = buckets;
    p.t5.maxDistance = maxDistance;
    p.t5.causal = causal;
    p.maxLen = maxLen;
    p.dModel = 8;
    return p;
}

Params deberta(std::int64_t buckets, std::int64_t maxPosition, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Deberta;
    p.deberta.buckets = buckets;
    p.deberta.maxPosition = maxPosition;
    p.maxLen = maxLen;
    p.dModel = 8;
    return p;
}

// Row `query` of a table: the cells of keys 0 .. L-1, computed alone.
RowMatrixXf row(const Engine &engine, Quantity quantity, std::int64_t query)
{
    const Shape shape = engine.shape(quantity);
    return testing::computeTable(engine, quantity, {query, 1, 0, shape.cols});
}

bool bitEqual(const RowMatrixXf &a, const RowMatrixXf &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
        && std::memcmp(a.data(), b.data(), sizeof(float) * std::size_t(a.size())) == 0;
}

// The issue's distances: +-1..+-8, 16, 32, 64, 127, 128 and 1000, each way.
QList<std::int64_t> issueDistances()
{
    QList<std::int64_t> list;
    for (const std::int64_t d : {1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 127, 128, 1000})
        list << d << -d;
    return list << 0;
}

} // namespace

class TestBucketTables : public QObject
{
    Q_OBJECT

private slots:
    void t5AtTheIssuesDistances_data();
    void t5AtTheIssuesDistances();
    void t5KnownBuckets();
    void t5Float32AgreesWithFloat64BelowDistance65536_data();
    void t5Float32AgreesWithFloat64BelowDistance65536();
    void t5FirstDistancesStartEachBucket();
    void debertaAtTheIssuesDistances();
    void debertaFloat32AgainstFloat64BelowDistance65536();
    void bucketsEqualTorchsOwnOutput();
    void blocksAloneAreTheWholeTable();
    void tablesNeedTheirEncoding();
};

void TestBucketTables::t5AtTheIssuesDistances_data()
{
    QTest::addColumn<qint64>("buckets");
    QTest::addColumn<bool>("causal");
    for (const qint64 buckets : {32, 16, 64})
        for (const bool causal : {false, true})
            QTest::addRow("%lld %s", buckets, causal ? "causal" : "bidirectional") << buckets << causal;
}

void TestBucketTables::t5AtTheIssuesDistances()
{
    QFETCH(qint64, buckets);
    QFETCH(bool, causal);
    // A query in the middle of 2001 positions sees keys 1000 before and after it.
    constexpr std::int64_t L = 2001;
    constexpr std::int64_t query = 1000;
    const Engine engine(t5(buckets, 128, causal, L));
    const RowMatrixXf cells = row(engine, Quantity::T5Bucket, query);
    for (const std::int64_t relative : issueDistances()) {
        const std::int64_t expected = t5ref::t5(relative, buckets, 128, !causal).value;
        QCOMPARE(t5ref::t5Float32(relative, buckets, 128, !causal), expected); // no float32 boundary here
        QVERIFY2(
            cells(0, query + relative) == float(expected),
            qPrintable(u"j - i = %1: %2, expected %3"_s.arg(relative).arg(cells(0, query + relative)).arg(expected)));
    }
}

void TestBucketTables::t5KnownBuckets()
{
    // T5's encoder (32 buckets, 128): exact below 8 each way, keys after the query from 16 on,
    // 8 + trunc(ln(d / 8) / ln 16 * 8) beyond, every key from 91 on in the last bucket of its side.
    const Engine encoder(t5(32, 128, false, 2001));
    const RowMatrixXf e = row(encoder, Quantity::T5Bucket, 1000);
    const std::pair<std::int64_t, float> encoderCells[]
        = {{0, 0.f},    {-1, 1.f},    {1, 17.f},    {-7, 7.f},   {7, 23.f},     {-8, 8.f},
           {8, 24.f},   {-16, 10.f},  {16, 26.f},   {-32, 12.f}, {-64, 14.f},   {-90, 14.f},
           {-91, 15.f}, {-127, 15.f}, {-128, 15.f}, {128, 31.f}, {-1000, 15.f}, {1000, 31.f}};
    for (const auto &[relative, bucket] : encoderCells)
        QVERIFY2(e(0, 1000 + relative) == bucket, qPrintable(QString::number(relative)));
    // The decoder: later keys in bucket 0, earlier ones over all 32, exact below 16.
    const Engine decoder(t5(32, 128, true, 2001));
    const RowMatrixXf d = row(decoder, Quantity::T5Bucket, 1000);
    const std::pair<std::int64_t, float> decoderCells[]
        = {{1, 0.f},    {1000, 0.f},  {-1, 1.f},    {-15, 15.f},  {-16, 16.f},  {-32, 21.f},
           {-64, 26.f}, {-112, 30.f}, {-113, 31.f}, {-127, 31.f}, {-128, 31.f}, {-1000, 31.f}};
    for (const auto &[relative, bucket] : decoderCells)
        QVERIFY2(d(0, 1000 + relative) == bucket, qPrintable(QString::number(relative)));
}

void TestBucketTables::t5Float32AgreesWithFloat64BelowDistance65536_data()
{
    QTest::addColumn<qint64>("buckets");
    QTest::addColumn<qint64>("maxDistance");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<QList<qint64>>("differing"); // the distances where float32 and float64 differ
    // T5 and Flan-T5's settings, both maps, and the issue's 16 and 64 buckets.
    QTest::newRow("32/128 bidirectional") << qint64(32) << qint64(128) << false << QList<qint64> {};
    QTest::newRow("32/128 causal") << qint64(32) << qint64(128) << true << QList<qint64> {};
    QTest::newRow("16/128 bidirectional") << qint64(16) << qint64(128) << false << QList<qint64> {};
    QTest::newRow("64/128 bidirectional") << qint64(64) << qint64(128) << false << QList<qint64> {};
}

void TestBucketTables::t5Float32AgreesWithFloat64BelowDistance65536()
{
    QFETCH(qint64, buckets);
    QFETCH(qint64, maxDistance);
    QFETCH(bool, causal);
    QFETCH(QList<qint64>, differing);
    // Row 65535 holds every key before the query (j - i = -65535 .. 0), row 0 every key after.
    constexpr std::int64_t L = 65536;
    const Engine engine(t5(buckets, maxDistance, causal, L));
    const RowMatrixXf before = row(engine, Quantity::T5Bucket, L - 1);
    const RowMatrixXf after = row(engine, Quantity::T5Bucket, 0);
    QList<qint64> found;
    for (std::int64_t relative = -(L - 1); relative < L; ++relative) {
        const std::int64_t f32 = t5ref::t5Float32(relative, buckets, maxDistance, !causal);
        const std::int64_t f64 = t5ref::t5(relative, buckets, maxDistance, !causal).value;
        if (f32 != f64)
            found << relative;
        const float got = relative <= 0 ? before(0, L - 1 + relative) : after(0, relative);
        if (got != float(f32))
            QFAIL(qPrintable(u"j - i = %1: %2, the reference's float32 gives %3"_s.arg(relative).arg(got).arg(f32)));
    }
    QCOMPARE(found, differing);
}

void TestBucketTables::t5FirstDistancesStartEachBucket()
{
    // Where each bucket starts, by a scan of the float64 reference (no float32 boundary at 32/128).
    for (const bool causal : {false, true}) {
        const std::int64_t side = causal ? 32 : 16;
        for (std::int64_t b = 0; b < side; ++b) {
            std::int64_t d = 0;
            while (t5ref::t5(-d, 32, 128, !causal).value < b)
                ++d;
            QCOMPARE(T5Buckets::firstDistance(b, 32, 128, !causal), d);
        }
    }
}

void TestBucketTables::debertaAtTheIssuesDistances()
{
    // 256 buckets, 512 positions: exact within 128; 129 -> 129, 256 -> 192, 511 -> 255 (2 mid - 1),
    // 512 -> 256 and 1000 -> 317 (not capped), each signed as i - j.
    constexpr std::int64_t L = 2001;
    constexpr std::int64_t query = 1000;
    const Engine engine(deberta(256, 512, L));
    const RowMatrixXf cells = row(engine, Quantity::DebertaBucket, query);
    const std::pair<std::int64_t, std::int64_t> known[]
        = {{128, 128}, {129, 129}, {256, 192}, {511, 255}, {512, 256}, {1000, 317}};
    for (const auto &[relative, bucket] : known) {
        QCOMPARE(debertaref::deberta(relative, 256, 512).value, bucket);
        QCOMPARE(debertaref::deberta(-relative, 256, 512).value, -bucket);
    }
    for (std::int64_t relative = -1000; relative <= 1000; ++relative) {
        // Cell (i, j) holds the bucket of i - j: key j = i - relative.
        const std::int64_t expected = debertaref::deberta(relative, 256, 512).value;
        QCOMPARE(debertaref::debertaFloat32(relative, 256, 512), expected);
        QVERIFY2(
            cells(0, query - relative) == float(expected),
            qPrintable(u"i - j = %1: %2, expected %3"_s.arg(relative).arg(cells(0, query - relative)).arg(expected)));
    }
}

void TestBucketTables::debertaFloat32AgainstFloat64BelowDistance65536()
{
    constexpr std::int64_t L = 65536;
    const Engine engine(deberta(256, 512, L));
    const RowMatrixXf first = row(engine, Quantity::DebertaBucket, 0); // i - j = 0 .. -65535
    const RowMatrixXf last = row(engine, Quantity::DebertaBucket, L - 1); // i - j = 65535 .. 0
    QList<qint64> found;
    for (std::int64_t relative = -(L - 1); relative < L; ++relative) {
        const std::int64_t f32 = debertaref::debertaFloat32(relative, 256, 512);
        if (f32 != debertaref::deberta(relative, 256, 512).value)
            found << relative;
        const float got = relative <= 0 ? first(0, -relative) : last(0, L - 1 - relative);
        if (got != float(f32))
            QFAIL(qPrintable(u"i - j = %1: %2, the reference's float32 gives %3"_s.arg(relative).arg(got).arg(f32)));
    }
    // One distance each way where float32 and float64 part: at |i - j| = 65317 the logarithm's part
    // lands on a whole number in float32 and just above it in float64, whose ceil takes one
    // more. torch's tensors (HF transformers on a CPU) give the float32 bucket, which the product
    // follows.
    QCOMPARE(found, (QList<qint64> {-65317, 65317}));
    QCOMPARE(debertaref::debertaFloat32(65317, 256, 512), debertaref::deberta(65317, 256, 512).value - 1);
}

// torch's own output (tests/data/make_bucket_fixture.py ran HF's functions in torch 1.13, CPU):
// every |relative| to 300 and the distances below 65536 where the float64 logarithm lies within
// 1e-4 of a rounding boundary, so that a float32 step taken otherwise than torch's shows here.
void TestBucketTables::bucketsEqualTorchsOwnOutput()
{
    QFile file(QStringLiteral(POSENC_TORCH_BUCKETS));
    QVERIFY2(file.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(file.fileName()));
    int t5Rows = 0;
    int debertaRows = 0;
    int nearBoundary = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QList<QByteArray> f = line.split(',');
        QCOMPARE(f.size(), 6);
        const std::int64_t buckets = f[1].toLongLong();
        const std::int64_t reach = f[2].toLongLong();
        const bool bidirectional = f[3] == "1";
        const std::int64_t relative = f[4].toLongLong();
        const std::int64_t expected = f[5].toLongLong();
        std::int64_t got = 0;
        std::int64_t float64 = 0;
        if (f[0] == "t5") {
            got = T5Buckets::bucket(relative, buckets, reach, bidirectional);
            float64 = t5ref::t5(relative, buckets, reach, bidirectional).value;
            ++t5Rows;
        } else {
            QCOMPARE(f[0], QByteArray("deberta"));
            got = DebertaBuckets::bucket(relative, buckets, reach);
            float64 = debertaref::deberta(relative, buckets, reach).value;
            ++debertaRows;
        }
        nearBoundary += float64 != expected;
        if (got != expected)
            QFAIL(qPrintable(
                QStringLiteral("%1: torch %2, posenc %3").arg(QString::fromLatin1(line)).arg(expected).arg(got)));
    }
    // The fixture is whole, and holds the positions where torch's float32 parts from float64.
    QVERIFY(t5Rows >= 4 * (601 + 2));
    QVERIFY(debertaRows >= 2 * (601 + 2));
    QVERIFY2(nearBoundary > 0, "no position where float32 and float64 part");
}

void TestBucketTables::blocksAloneAreTheWholeTable()
{
    constexpr std::int64_t L = 2500;
    for (const Params &p : {t5(32, 128, false, L), t5(33, 100, true, L), deberta(256, 512, L), deberta(8, 12, L)}) {
        const Engine engine(p);
        const Quantity q = p.encoding == Encoding::T5 ? Quantity::T5Bucket : Quantity::DebertaBucket;
        const RowMatrixXf whole = testing::computeTable(engine, q, {0, L, 0, L});
        QVERIFY(bitEqual(whole, testing::computeTable(engine, q, {0, L, 0, L}, 1)));
        for (const Block &block : {Block {0, 1, 0, L}, Block {L - 1, 1, 0, L}, Block {1200, 37, 1190, 41},
                                   Block {5, 700, 1700, 800}, Block {2000, 500, 0, 1}}) {
            RowMatrixXf alone(block.rows, block.cols);
            engine.computeBlock(q, block, alone);
            QVERIFY(bitEqual(alone, whole.block(block.row0, block.col0, block.rows, block.cols)));
        }
        // Each cell is the bucket of its offset: the table is constant along its diagonals.
        for (std::int64_t i = 1; i < L; i += 97)
            for (std::int64_t j = 1; j < L; j += 89)
                QCOMPARE(whole(i, j), whole(i - 1, j - 1));
    }
}

void TestBucketTables::tablesNeedTheirEncoding()
{
    Params p;
    for (const Quantity q : {Quantity::T5Bucket, Quantity::DebertaBucket})
        QVERIFY(Quantities::spec(q).missing(p).has_value());
    p.encoding = Encoding::T5;
    QVERIFY(Quantities::available(p).contains(Quantity::T5Bucket));
    QVERIFY(!Quantities::available(p).contains(Quantity::DebertaBucket));
    p.encoding = Encoding::Deberta;
    QVERIFY(Quantities::available(p).contains(Quantity::DebertaBucket));
    QVERIFY(!Quantities::available(p).contains(Quantity::AlibiBias));
    // A whole table at L 65536 is refused within the budget.
    p.maxLen = 65536;
    const Engine engine(p);
    const auto refused = engine.check(Quantity::DebertaBucket, {0, 65536, 0, 65536});
    QVERIFY(refused && refused->contains(u"GiB"_s));
}

POSENC_TEST_GUILESS_MAIN(TestBucketTables)
} // namespace tst_buckettables
#include "tst_buckettables.moc"
