// `posenc describe` as scripts meet it: real models' configs given as flags (or as a preset) print
// their known numbers, a line "key: value" each or one JSON object, in one order, null where a key
// does not apply; ALiBi's slopes, T5's bucket starts and DeBERTa's uncapped buckets against float64
// references of the reference code; another encoding, a bad value and a stray argument exit 2.
#include "CliRun.h"
#include "support/AlibiReference.h"
#include "support/DebertaReference.h"
#include "support/SandwichReference.h"
#include "support/T5Reference.h"
#include "support/TestFamily.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <numbers>
#include <vector>

namespace tst_clidescribe {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// RoPE's keys, in their order (its record, tests/families/rope/).
QStringList ropeKeys()
{
    return TestFamilies::of(posenc::Encoding::Rope).describeKeys;
}

const QStringList kLlama31
    = {u"--encoding"_s,        u"rope"_s,   u"--head-dim"_s,         u"128"_s, u"--rope-theta"_s,       u"500000"_s,
       u"--rope-type"_s,       u"llama3"_s, u"--rope-factor"_s,      u"8"_s,   u"--original-max-len"_s, u"8192"_s,
       u"--low-freq-factor"_s, u"1"_s,      u"--high-freq-factor"_s, u"4"_s,   u"--max-len"_s,          u"131072"_s,
       u"--d-model"_s,         u"4096"_s};

const QStringList kGptOss
    = {u"--encoding"_s,  u"rope"_s,   u"--head-dim"_s,    u"64"_s,  u"--rope-theta"_s,       u"150000"_s,
       u"--rope-type"_s, u"yarn"_s,   u"--rope-factor"_s, u"32"_s,  u"--original-max-len"_s, u"4096"_s,
       u"--beta-fast"_s, u"32"_s,     u"--beta-slow"_s,   u"1"_s,   u"--yarn-truncate"_s,    u"false"_s,
       u"--max-len"_s,   u"131072"_s, u"--d-model"_s,     u"2880"_s};

const QStringList kDeepSeek
    = {u"--encoding"_s,  u"rope"_s,  u"--head-dim"_s,       u"64"_s, u"--rope-theta"_s,       u"10000"_s,
       u"--rope-type"_s, u"yarn"_s,  u"--rope-factor"_s,    u"40"_s, u"--original-max-len"_s, u"4096"_s,
       u"--mscale"_s,    u"1"_s,     u"--mscale-all-dim"_s, u"1"_s,  u"--rope-layout"_s,      u"interleaved"_s,
       u"--max-len"_s,   u"131072"_s};

// The lines of a text run as key -> value, in their order.
QList<std::pair<QString, QString>> lines(const QString &out)
{
    QList<std::pair<QString, QString>> list;
    for (const QString &line : out.split(u'\n', Qt::SkipEmptyParts)) {
        const qsizetype colon = line.indexOf(u": "_s);
        list.append({line.left(colon), line.mid(colon + 2)});
    }
    return list;
}

QString valueOf(const QList<std::pair<QString, QString>> &list, const QString &key)
{
    for (const auto &[k, v] : list) {
        if (k == key)
            return v;
    }
    return u"(missing)"_s;
}

} // namespace

class TestCliDescribe : public QObject
{
    Q_OBJECT

private slots:
    void llama31KeepsBlendsAndDivides();
    void gptOssKeepsItsBandEdgesUnrounded();
    void deepSeekScalesTheSoftmax();
    void phi3FromItsPreset();
    void llama2CriticalDimensionAndPositionSteps();
    void jsonHasTheKeysInOrder();
    void anotherEncodingExitsTwo();
    void badValuesExitTwo_data();
    void badValuesExitTwo();
    void helpListsTheKeys();
    void everyFamilyPrintsItsKeys_data();
    void everyFamilyPrintsItsKeys();
    void alibiSlopesOfTwelveHeads();
    void t5BucketStarts_data();
    void t5BucketStarts();
    void debertaIsNotCapped();
    void sandwichOddHeadDim();
};

