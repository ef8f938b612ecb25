// `posenc check` of relative biases computed for a step with a cache: q new queries over k = c + q
// keys, the [.., q, k] map whose rows are the LAST q positions, as transformers'
// T5Attention.forward keeps position_bias[:, :, -seq_length:, :] of compute_bias(real_seq_length,
// key_length) (huggingface/transformers src/transformers/models/t5/modeling_t5.py) and x-transformers'
// RelativePositionBias and AlibiPositionalBias take q_pos = arange(j - i, j). Such a map is the
// family's, undeclared and declared. The same map with its rows at 0 .. q - 1 is as faithful a window
// (a map computed without a cache): undeclared it is the family's, the window said; against declared
// positions of the last q (--positions k-q:k: the cache's offset forgotten, candle#899,
// x-transformers#103) it is the mistake position-offset. T5's decoder map
// checked against an encoder's stack (--expect-table) is t5-causal, and the other way round.
// DeBERTa's build_relative_position takes the first queries (arange(query_size)): its map stays
// correct so. Every tensor is a float64 formula here (support/*Reference.h), never the code's own,
// but a decode step's rows, recorded from transformers' own compute_bias (tests/data/decodebias).
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/DebertaReference.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QTemporaryDir>

#include <cmath>
#include <functional>

namespace tst_clibiascache {
using namespace Qt::StringLiterals;

namespace {

// A relative_attention_bias weight: any values that differ from bucket to bucket and head to head
// (a learned table's; none of them equal).
double weight(qint64 bucket, qint64 head)
{
    return std::sin(1.37 * double(bucket) + 0.71 * double(head) + 0.1) * 2.0 + 0.01 * double(head);
}

// A [1, heads, queries, keys] tensor of cell(h, i, j), row r the query at position first + r.
std::vector<double> stack(qint64 heads, qint64 queries, qint64 keys, qint64 first,
                          const std::function<double(qint64 head, qint64 i, qint64 j)> &cell)
{
    std::vector<double> v;
    v.reserve(std::size_t(heads * queries * keys));
    for (qint64 h = 0; h < heads; ++h) {
        for (qint64 r = 0; r < queries; ++r) {
            for (qint64 j = 0; j < keys; ++j)
                v.push_back(cell(h, first + r, j));
        }
    }
    return v;
}

// T5's position_bias: head h's weight at the bucket of j - i (HF's relative_position = memory - context).
double t5Bias(qint64 h, qint64 i, qint64 j, bool causal)
{
    return weight(t5ref::t5(j - i, 32, 128, !causal).value, h);
}

// ALiBi's symmetric bias -m_h |j - i| (x-transformers' AlibiPositionalBias), get_slopes(heads).
double alibiBias(qint64 heads, qint64 h, qint64 i, qint64 j)
{
    return -alibiref::slopes(heads)[std::size_t(h)] * double(std::abs(j - i));
}

enum class Kind { T5Encoder, T5Decoder, Alibi, T5Buckets, Deberta };

QStringList declaredFlags(Kind kind)
{
    switch (kind) {
    case Kind::T5Encoder:
    case Kind::T5Buckets:
        return {u"--expect"_s, u"t5"_s, u"--t5-buckets"_s, u"32"_s, u"--t5-max-distance"_s, u"128"_s};
    case Kind::T5Decoder:
        return {u"--expect"_s, u"t5"_s, u"--t5-causal"_s, u"--t5-buckets"_s, u"32"_s, u"--t5-max-distance"_s, u"128"_s};
    case Kind::Alibi:
        return {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s, u"--alibi"_s, u"symmetric"_s};
    case Kind::Deberta:
        return {u"--expect"_s, u"deberta"_s, u"--deberta-buckets"_s, u"256"_s, u"--deberta-max-position"_s, u"512"_s};
    }
    return {};
}

} // namespace

class TestCliBiasCache : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_count = 0;

    // The tensor of `kind`, its queries from `first`: a [1, 8, q, k] stack, or a q x k map of buckets.
    QString written(Kind kind, qint64 queries, qint64 keys, qint64 first)
    {
        const qint64 heads = 8;
        std::vector<std::int64_t> shape {1, heads, queries, keys};
        std::vector<double> values;
        switch (kind) {
        case Kind::T5Encoder:
        case Kind::T5Decoder:
            values = stack(heads, queries, keys, first,
                           [&](qint64 h, qint64 i, qint64 j) { return t5Bias(h, i, j, kind == Kind::T5Decoder); });
            break;
        case Kind::Alibi:
            values = stack(heads, queries, keys, first,
                           [&](qint64 h, qint64 i, qint64 j) { return alibiBias(heads, h, i, j); });
            break;
        case Kind::T5Buckets:
            shape = {queries, keys};
            values = stack(1, queries, keys, first,
                           [](qint64, qint64 i, qint64 j) { return double(t5ref::t5(j - i, 32, 128, true).value); });
            break;
        case Kind::Deberta:
            // build_relative_position: query - key, make_log_bucket_position, 256 buckets, 512.
            shape = {queries, keys};
            values = stack(1, queries, keys, first, [](qint64, qint64 i, qint64 j) {
                return double(debertaref::deberta(i - j, 256, 512).value);
            });
            break;
        }
        return CliCheck::write(m_dir, u"bias-%1.npy"_s.arg(m_count++), npy(shape, values));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Each row: the tensor, its queries and keys, the verdict of the map whose queries are the last
    // (the reference's), undeclared and declared.
    void cacheRowsRead_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("queries");
        QTest::addColumn<qint64>("keys");
        QTest::addColumn<QString>("verdict");
        // candle#899's shape: t5-small's 8 heads, 4 queries over 32 keys.
        QTest::newRow("t5 encoder 4 of 32") << int(Kind::T5Encoder) << qint64(4) << qint64(32) << u"learned"_s;
        // x-transformers#103's: a causal decoder, 16 queries over 48 keys (32 memories).
        QTest::newRow("t5 decoder 16 of 48") << int(Kind::T5Decoder) << qint64(16) << qint64(48) << u"learned"_s;
        QTest::newRow("alibi symmetric 16 of 48") << int(Kind::Alibi) << qint64(16) << qint64(48) << u"correct"_s;
        QTest::newRow("t5 buckets 12 of 40") << int(Kind::T5Buckets) << qint64(12) << qint64(40) << u"correct"_s;
    }
    // The map of the last queries is the family's, and so is the same map from position 0, each window
    // said, undeclared and under --expect (which declares no positions); with the last queries'
    // positions declared (--positions k-q:k), the map from 0 is position-offset, both offsets said.
    void cacheRowsRead()
    {
        QFETCH(int, kind);
        QFETCH(qint64, queries);
        QFETCH(qint64, keys);
        QFETCH(QString, verdict);
        const Kind k = Kind(kind);
        const QString last = written(k, queries, keys, keys - queries);
        const QString first = written(k, queries, keys, 0);
        QVERIFY(!last.isEmpty() && !first.isEmpty());
        const QStringList cache {u"--positions"_s, u"%1:%2"_s.arg(keys - queries).arg(keys)};
        for (const QStringList &flags : {QStringList {}, declaredFlags(k)}) {
            // A T5 position_bias is learned undeclared, the declared reference (its values read per
            // bucket) where its map is declared: correct, never another reading.
            const QString want = !flags.isEmpty() && verdict == u"learned"_s ? u"correct"_s : verdict;
            const CliCheck::Checked right = CliCheck::checkFile(last, flags);
            QVERIFY2(right.verdict() == want && right.mistakes().isEmpty(), qPrintable(right.shown));
            QCOMPARE(right.json[u"positions"_s][u"first"_s].toInt(), int(keys - queries));
            const CliCheck::Checked window = CliCheck::checkFile(first, flags);
            QVERIFY2(window.verdict() == want && window.mistakes().isEmpty(), qPrintable(window.shown));
            QCOMPARE(window.json[u"positions"_s][u"first"_s].toInt(), 0);
            QCOMPARE(window.json[u"positions"_s][u"declared"_s].toBool(), false);
            const CliCheck::Checked declared = CliCheck::checkFile(last, flags + cache);
            QVERIFY2(declared.verdict() == want && declared.mistakes().isEmpty(), qPrintable(declared.shown));
            const CliCheck::Checked wrong = CliCheck::checkFile(first, flags + cache);
            QVERIFY2(wrong.verdict() == u"mistake"_s && wrong.mistakes().contains(u"position-offset"_s),
                     qPrintable(wrong.shown));
            // The offsets said: the queries at 0.., where the declaration puts them at k - q.
            QVERIFY2(wrong.diagnosis().contains(u"positions 0..%1"_s.arg(queries - 1))
                         && wrong.diagnosis().contains(u"%1..%2"_s.arg(keys - queries).arg(keys - 1)),
                     qPrintable(wrong.shown));
        }
    }