void TestCliDescribe::llama31KeepsBlendsAndDivides()
{
    const Run run = CliRun::posenc(QStringList {u"describe"_s} + kLlama31);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.err.isEmpty());
    const auto list = lines(run.out);
    QStringList keys;
    for (const auto &entry : list)
        keys.append(entry.first);
    QCOMPARE(keys, ropeKeys());
    QCOMPARE(valueOf(list, u"rope_type"_s), u"llama3"_s);
    QCOMPARE(valueOf(list, u"rotary_dim"_s), u"128"_s);
    QCOMPARE(valueOf(list, u"pairs_kept"_s), u"29"_s);
    QCOMPARE(valueOf(list, u"pairs_blended"_s), u"6"_s);
    QCOMPARE(valueOf(list, u"pairs_divided"_s), u"29"_s);
    QCOMPARE(valueOf(list, u"attention_factor"_s), u"1"_s);
    QCOMPARE(valueOf(list, u"logit_scale"_s), u"1"_s);
    // yarn's keys have no meaning for llama3.
    for (const QString &key : {u"band_low"_s, u"band_high"_s, u"band_low_used"_s, u"band_high_used"_s})
        QCOMPARE(valueOf(list, key), u"null"_s);
    // 2 ceil(64 log_500000(8192 / 2 pi)) = 2 ceil(34.98)
    QCOMPARE(valueOf(list, u"critical_dimension"_s), u"70"_s);
    // The slowest pair after scaling: 2 pi 500000^(126/128) * 8.
    const double slowest = 2.0 * std::numbers::pi * std::pow(500000.0, 126.0 / 128.0) * 8.0;
    QVERIFY(std::abs(valueOf(list, u"wavelength_max"_s).toDouble() / slowest - 1.0) < 1e-12);
    QCOMPARE(valueOf(list, u"wavelength_min"_s).toDouble(), 2.0 * std::numbers::pi);
}

void TestCliDescribe::gptOssKeepsItsBandEdgesUnrounded()
{
    const Run run = CliRun::posenc(QStringList {u"describe"_s, u"--json"_s} + kGptOss);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(run.out));
    // corr(n) = 64 ln(4096 / (2 pi n)) / (2 ln 150000) for beta_fast 32 and beta_slow 1.
    const auto corr
        = [](double n) { return 64.0 * std::log(4096.0 / (n * 2.0 * std::numbers::pi)) / (2.0 * std::log(150000.0)); };
    QVERIFY(std::abs(json.value(u"band_low"_s).toDouble() - corr(32.0)) < 1e-12);
    QVERIFY(std::abs(json.value(u"band_high"_s).toDouble() - corr(1.0)) < 1e-12);
    QCOMPARE(QString::number(json.value(u"band_low"_s).toDouble(), 'f', 3), u"8.093"_s);
    QCOMPARE(QString::number(json.value(u"band_high"_s).toDouble(), 'f', 3), u"17.398"_s);
    // Truncate off: the edges are used as they are.
    QCOMPARE(json.value(u"band_low_used"_s).toDouble(), json.value(u"band_low"_s).toDouble());
    QCOMPARE(json.value(u"band_high_used"_s).toDouble(), json.value(u"band_high"_s).toDouble());
    // Pairs 0..8 keep ramp 0, 9..17 are between, 18..31 are divided by 32.
    QCOMPARE(json.value(u"pairs_kept"_s).toInt(), 9);
    QCOMPARE(json.value(u"pairs_blended"_s).toInt(), 9);
    QCOMPARE(json.value(u"pairs_divided"_s).toInt(), 14);
    QVERIFY(std::abs(json.value(u"attention_factor"_s).toDouble() - (0.1 * std::log(32.0) + 1.0)) < 1e-12);
    QCOMPARE(json.value(u"rope_type"_s).toString(), u"yarn"_s);
}

void TestCliDescribe::deepSeekScalesTheSoftmax()
{
    const Run run = CliRun::posenc(QStringList {u"describe"_s, u"--json"_s} + kDeepSeek);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const double mscale = 0.1 * std::log(40.0) + 1.0;
    QCOMPARE(json.value(u"attention_factor"_s).toDouble(), 1.0);
    QVERIFY(std::abs(json.value(u"softmax_scale_factor"_s).toDouble() - mscale * mscale) < 1e-12);
    QVERIFY(std::abs(json.value(u"logit_scale"_s).toDouble() - mscale * mscale) < 1e-12);
    QCOMPARE(QString::number(json.value(u"logit_scale"_s).toDouble(), 'f', 3), u"1.874"_s);
}