    // transformers' T5 decoder position_bias (compute_bias, bidirectional=False; r42's B16 fixed
    // dump) under --expect t5 --t5-causal: the declared reference with its values read per bucket,
    // correct (exit 0), never the undeclared reading `learned`; the encoder's map under it a mistake.
    void declaredT5BiasIsCorrect()
    {
        const QString decoder = written(Kind::T5Decoder, 48, 48, 0);
        const QString encoder = written(Kind::T5Encoder, 48, 48, 0);
        QVERIFY(!decoder.isEmpty() && !encoder.isEmpty());
        const CliCheck::Checked right = CliCheck::checkFile(decoder, declaredFlags(Kind::T5Decoder));
        QVERIFY2(right.verdict() == u"correct"_s && right.exit == 0 && right.mistakes().isEmpty(),
                 qPrintable(right.shown));
        QVERIFY2(right.diagnosis().contains(u"declared"_s) && right.diagnosis().contains(u"causal"_s),
                 qPrintable(right.shown));
        const CliCheck::Checked wrong = CliCheck::checkFile(encoder, declaredFlags(Kind::T5Decoder));
        QVERIFY2(wrong.verdict() == u"mistake"_s && wrong.mistakes().contains(u"t5-causal"_s), qPrintable(wrong.shown));
        QCOMPARE(CliCheck::checkFile(decoder, {}).verdict(), u"learned"_s);
    }

    // DeBERTa's own map of fewer queries than keys holds the first queries: correct as it is.
    void debertaKeepsFirstQueries()
    {
        const QString map = written(Kind::Deberta, 12, 40, 0);
        QVERIFY(!map.isEmpty());
        for (const QStringList &flags : {QStringList {}, declaredFlags(Kind::Deberta)}) {
            const CliCheck::Checked checked = CliCheck::checkFile(map, flags);
            QVERIFY2(checked.verdict() == u"correct"_s, qPrintable(checked.shown));
        }
    }