void TestCliDescribe::phi3FromItsPreset()
{
    const Run run = CliRun::posenc({u"describe"_s, u"--preset"_s, u"phi-3-mini-128k"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const auto list = lines(run.out);
    const double expected = std::sqrt(1.0 + std::log(32.0) / std::log(4096.0));
    QVERIFY(std::abs(valueOf(list, u"attention_factor"_s).toDouble() - expected) < 1e-12);
    QCOMPARE(QString::number(valueOf(list, u"attention_factor"_s).toDouble(), 'f', 4), u"1.1902"_s);
    QCOMPARE(valueOf(list, u"rope_type"_s), u"longrope"_s);
    // A flag overrides the preset: at 4096 positions the short factors apply, but the attention
    // factor stays the model's (HF fixes it from the config, not from the sequence length).
    const Run shorter = CliRun::posenc({u"describe"_s, u"--preset"_s, u"phi-3-mini-128k"_s, u"--max-len"_s, u"4096"_s});
    QCOMPARE(shorter.exitCode, 0);
    QVERIFY(std::abs(valueOf(lines(shorter.out), u"attention_factor"_s).toDouble() - expected) < 1e-12);
    // Without the factor and without an attention factor, longrope is refused, naming the flag.
    const Run noFactor
        = CliRun::posenc({u"describe"_s, u"--preset"_s, u"phi-3-mini-128k"_s, u"--rope-factor"_s, u"unset"_s});
    QCOMPARE(noFactor.exitCode, 2);
    QVERIFY2(noFactor.err.contains(u"--rope-factor"_s), qPrintable(noFactor.err));
}

void TestCliDescribe::llama2CriticalDimensionAndPositionSteps()
{
    const Run run = CliRun::posenc({u"describe"_s, u"--encoding"_s, u"rope"_s, u"--max-len"_s, u"4096"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const auto list = lines(run.out);
    // Liu et al. 2023: 92 for Llama 2 (theta 10000, 4096 positions, no original length).
    QCOMPARE(valueOf(list, u"critical_dimension"_s), u"92"_s);
    // Position 4095: bf16 (7 explicit bits) steps by 2^(11 - 7), fp16 (10) by 2^(11 - 10).
    QCOMPARE(valueOf(list, u"bf16_position_step"_s), u"16"_s);
    QCOMPARE(valueOf(list, u"fp16_position_step"_s), u"2"_s);
    for (const QString &key : {u"pairs_kept"_s, u"band_low"_s})
        QCOMPARE(valueOf(list, key), u"null"_s);
    // Past 65504 fp16 overflows.
    const Run longer = CliRun::posenc({u"describe"_s, u"--encoding"_s, u"rope"_s, u"--max-len"_s, u"131072"_s});
    QCOMPARE(valueOf(lines(longer.out), u"fp16_position_step"_s), u"null"_s);
    QCOMPARE(valueOf(lines(longer.out), u"bf16_position_step"_s), u"512"_s);
}

void TestCliDescribe::jsonHasTheKeysInOrder()
{
    const Run text = CliRun::posenc(QStringList {u"describe"_s} + kGptOss);
    const Run json = CliRun::posenc(QStringList {u"describe"_s, u"--json"_s} + kGptOss);
    QCOMPARE(json.exitCode, 0);
    QCOMPARE(json.out.count(u'\n'), 1);
    const QJsonObject object = QJsonDocument::fromJson(json.out.toUtf8()).object();
    // What the object is, then the keys.
    QVERIFY2(json.out.startsWith(u"{\"format\": \"posenc-describe\", \"version\": 1, "_s), qPrintable(json.out));
    QCOMPARE(object.size(), ropeKeys().size() + 2);
    // The keys in the text's order, each value the text's.
    qsizetype at = 0;
    for (const auto &[key, value] : lines(text.out)) {
        const qsizetype found = json.out.indexOf(u"\""_s + key + u"\":"_s);
        QVERIFY2(found > at, qPrintable(key));
        at = found;
        const QJsonValue v = object.value(key);
        if (value == u"null"_s)
            QVERIFY2(v.isNull(), qPrintable(key));
        else if (v.isString())
            QCOMPARE(v.toString(), value);
        else
            QCOMPARE(v.toDouble(), value.toDouble());
    }
    QVERIFY(object.value(u"fp16_position_step"_s).isNull());
}

void TestCliDescribe::anotherEncodingExitsTwo()
{
    for (const QStringList &arguments :
         {QStringList {u"describe"_s}, QStringList {u"describe"_s, u"--encoding"_s, u"none"_s, u"--json"_s},
          QStringList {u"describe"_s, u"--preset"_s, u"transformer-base"_s}}) {
        const Run run = CliRun::posenc(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--encoding"_s) && run.err.contains(u"rope"_s), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }
}

void TestCliDescribe::badValuesExitTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    QTest::newRow("unknown type") << QStringList {u"--rope-type"_s, u"ntk"_s} << u"--rope-type"_s;
    QTest::newRow("odd rotary dim") << QStringList {u"--head-dim"_s, u"10"_s, u"--partial-rotary-factor"_s, u"0.5"_s}
                                    << u"--partial-rotary-factor"_s;
    QTest::newRow("stray argument") << QStringList {u"llama"_s} << u"llama"_s;
}

void TestCliDescribe::badValuesExitTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const Run run = CliRun::posenc(QStringList {u"describe"_s, u"--encoding"_s, u"rope"_s} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

// Each family's keys at its defaults, as its record lists them, in their order; a family with none
// is refused.
void TestCliDescribe::everyFamilyPrintsItsKeys_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<QStringList>("keys");
    for (const TestFamily &family : TestFamilies::all())
        QTest::newRow(qPrintable(family.word)) << family.word << family.describeKeys;
}

void TestCliDescribe::everyFamilyPrintsItsKeys()
{
    QFETCH(QString, word);
    QFETCH(QStringList, keys);
    const Run run = CliRun::posenc({u"describe"_s, u"--encoding"_s, word});
    if (keys.isEmpty()) {
        QCOMPARE(run.exitCode, 2);
        QVERIFY(!run.err.isEmpty());
        QVERIFY(run.out.isEmpty());
        return;
    }
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QStringList printed;
    for (const auto &entry : lines(run.out))
        printed.append(entry.first);
    QCOMPARE(printed, keys);
}

void TestCliDescribe::helpListsTheKeys()
{
    const Run run = CliRun::posenc({u"describe"_s, u"--help"_s});
    QCOMPARE(run.exitCode, 0);
    for (const TestFamily &family : TestFamilies::all())
        for (const QString &key : family.describeKeys)
            QVERIFY2(run.out.contains(key), qPrintable(family.word + u": "_s + key));
    for (const QString &option : {u"--json"_s, u"--preset"_s, u"posenc help parameters"_s})
        QVERIFY2(run.out.contains(option), qPrintable(option));
    QVERIFY(CliRun::posenc({u"--help"_s}).out.contains(u"posenc describe"_s));
}

void TestCliDescribe::alibiSlopesOfTwelveHeads()
{
    const QStringList params = {u"describe"_s, u"--encoding"_s, u"alibi"_s,     u"--heads"_s, u"12"_s,
                                u"--head"_s,   u"9"_s,          u"--max-len"_s, u"2048"_s};
    const Run text = CliRun::posenc(params);
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    const auto list = lines(text.out);
    QStringList keys;
    for (const auto &entry : list)
        keys.append(entry.first);
    QCOMPARE(keys,
             (QStringList {u"heads"_s, u"head"_s, u"mask"_s, u"slope"_s, u"slopes"_s, u"geometric_heads"_s,
                           u"interleaved_heads"_s, u"half_weight_distance"_s, u"farthest_bias"_s}));
    QCOMPARE(valueOf(list, u"mask"_s), u"causal"_s);
    QCOMPARE(valueOf(list, u"geometric_heads"_s), u"8"_s);
    QCOMPARE(valueOf(list, u"interleaved_heads"_s), u"4"_s);
    const std::vector<double> slopes = alibiref::slopes(12);
    const QStringList texts = valueOf(list, u"slopes"_s).split(u',');
    QCOMPARE(texts.size(), 12);
    for (int k = 0; k < 12; ++k)
        QCOMPARE(texts[k].toDouble(), slopes[std::size_t(k)]); // every digit: the shortest text of the double
    // Head 9 is the first of the interleave: 2^-0.5, half its weight at ln 2 / m = 0.98 positions.
    const double m = slopes[8];
    QVERIFY(std::abs(m - std::sqrt(0.5)) < 1e-15);
    QCOMPARE(valueOf(list, u"slope"_s).toDouble(), m);
    QVERIFY(std::abs(valueOf(list, u"half_weight_distance"_s).toDouble() - std::log(2.0) / m) < 1e-12);
    QVERIFY(std::abs(valueOf(list, u"farthest_bias"_s).toDouble() + m * 2047.0) < 1e-9);
    // JSON: the slopes an array of numbers.
    const Run json = CliRun::posenc(QStringList {params.first(), u"--json"_s} + params.mid(1));
    QVERIFY2(json.exitCode == 0, qPrintable(json.err));
    const QJsonObject object = QJsonDocument::fromJson(json.out.toUtf8()).object();
    const QJsonArray array = object.value(u"slopes"_s).toArray();
    QCOMPARE(array.size(), 12);
    for (int k = 0; k < 12; ++k)
        QCOMPARE(array[k].toDouble(), slopes[std::size_t(k)]);
    QCOMPARE(object.value(u"heads"_s).toInt(), 12);
    QCOMPARE(object.value(u"mask"_s).toString(), u"causal"_s);
}

void TestCliDescribe::t5BucketStarts_data()
{
    QTest::addColumn<qint64>("buckets");
    QTest::addColumn<qint64>("maxDistance");
    QTest::addColumn<bool>("causal");
    QTest::newRow("T5's encoder") << qint64(32) << qint64(128) << false;
    QTest::newRow("T5's decoder") << qint64(32) << qint64(128) << true;
    QTest::newRow("16 buckets") << qint64(16) << qint64(128) << false;
    QTest::newRow("64 buckets") << qint64(64) << qint64(128) << false;
    // The decoder's max distance just past max_exact: distance 17 is already in the last bucket,
    // and buckets 17 .. 30 stay empty.
    QTest::newRow("32 causal, max distance 17") << qint64(32) << qint64(17) << true;
}

void TestCliDescribe::t5BucketStarts()
{
    QFETCH(qint64, buckets);
    QFETCH(qint64, maxDistance);
    QFETCH(bool, causal);
    QStringList args = {u"describe"_s,          u"--json"_s,
                        u"--encoding"_s,        u"t5"_s,
                        u"--t5-buckets"_s,      QString::number(buckets),
                        u"--t5-max-distance"_s, QString::number(maxDistance)};
    if (causal)
        args << u"--t5-causal"_s;
    const Run run = CliRun::posenc(args);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const qint64 n = causal ? buckets : buckets / 2;
    QCOMPARE(json.value(u"direction"_s).toString(), causal ? u"causal"_s : u"bidirectional"_s);
    QCOMPARE(json.value(u"side_buckets"_s).toInteger(), n);
    QCOMPARE(json.value(u"max_exact"_s).toInteger(), n / 2);
    // Where each logarithmic bucket starts, by a scan of the float64 reference.
    QList<qint64> starts;
    for (qint64 b = n / 2; b < n; ++b) {
        qint64 d = 0;
        while (t5ref::t5(-d, buckets, maxDistance, !causal).value < b)
            ++d;
        starts << d;
    }
    QList<qint64> got;
    for (const QJsonValue &v : json.value(u"log_bucket_starts"_s).toArray())
        got << v.toInteger();
    QCOMPARE(got, starts);
    qint64 empty = 0;
    for (qsizetype i = 0; i + 1 < starts.size(); ++i)
        empty += starts[i] == starts[i + 1];
    QCOMPARE(json.value(u"empty_buckets"_s).toInteger(), empty);
    QCOMPARE(json.value(u"last_bucket_start"_s).toInteger(), starts.last());
    if (buckets == 32 && maxDistance == 128) {
        // T5's own: 8, 12, 16, 23, 32, 46, 64, 91 for the encoder; the decoder's last bucket from 113.
        QCOMPARE(json.value(u"last_bucket_start"_s).toInteger(), causal ? 113 : 91);
        if (!causal)
            QCOMPARE(got, (QList<qint64> {8, 12, 16, 23, 32, 46, 64, 91}));
        QCOMPARE(empty, 0);
    }
    if (maxDistance == 17)
        QCOMPARE(empty, 14);
}

void TestCliDescribe::debertaIsNotCapped()
{
    const Run run
        = CliRun::posenc({u"describe"_s, u"--json"_s, u"--encoding"_s, u"deberta"_s, u"--max-len"_s, u"1001"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(json.value(u"buckets"_s).toInt(), 256);
    QCOMPARE(json.value(u"max_position"_s).toInt(), 512);
    QCOMPARE(json.value(u"mid"_s).toInt(), 128);
    QCOMPARE(json.value(u"log_start"_s).toInt(), 129);
    QCOMPARE(json.value(u"bucket_at_max_position"_s).toInteger(), qint64(debertaref::deberta(512, 256, 512).value));
    QCOMPARE(json.value(u"bucket_at_max_position"_s).toInt(), 256);
    // Not capped: the bucket of 1000 is 317, past 2 mid - 1 = 255.
    QCOMPARE(json.value(u"bucket_at_max_len"_s).toInteger(), qint64(debertaref::deberta(1000, 256, 512).value));
    QCOMPARE(json.value(u"bucket_at_max_len"_s).toInt(), 317);
    QVERIFY(json.value(u"capped"_s).isBool());
    QCOMPARE(json.value(u"capped"_s).toBool(), false);
    const Run text = CliRun::posenc({u"describe"_s, u"--encoding"_s, u"deberta"_s});
    QCOMPARE(valueOf(lines(text.out), u"capped"_s), u"false"_s);
}

void TestCliDescribe::sandwichOddHeadDim()
{
    // Inferred from its flags; NeMo's arange(1, d/2 + 1) takes ceil(d/2) terms, so an odd d's
    // distance 0 (and a causal table after the query) holds 1/2 / (8K/H).
    const QStringList params
        = {u"describe"_s, u"--sandwich-heads"_s, u"12"_s,  u"--sandwich-head"_s, u"3"_s, u"--sandwich-head-dim"_s,
           u"33"_s,       u"--max-len"_s,        u"1000"_s};
    const Run text = CliRun::posenc(params);
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    const auto list = lines(text.out);
    QStringList keys;
    for (const auto &entry : list)
        keys.append(entry.first);
    QCOMPARE(keys,
             (QStringList {u"heads"_s, u"head"_s, u"head_dim"_s, u"mask"_s, u"terms"_s, u"inv_freq_first"_s,
                           u"inv_freq_last"_s, u"scale"_s, u"bias_distance_1"_s, u"farthest_bias"_s, u"far_mean"_s,
                           u"after_query"_s}));
    QCOMPARE(valueOf(list, u"mask"_s), u"causal"_s);
    QCOMPARE(valueOf(list, u"terms"_s), u"17"_s);
    const std::vector<double> w = sandwichref::invFreq(33);
    QCOMPARE(valueOf(list, u"inv_freq_first"_s).toDouble(), w.front());
    QCOMPARE(valueOf(list, u"inv_freq_last"_s).toDouble(), w.back());
    QCOMPARE(valueOf(list, u"scale"_s).toDouble(), 2.0);
    QVERIFY(std::abs(valueOf(list, u"bias_distance_1"_s).toDouble() - sandwichref::bias(12, 3, 33, 1, 0, true))
            < 1e-12);
    QVERIFY(std::abs(valueOf(list, u"farthest_bias"_s).toDouble() - sandwichref::bias(12, 3, 33, 999, 0, true))
            < 1e-12);
    QCOMPARE(valueOf(list, u"after_query"_s).toDouble(), 0.25);
    QCOMPARE(valueOf(list, u"far_mean"_s).toDouble(), -8.25);
}

POSENC_TEST_GUILESS_MAIN(TestCliDescribe)
} // namespace tst_clidescribe
#include "tst_clidescribe.moc"