    // A decode step's row a head, [1, 8, 1, 64], and a chunk of 4 rows, as transformers'
    // T5Attention.forward keeps position_bias[:, :, -seq_length:, :] with a cache (recorded from its
    // compute_bias, old and cache_position forms: tests/data/decodebias/make_decode_fixtures.py). Read
    // as 8 heads of q queries at the last q of the 64 keys, never as an 8 x 64 table: T5's
    // position_bias undeclared (learned), the declared reference's (correct); the encoder's buckets in
    // the decoder's row where the decoder's are declared (t5-causal), a cell off its bucket's value
    // (t5-bucket-value-broken) and more buckets declared than the row's (t5-buckets) named.
    void decodeStepRow_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        const QStringList decoder = declaredFlags(Kind::T5Decoder), encoder = declaredFlags(Kind::T5Encoder);
        QTest::newRow("decoder") << u"t5-decoder-step"_s << QStringList() << u"learned"_s << QString();
        QTest::newRow("decoder declared") << u"t5-decoder-step"_s << decoder << u"correct"_s << QString();
        QTest::newRow("encoder") << u"t5-encoder-step"_s << QStringList() << u"learned"_s << QString();
        QTest::newRow("encoder declared") << u"t5-encoder-step"_s << encoder << u"correct"_s << QString();
        QTest::newRow("chunk declared") << u"t5-decoder-chunk"_s << decoder << u"correct"_s << QString();
        QTest::newRow("encoder's buckets") << u"t5-encoder-step"_s << decoder << u"mistake"_s << u"t5-causal"_s;
        // A map of finer buckets fits any row of coarser ones: the row's own 32 buckets are read.
        QTest::newRow("64 buckets declared")
            << u"t5-decoder-step"_s
            << QStringList {u"--expect"_s, u"t5"_s, u"--t5-causal"_s, u"--t5-buckets"_s, u"64"_s} << u"mistake"_s
            << u"t5-buckets"_s;
        QTest::newRow("cell broken") << u"t5-decoder-step-broken"_s << decoder << u"mistake"_s
                                     << u"t5-bucket-value-broken"_s;
        QTest::newRow("cell broken undeclared")
            << u"t5-decoder-step-broken"_s << QStringList() << u"mistake"_s << u"t5-bucket-value-broken"_s;
    }
    void decodeStepRow()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        const QString file = QFINDTESTDATA(u"../data/decodebias/%1.npy"_s.arg(name));
        QVERIFY(!file.isEmpty());
        const CliCheck::Checked checked = CliCheck::checkFile(file, flags);
        QVERIFY2(checked.verdict() == verdict, qPrintable(checked.shown));
        QVERIFY2(mistake.isEmpty() ? checked.mistakes().isEmpty() : checked.mistakes().contains(mistake),
                 qPrintable(checked.shown));
        QCOMPARE(checked.json[u"family"_s].toString(), name.section(u'-', 0, 0));
        const int queries = name.endsWith(u"chunk"_s) ? 4 : 1;
        if (mistake.isEmpty() && name.startsWith(u"t5"_s))
            QCOMPARE(checked.json[u"positions"_s][u"first"_s].toInt(), 64 - queries);
    }

    // A stack against a reference stack it deviates from: the reference read as T5's map, the stack
    // checked at it, the difference named (the decoder's map for the encoder's; the cache's offset).
    void stackAgainstReferenceStack_data()
    {
        QTest::addColumn<int>("table");
        QTest::addColumn<qint64>("tableFirst");
        QTest::addColumn<int>("reference");
        QTest::addColumn<QString>("mistake");
        QTest::newRow("decoder against encoder")
            << int(Kind::T5Decoder) << qint64(8) << int(Kind::T5Encoder) << u"t5-causal"_s;
        QTest::newRow("encoder against decoder")
            << int(Kind::T5Encoder) << qint64(8) << int(Kind::T5Decoder) << u"t5-causal"_s;
        QTest::newRow("cache forgotten") << int(Kind::T5Decoder) << qint64(0) << int(Kind::T5Decoder)
                                         << u"position-offset"_s;
    }
    void stackAgainstReferenceStack()
    {
        QFETCH(int, table);
        QFETCH(qint64, tableFirst);
        QFETCH(int, reference);
        QFETCH(QString, mistake);
        const QString file = written(Kind(table), 12, 20, tableFirst);
        const QString against = written(Kind(reference), 12, 20, 8);
        QVERIFY(!file.isEmpty() && !against.isEmpty());
        const CliCheck::Checked checked = CliCheck::checkFile(file, {u"--expect-table"_s, against});
        QVERIFY2(checked.verdict() == u"mistake"_s && checked.mistakes().contains(mistake), qPrintable(checked.shown));
        const CliCheck::Checked same = CliCheck::checkFile(against, {u"--expect-table"_s, against});
        QVERIFY2(same.verdict() == u"correct"_s, qPrintable(same.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliBiasCache)
} // namespace tst_clibiascache
#include "tst_clibiascache.moc"
