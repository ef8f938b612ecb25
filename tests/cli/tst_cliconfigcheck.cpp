// `posenc check --config` as scripts meet it: every config of tests/data/configs (real models'
// config.json, see its README) prints its layer types with describe's numbers, computed here again
// from float64 formulas or taken from the RoPE issue's golden values, and the findings each should
// have; configs with each mistake name it; hostile files exit 2 or 3 with a message, never crash.
#include "CliRun.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

const double kPi = std::numbers::pi;

QString fixture(const QString &name)
{
    return QStringLiteral(POSENC_CONFIGS) + u'/' + name + u".json"_s;
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(file.readAll()).object();
}

struct Checked
{
    Run run;
    QJsonObject json;

    QJsonObject layer(const QString &type) const
    {
        for (const QJsonValue &l : json.value(u"layers"_s).toArray()) {
            if (l.toObject().value(u"layer_type"_s).toString() == type)
                return l.toObject();
        }
        return {};
    }
    QStringList layerTypes() const
    {
        QStringList types;
        for (const QJsonValue &l : json.value(u"layers"_s).toArray())
            types.append(l.toObject().value(u"layer_type"_s).toString());
        return types;
    }
    // "severity id" of every finding, sorted.
    QStringList findings() const
    {
        QStringList list;
        for (const QJsonValue &f : json.value(u"findings"_s).toArray())
            list.append(f.toObject().value(u"severity"_s).toString() + u' ' + f.toObject().value(u"id"_s).toString());
        list.removeDuplicates();
        list.sort();
        return list;
    }
    QString message(const QString &id) const
    {
        for (const QJsonValue &f : json.value(u"findings"_s).toArray()) {
            if (f.toObject().value(u"id"_s).toString() == id)
                return f.toObject().value(u"message"_s).toString();
        }
        return {};
    }
};

Checked checkJson(const QString &path, const QStringList &more = {})
{
    Checked c;
    c.run = posenc(QStringList {u"check"_s, u"--config"_s, path, u"--json"_s} + more);
    c.json = QJsonDocument::fromJson(c.run.out.toUtf8()).object();
    return c;
}

QString writeConfig(const QTemporaryDir &dir, const QString &name, const QJsonObject &config)
{
    const QString path = dir.filePath(name + u".json"_s);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(QJsonDocument(config).toJson());
    return path;
}

bool near(double a, double b, double relative = 1e-12)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

// pair i's wavelength 2 pi theta^(2i/r): llama3's bands (kept below original/high, divided above
// original/low, blended between), counted from float64 here.
std::array<int, 3> llama3Bands(double theta, int rotary, double original, double low, double high)
{
    std::array<int, 3> bands {0, 0, 0};
    for (int i = 0; i < rotary / 2; ++i) {
        const double wavelength = 2.0 * kPi * std::pow(theta, 2.0 * i / rotary);
        if (wavelength < original / high)
            ++bands[0];
        else if (wavelength > original / low)
            ++bands[2];
        else
            ++bands[1];
    }
    return bands;
}

// Liu et al. 2023's critical dimension, 2 ceil((r/2) log_theta(L0 / 2 pi)), clamped to [0, r].
int criticalDimension(int rotary, double theta, double context)
{
    const double turns = rotary / 2.0 * std::log(context / (2.0 * kPi)) / std::log(theta);
    return int(std::clamp(2.0 * std::ceil(turns), 0.0, double(rotary)));
}

} // namespace

class TestCliConfigCheck : public QObject
{
    Q_OBJECT

private slots:
    void everySharedConfigIsRead_data();
    void everySharedConfigIsRead();
    void defaultRopeNumbers_data();
    void defaultRopeNumbers();
    void llama31KeepsBlendsAndDivides();
    void llama32CountsItsBands();
    void llama2CriticalDimension();
    void llama4ScoutNopeLayersAndEqualBands();
    void gptOssBandEdgesOnBothLayerTypes();
    void deepSeekMscalePair();
    void phi3LongRopeAttentionFactor();
    void phi4MiniPartialLongRope();
    void gemma3SlidingLayersOwnTheta();
    void gemma3V5PerLayerForm();
    void smolLM3NopeLayers();
    void qwenYarnBlocks();
    void mrope();
    void gptNeoXAndGptJPartialRotary();
    void nonRotaryFamilies();
    void mistakesAreNamed_data();
    void mistakesAreNamed();
    void textOutputHasBlocksAndFindings();
    void layerTypeFilters();
    void hostileConfigs_data();
    void hostileConfigs();
    void hugeFileIsRefusedUnread();
    void openNeedsRope();
    void openShowsTheWindow();
    void openPrintsTheReportBeforeTheWindow();
    void helpListsTheFindings();
};

void TestCliConfigCheck::everySharedConfigIsRead_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("layerTypes");
    QTest::addColumn<QStringList>("findings");
    const auto row = [](const char *name, int exitCode, const QStringList &types, const QStringList &findings) {
        QStringList sorted = findings;
        sorted.sort();
        QTest::newRow(name) << QString::fromLatin1(name) << exitCode << types << sorted;
    };
    row("Llama-2-7b-hf", 0, {u"full_attention"_s}, {});
    row("Meta-Llama-3.1-8B", 0, {u"full_attention"_s}, {});
    row("Llama-4-Scout-17B-16E", 0, {u"chunked_attention"_s, u"full_attention"_s},
        {u"warning rope-theta-absent"_s, u"note nope-layers"_s, u"note interleaved-pairs"_s});
    row("Mistral-7B-v0.1", 0, {u"sliding_attention"_s}, {});
    row("Phi-3-mini-128k-instruct", 0, {u"full_attention"_s},
        {u"warning legacy-type-key"_s, u"warning longrope-factor-from-context"_s});
    row("Qwen2-VL-7B-Instruct", 0, {u"full_attention"_s},
        {u"warning legacy-type-key"_s, u"note mrope-text-positions"_s});
    row("Qwen2.5-7B-Instruct", 0, {u"full_attention"_s}, {});
    row("Qwen3-8B", 0, {u"full_attention"_s}, {});
    row("SmolLM3-3B", 0, {u"full_attention"_s, u"full_attention:nope"_s}, {u"note nope-layers"_s});
    row("gemma-3-1b-it", 0, {u"sliding_attention"_s, u"full_attention"_s}, {u"note sliding-layers-own-theta"_s});
    row("gemma-3-4b-it", 0, {u"sliding_attention"_s, u"full_attention"_s}, {u"note sliding-layers-own-theta"_s});
    row("gpt-j-6b", 0, {u"full_attention"_s}, {u"note interleaved-pairs"_s});
    row("gpt-neox-20b", 0, {u"full_attention"_s}, {});
    row("pythia-160m", 0, {u"full_attention"_s}, {});
    row("bloom-560m", 0, {u"full_attention"_s}, {});
    row("mpt-7b", 0, {u"full_attention"_s}, {u"note learned-pos-emb-ignored"_s});
    row("t5-base", 0, {u"encoder"_s, u"decoder"_s}, {u"warning model-type-missing"_s, u"warning implicit-default"_s});
    row("flan-t5-base", 0, {u"encoder"_s, u"decoder"_s}, {u"warning implicit-default"_s});
    row("deberta-v3-base", 0, {u"attention"_s}, {});
    row("gpt2", 0, {u"input"_s}, {});
    row("bert-base-uncased", 0, {u"input"_s}, {});
    row("roberta-base", 0, {u"input"_s}, {u"note learned-offset"_s});
    row("whisper-small", 0, {u"encoder"_s, u"decoder"_s}, {u"note half-dim-minus-one"_s});
    row("DeepSeek-V3", 0, {u"full_attention"_s},
        {u"warning legacy-type-key"_s, u"note mscale-pair"_s, u"note interleaved-pairs"_s});
    row("gpt-oss-20b", 0, {u"sliding_attention"_s, u"full_attention"_s}, {});
    row("Phi-4-mini-instruct", 0, {u"full_attention"_s},
        {u"warning legacy-type-key"_s, u"warning longrope-factor-from-context"_s});
    row("Llama-3.2-1B", 0, {u"full_attention"_s}, {});
    row("gemma-3-4b-it-v5", 0, {u"sliding_attention"_s, u"full_attention"_s},
        {u"note sliding-layers-own-theta"_s, u"note rope-parameters-v5-form"_s});
}

void TestCliConfigCheck::everySharedConfigIsRead()
{
    QFETCH(QString, name);
    QFETCH(int, exitCode);
    QFETCH(QStringList, layerTypes);
    QFETCH(QStringList, findings);
    const Checked c = checkJson(fixture(name));
    QVERIFY2(c.run.exitCode == exitCode, qPrintable(c.run.err + c.run.out));
    QVERIFY2(!c.json.isEmpty(), qPrintable(c.run.out));
    QCOMPARE(c.layerTypes(), layerTypes);
    QCOMPARE(c.findings(), findings);
    // Every layer has the keys of posenc describe --json for its family.
    const QHash<QString, QStringList> describeKeys {
        {u"rope"_s,
         {u"rope_type"_s, u"rotary_dim"_s, u"attention_factor"_s, u"logit_scale"_s, u"critical_dimension"_s}},
        {u"alibi"_s, {u"heads"_s, u"slope"_s, u"slopes"_s, u"half_weight_distance"_s}},
        {u"t5"_s, {u"buckets"_s, u"max_distance"_s, u"side_buckets"_s, u"max_exact"_s}},
        {u"deberta"_s, {u"buckets"_s, u"max_position"_s, u"mid"_s}}};
    for (const QJsonValue &l : c.json.value(u"layers"_s).toArray()) {
        const QJsonObject layer = l.toObject();
        const QString encoding = layer.value(u"encoding"_s).toString();
        for (const QString &key :
             QStringList {u"layer_type"_s, u"layers"_s, u"encoding"_s, u"described"_s} + describeKeys.value(encoding)) {
            QVERIFY2(layer.contains(key), qPrintable(name + u": "_s + key));
            QVERIFY2(!layer.value(key).isNull(), qPrintable(name + u": "_s + key));
        }
        QVERIFY(layer.value(u"described"_s).toBool());
        if (encoding != u"rope"_s)
            QVERIFY(!layer.contains(u"rope_type"_s));
    }
}

void TestCliConfigCheck::defaultRopeNumbers_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("layerType");
    QTest::addColumn<double>("theta");
    QTest::addColumn<int>("rotary");
    QTest::addColumn<double>("context");
    QTest::newRow("Mistral-7B") << u"Mistral-7B-v0.1"_s << u"sliding_attention"_s << 1e4 << 128 << 32768.0;
    QTest::newRow("Qwen2.5-7B") << u"Qwen2.5-7B-Instruct"_s << u"full_attention"_s << 1e6 << 128 << 32768.0;
    QTest::newRow("Qwen3-8B") << u"Qwen3-8B"_s << u"full_attention"_s << 1e6 << 128 << 40960.0;
    QTest::newRow("Qwen2-VL-7B") << u"Qwen2-VL-7B-Instruct"_s << u"full_attention"_s << 1e6 << 128 << 32768.0;
    QTest::newRow("gemma-3-1b full") << u"gemma-3-1b-it"_s << u"full_attention"_s << 1e6 << 256 << 32768.0;
    QTest::newRow("gemma-3-1b sliding") << u"gemma-3-1b-it"_s << u"sliding_attention"_s << 1e4 << 256 << 32768.0;
    QTest::newRow("SmolLM3-3B") << u"SmolLM3-3B"_s << u"full_attention"_s << 5e6 << 128 << 65536.0;
    QTest::newRow("gpt-neox-20b") << u"gpt-neox-20b"_s << u"full_attention"_s << 1e4 << 24 << 2048.0;
    QTest::newRow("gpt-j-6b") << u"gpt-j-6b"_s << u"full_attention"_s << 1e4 << 64 << 2048.0;
    QTest::newRow("Llama-4-Scout as shipped")
        << u"Llama-4-Scout-17B-16E"_s << u"chunked_attention"_s << 5e5 << 128 << 262144.0;
}

void TestCliConfigCheck::defaultRopeNumbers()
{
    QFETCH(QString, name);
    QFETCH(QString, layerType);
    QFETCH(double, theta);
    QFETCH(int, rotary);
    QFETCH(double, context);
    const QJsonObject l = checkJson(fixture(name)).layer(layerType);
    QCOMPARE(l.value(u"rope_type"_s).toString(), u"default"_s);
    QCOMPARE(l.value(u"rope_theta"_s).toDouble(), theta);
    QCOMPARE(l.value(u"rotary_dim"_s).toInt(), rotary);
    QCOMPARE(l.value(u"attention_factor"_s).toDouble(), 1.0);
    QCOMPARE(l.value(u"wavelength_min"_s).toDouble(), 2.0 * kPi);
    QVERIFY(near(l.value(u"wavelength_max"_s).toDouble(), 2.0 * kPi * std::pow(theta, (rotary - 2.0) / rotary)));
    QCOMPARE(l.value(u"critical_dimension"_s).toInt(), criticalDimension(rotary, theta, context));
    QCOMPARE(l.value(u"frequencies_context"_s).toDouble(), context);
}

void TestCliConfigCheck::llama31KeepsBlendsAndDivides()
{
    const Checked c = checkJson(fixture(u"Meta-Llama-3.1-8B"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"rope_type"_s).toString(), u"llama3"_s);
    QCOMPARE(l.value(u"head_dim"_s).toInt(), 128); // hidden_size / num_attention_heads
    QCOMPARE(l.value(u"rope_theta"_s).toDouble(), 500000.0);
    // The RoPE issue's golden numbers.
    QCOMPARE(l.value(u"pairs_kept"_s).toInt(), 29);
    QCOMPARE(l.value(u"pairs_blended"_s).toInt(), 6);
    QCOMPARE(l.value(u"pairs_divided"_s).toInt(), 29);
    QCOMPARE(l.value(u"frequencies_context"_s).toInt(), 8192);
    QCOMPARE(l.value(u"critical_dimension"_s).toInt(), criticalDimension(128, 500000.0, 8192.0));
    QCOMPARE(l.value(u"layers"_s).toArray().size(), 32);
}

void TestCliConfigCheck::llama32CountsItsBands()
{
    const Checked c = checkJson(fixture(u"Llama-3.2-1B"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    const auto bands = llama3Bands(500000.0, 64, 8192.0, 1.0, 4.0);
    QCOMPARE(l.value(u"rotary_dim"_s).toInt(), 64);
    QCOMPARE(l.value(u"pairs_kept"_s).toInt(), bands[0]);
    QCOMPARE(l.value(u"pairs_blended"_s).toInt(), bands[1]);
    QCOMPARE(l.value(u"pairs_divided"_s).toInt(), bands[2]);
    QCOMPARE(l.value(u"factor"_s).toDouble(), 32.0);
    // The slowest pair after scaling: 2 pi 500000^(62/64), divided by 32.
    QVERIFY(near(l.value(u"wavelength_max"_s).toDouble(), 2.0 * kPi * std::pow(500000.0, 62.0 / 64.0) * 32.0));
}

void TestCliConfigCheck::llama2CriticalDimension()
{
    const Checked c = checkJson(fixture(u"Llama-2-7b-hf"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"critical_dimension"_s).toInt(), 92); // the RoPE issue's golden value
    QCOMPARE(l.value(u"rope_type"_s).toString(), u"default"_s);
    QCOMPARE(l.value(u"max_position_embeddings"_s).toInt(), 4096);
    // The same file without rope_theta (its 4.31-era copies): 10000 assumed, said as a warning.
    QTemporaryDir dir;
    QJsonObject config = readJson(fixture(u"Llama-2-7b-hf"_s));
    config.remove(u"rope_theta"_s);
    const Checked absent = checkJson(writeConfig(dir, u"llama2"_s, config));
    QCOMPARE(absent.run.exitCode, 0);
    QCOMPARE(absent.findings(), QStringList {u"warning rope-theta-absent"_s});
    QVERIFY2(absent.message(u"rope-theta-absent"_s).contains(u"10000"_s), qPrintable(absent.run.out));
    QCOMPARE(absent.layer(u"full_attention"_s).value(u"critical_dimension"_s).toInt(), 92);
}

void TestCliConfigCheck::llama4ScoutNopeLayersAndEqualBands()
{
    const Checked c = checkJson(fixture(u"Llama-4-Scout-17B-16E"_s));
    const QJsonObject rope = c.layer(u"chunked_attention"_s);
    const QJsonObject nope = c.layer(u"full_attention"_s);
    QCOMPARE(rope.value(u"layers"_s).toArray().size(), 36);
    QCOMPARE(nope.value(u"layers"_s).toArray().size(), 12);
    QCOMPARE(nope.value(u"layers"_s).toArray().first().toInt(), 3);
    QCOMPARE(nope.value(u"encoding"_s).toString(), u"none"_s);
    // Llama4TextConfig's default theta, not 10000.
    QCOMPARE(rope.value(u"rope_theta"_s).toDouble(), 500000.0);
    QVERIFY(c.message(u"rope-theta-absent"_s).contains(u"500000"_s));
    QCOMPARE(rope.value(u"rope_layout"_s).toString(), u"interleaved"_s);
    // With the fixture's inferred rope_scaling (Meta's Scout constants): low = high = 1 is a note.
    QTemporaryDir dir;
    QJsonObject config = readJson(fixture(u"Llama-4-Scout-17B-16E"_s));
    const QJsonObject inferred = config.value(u"_inferred"_s).toObject();
    for (const QString &key : {u"rope_scaling"_s, u"rope_theta"_s, u"num_attention_heads"_s, u"num_hidden_layers"_s})
        config.insert(key, inferred.value(key));
    const Checked scout = checkJson(writeConfig(dir, u"scout"_s, config));
    QCOMPARE(scout.run.exitCode, 0);
    QVERIFY(scout.findings().contains(u"note llama3-low-equals-high"_s));
    const QJsonObject l = scout.layer(u"chunked_attention"_s);
    const auto bands = llama3Bands(500000.0, 128, 8192.0, 1.0, 1.0);
    QCOMPARE(l.value(u"pairs_blended"_s).toInt(), 0);
    QCOMPARE(l.value(u"pairs_kept"_s).toInt(), bands[0]);
    QCOMPARE(l.value(u"pairs_divided"_s).toInt(), bands[2]);
}

void TestCliConfigCheck::gptOssBandEdgesOnBothLayerTypes()
{
    const Checked c = checkJson(fixture(u"gpt-oss-20b"_s));
    const auto corr = [](double n) { return 64.0 * std::log(4096.0 / (n * 2.0 * kPi)) / (2.0 * std::log(150000.0)); };
    for (const QString &type : {u"sliding_attention"_s, u"full_attention"_s}) {
        const QJsonObject l = c.layer(type);
        QCOMPARE(l.value(u"layers"_s).toArray().size(), 12);
        QVERIFY(near(l.value(u"band_low"_s).toDouble(), corr(32.0)));
        QVERIFY(near(l.value(u"band_high"_s).toDouble(), corr(1.0)));
        QCOMPARE(QString::number(l.value(u"band_low_used"_s).toDouble(), 'f', 3), u"8.093"_s);
        QCOMPARE(QString::number(l.value(u"band_high_used"_s).toDouble(), 'f', 3), u"17.398"_s);
        QVERIFY(near(l.value(u"attention_factor"_s).toDouble(), 0.1 * std::log(32.0) + 1.0));
    }
    QCOMPARE(c.layer(u"sliding_attention"_s).value(u"sliding_window"_s).toInt(), 128);
    QVERIFY(c.layer(u"full_attention"_s).value(u"sliding_window"_s).isNull());
}

void TestCliConfigCheck::deepSeekMscalePair()
{
    const Checked c = checkJson(fixture(u"DeepSeek-V3"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    const double m = 0.1 * std::log(40.0) + 1.0;
    QCOMPARE(l.value(u"head_dim"_s).toInt(), 64); // qk_rope_head_dim
    QCOMPARE(l.value(u"attention_factor"_s).toDouble(), 1.0);
    QVERIFY(near(l.value(u"logit_scale"_s).toDouble(), m * m));
    QCOMPARE(QString::number(l.value(u"logit_scale"_s).toDouble(), 'f', 3), u"1.874"_s);
    QVERIFY(c.message(u"mscale-pair"_s).contains(u"softmax"_s));
}

void TestCliConfigCheck::phi3LongRopeAttentionFactor()
{
    const Checked c = checkJson(fixture(u"Phi-3-mini-128k-instruct"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"rope_type"_s).toString(), u"longrope"_s);
    const double expected = std::sqrt(1.0 + std::log(32.0) / std::log(4096.0));
    QVERIFY(near(l.value(u"attention_factor"_s).toDouble(), expected));
    QCOMPARE(QString::number(l.value(u"attention_factor"_s).toDouble(), 'f', 4), u"1.1902"_s);
    QCOMPARE(l.value(u"factor"_s).toDouble(), 32.0);
    QCOMPARE(l.value(u"original_max_position_embeddings"_s).toInt(), 4096);
}

void TestCliConfigCheck::phi4MiniPartialLongRope()
{
    const Checked c = checkJson(fixture(u"Phi-4-mini-instruct"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"rotary_dim"_s).toInt(), 96);
    QCOMPARE(l.value(u"head_dim"_s).toInt(), 128);
    QVERIFY(near(l.value(u"attention_factor"_s).toDouble(), std::sqrt(1.0 + std::log(32.0) / std::log(4096.0))));
    // The long factors apply at 131072 > 4096: the slowest pair 2 pi 10000^(94/96) x 47.77.
    QVERIFY(near(l.value(u"wavelength_max"_s).toDouble(), 2.0 * kPi * std::pow(10000.0, 94.0 / 96.0) * 47.77, 1e-9));
}

void TestCliConfigCheck::gemma3SlidingLayersOwnTheta()
{
    const Checked c = checkJson(fixture(u"gemma-3-4b-it"_s));
    const QJsonObject full = c.layer(u"full_attention"_s);
    const QJsonObject sliding = c.layer(u"sliding_attention"_s);
    QCOMPARE(full.value(u"layers"_s).toArray().size(), 5); // layers 5, 11, 17, 23, 29 of 34
    QCOMPARE(full.value(u"layers"_s).toArray().first().toInt(), 5);
    QCOMPARE(full.value(u"rope_type"_s).toString(), u"linear"_s);
    QCOMPARE(full.value(u"rope_theta"_s).toDouble(), 1e6);
    QCOMPARE(full.value(u"factor"_s).toDouble(), 8.0);
    QCOMPARE(sliding.value(u"rope_type"_s).toString(), u"default"_s);
    QCOMPARE(sliding.value(u"rope_theta"_s).toDouble(), 10000.0);
    QCOMPARE(sliding.value(u"sliding_window"_s).toInt(), 1024);
    QVERIFY(near(full.value(u"wavelength_max"_s).toDouble(), 2.0 * kPi * std::pow(1e6, 254.0 / 256.0) * 8.0));
    QVERIFY(near(sliding.value(u"wavelength_max"_s).toDouble(), 2.0 * kPi * std::pow(1e4, 254.0 / 256.0)));
}

void TestCliConfigCheck::gemma3V5PerLayerForm()
{
    // The same model as transformers 5 saves it: the same numbers.
    const Checked v4 = checkJson(fixture(u"gemma-3-4b-it"_s));
    const Checked v5 = checkJson(fixture(u"gemma-3-4b-it-v5"_s));
    QCOMPARE(v5.json.value(u"text_config"_s).toString(), u"text_config"_s);
    QCOMPARE(v5.json.value(u"model_type"_s).toString(), u"gemma3_text"_s);
    for (const QString &type : {u"full_attention"_s, u"sliding_attention"_s}) {
        for (const QString &key : {u"rope_type"_s, u"rope_theta"_s, u"wavelength_max"_s, u"critical_dimension"_s})
            QCOMPARE(v5.layer(type).value(key), v4.layer(type).value(key));
    }
}

void TestCliConfigCheck::smolLM3NopeLayers()
{
    const Checked c = checkJson(fixture(u"SmolLM3-3B"_s));
    const QJsonArray nope = c.layer(u"full_attention:nope"_s).value(u"layers"_s).toArray();
    QCOMPARE(nope.size(), 9);
    for (const QJsonValue &l : nope)
        QCOMPARE((l.toInt() + 1) % 4, 0);
    QCOMPARE(c.layer(u"full_attention"_s).value(u"rope_theta"_s).toDouble(), 5e6);
    QVERIFY(c.message(u"nope-layers"_s).contains(u"9 of 36"_s));
}

void TestCliConfigCheck::qwenYarnBlocks()
{
    QTemporaryDir dir;
    // Qwen2.5's README block: legacy type, and a max_position_embeddings left at the original.
    QJsonObject qwen25 = readJson(fixture(u"Qwen2.5-7B-Instruct"_s));
    qwen25.insert(u"rope_scaling"_s, qwen25.value(u"_readme_suggested_yarn"_s).toObject().value(u"rope_scaling"_s));
    const Checked a = checkJson(writeConfig(dir, u"qwen25"_s, qwen25));
    QCOMPARE(a.run.exitCode, 0);
    QCOMPARE(a.findings(), (QStringList {u"note yarn-context-not-extended"_s, u"warning legacy-type-key"_s}));
    // Qwen3's docs block added without max_position_embeddings: 40960 / 32768 is not 4.
    QJsonObject qwen3 = readJson(fixture(u"Qwen3-8B"_s));
    const QJsonObject docs = qwen3.value(u"_docs_suggested_yarn"_s).toObject();
    qwen3.insert(u"rope_scaling"_s, docs.value(u"rope_scaling"_s));
    const Checked b = checkJson(writeConfig(dir, u"qwen3"_s, qwen3));
    QCOMPARE(b.findings(), QStringList {u"warning yarn-factor-mismatch"_s});
    QVERIFY2(b.message(u"yarn-factor-mismatch"_s).contains(u"1.25"_s), qPrintable(b.run.out));
    // With the docs' max_position_embeddings too, nothing to say; the ramp edges as HF computes them.
    qwen3.insert(u"max_position_embeddings"_s, docs.value(u"max_position_embeddings"_s));
    const Checked full = checkJson(writeConfig(dir, u"qwen3full"_s, qwen3));
    QCOMPARE(full.findings(), QStringList());
    const double low = std::floor(128.0 * std::log(32768.0 / (32.0 * 2.0 * kPi)) / (2.0 * std::log(1e6)));
    QCOMPARE(full.layer(u"full_attention"_s).value(u"band_low_used"_s).toDouble(), low);
}

void TestCliConfigCheck::mrope()
{
    const Checked c = checkJson(fixture(u"Qwen2-VL-7B-Instruct"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"rope_type"_s).toString(), u"default"_s);
    QCOMPARE(l.value(u"rope_theta"_s).toDouble(), 1e6);
    QVERIFY(c.message(u"mrope-text-positions"_s).contains(u"16, 24, 24"_s));
    // Sections that do not add up to the 64 pairs are an error.
    QTemporaryDir dir;
    QJsonObject config = readJson(fixture(u"Qwen2-VL-7B-Instruct"_s));
    config.insert(u"rope_scaling"_s,
                  QJsonObject {{u"type"_s, u"mrope"_s}, {u"mrope_section"_s, QJsonArray {16, 24, 16}}});
    const Checked bad = checkJson(writeConfig(dir, u"qwen2vl"_s, config));
    QCOMPARE(bad.run.exitCode, 1);
    QVERIFY(bad.findings().contains(u"error mrope-section-sum"_s));
}

void TestCliConfigCheck::gptNeoXAndGptJPartialRotary()
{
    const Checked neox = checkJson(fixture(u"gpt-neox-20b"_s));
    QCOMPARE(neox.layer(u"full_attention"_s).value(u"rotary_dim"_s).toInt(), 24); // int(96 * 0.25)
    QCOMPARE(neox.layer(u"full_attention"_s).value(u"head_dim"_s).toInt(), 96);
    const Checked pythia = checkJson(fixture(u"pythia-160m"_s));
    QCOMPARE(pythia.layer(u"full_attention"_s).value(u"rotary_dim"_s).toInt(), 16);
    QCOMPARE(pythia.layer(u"full_attention"_s).value(u"critical_dimension"_s).toInt(),
             criticalDimension(16, 10000.0, 2048.0));
    const Checked gptj = checkJson(fixture(u"gpt-j-6b"_s));
    const QJsonObject l = gptj.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"rotary_dim"_s).toInt(), 64);
    QCOMPARE(l.value(u"head_dim"_s).toInt(), 256);
    QCOMPARE(l.value(u"rope_layout"_s).toString(), u"interleaved"_s);
    QCOMPARE(l.value(u"max_position_embeddings"_s).toInt(), 2048);
    // Without rotary_pct, GPTNeoXConfig's 0.25 is an implicit default.
    QTemporaryDir dir;
    QJsonObject config = readJson(fixture(u"pythia-160m"_s));
    config.remove(u"rotary_pct"_s);
    const Checked bare = checkJson(writeConfig(dir, u"pythia"_s, config));
    QCOMPARE(bare.findings(), QStringList {u"warning implicit-default"_s});
    QCOMPARE(bare.layer(u"full_attention"_s).value(u"rotary_dim"_s).toInt(), 16);
}

void TestCliConfigCheck::nonRotaryFamilies()
{
    const QJsonObject bloom = checkJson(fixture(u"bloom-560m"_s)).layer(u"full_attention"_s);
    QCOMPARE(bloom.value(u"encoding"_s).toString(), u"alibi"_s);
    QCOMPARE(bloom.value(u"heads"_s).toInt(), 16);
    const QJsonArray slopes = bloom.value(u"slopes"_s).toArray();
    QCOMPARE(slopes.size(), 16);
    for (int k = 1; k <= 16; ++k)
        QVERIFY(near(slopes.at(k - 1).toDouble(), std::pow(2.0, -8.0 * k / 16.0)));
    const QJsonObject mpt = checkJson(fixture(u"mpt-7b"_s)).layer(u"full_attention"_s);
    QCOMPARE(mpt.value(u"heads"_s).toInt(), 32);
    QVERIFY(near(mpt.value(u"slopes"_s).toArray().at(31).toDouble(), std::pow(2.0, -8.0)));
    const Checked t5 = checkJson(fixture(u"t5-base"_s));
    QCOMPARE(t5.layer(u"encoder"_s).value(u"buckets"_s).toInt(), 32);
    QCOMPARE(t5.layer(u"encoder"_s).value(u"max_distance"_s).toInt(), 128);
    QCOMPARE(t5.layer(u"encoder"_s).value(u"max_exact"_s).toInt(), 8); // 32 / 2 / 2
    QCOMPARE(t5.layer(u"decoder"_s).value(u"max_exact"_s).toInt(), 16);
    QCOMPARE(t5.layer(u"encoder"_s).value(u"direction"_s).toString(), u"bidirectional"_s);
    QCOMPARE(t5.layer(u"decoder"_s).value(u"direction"_s).toString(), u"causal"_s);
    QVERIFY(t5.message(u"implicit-default"_s).contains(u"relative_attention_max_distance"_s));
    const QJsonObject deberta = checkJson(fixture(u"deberta-v3-base"_s)).layer(u"attention"_s);
    QCOMPARE(deberta.value(u"position_buckets"_s).toInt(), 256);
    QCOMPARE(deberta.value(u"max_relative_positions"_s).toInt(), 512);
    QCOMPARE(deberta.value(u"pos_att_type"_s).toString(), u"p2c|c2p"_s);
    QCOMPARE(deberta.value(u"buckets"_s).toInt(), 256);
    QCOMPARE(deberta.value(u"max_position"_s).toInt(), 512);
    QCOMPARE(deberta.value(u"mid"_s).toInt(), 128);
    const QJsonObject roberta = checkJson(fixture(u"roberta-base"_s)).layer(u"input"_s);
    QCOMPARE(roberta.value(u"first_position_row"_s).toInt(), 2);
    QCOMPARE(roberta.value(u"positions"_s).toInt(), 512);
    QCOMPARE(roberta.value(u"rows"_s).toInt(), 514);
    QCOMPARE(checkJson(fixture(u"gpt2"_s)).layer(u"input"_s).value(u"rows"_s).toInt(), 1024);
    const QJsonObject bert = checkJson(fixture(u"bert-base-uncased"_s)).layer(u"input"_s);
    QCOMPARE(bert.value(u"rows"_s).toInt(), 512);
    QCOMPARE(bert.value(u"first_position_row"_s).toInt(), 0);
    const Checked flan = checkJson(fixture(u"flan-t5-base"_s));
    QCOMPARE(flan.layer(u"decoder"_s).value(u"buckets"_s).toInt(), 32);
    QCOMPARE(flan.layer(u"decoder"_s).value(u"layers"_s).toArray().size(), 12);
    QVERIFY(flan.message(u"implicit-default"_s).contains(u"relative_attention_num_buckets"_s));
    const Checked whisper = checkJson(fixture(u"whisper-small"_s));
    QCOMPARE(whisper.layer(u"encoder"_s).value(u"encoding"_s).toString(), u"sinusoidal"_s);
    QCOMPARE(whisper.layer(u"encoder"_s).value(u"layout"_s).toString(), u"split"_s);
    QCOMPARE(whisper.layer(u"encoder"_s).value(u"positions"_s).toInt(), 1500);
    QCOMPARE(whisper.layer(u"decoder"_s).value(u"rows"_s).toInt(), 448);
}

void TestCliConfigCheck::mistakesAreNamed_data()
{
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<QString>("finding");
    const QJsonObject llama {{u"model_type"_s, u"llama"_s},          {u"hidden_size"_s, 4096},
                             {u"num_attention_heads"_s, 32},         {u"num_hidden_layers"_s, 4},
                             {u"max_position_embeddings"_s, 131072}, {u"rope_theta"_s, 500000.0}};
    const auto with = [&](const QJsonObject &scaling, const QJsonObject &extra = {}) {
        QJsonObject c = llama;
        c.insert(u"rope_scaling"_s, scaling);
        for (auto it = extra.begin(); it != extra.end(); ++it)
            c.insert(it.key(), it.value());
        return c;
    };
    const QJsonObject llama3 {{u"rope_type"_s, u"llama3"_s},
                              {u"factor"_s, 8.0},
                              {u"low_freq_factor"_s, 1.0},
                              {u"high_freq_factor"_s, 4.0},
                              {u"original_max_position_embeddings"_s, 8192}};
    QJsonObject differ = llama3;
    differ.insert(u"type"_s, u"linear"_s);
    QTest::newRow("type and rope_type") << with(differ) << u"error type-and-rope-type-differ"_s;
    QTest::newRow("unknown type") << with({{u"rope_type"_s, u"ntk"_s}, {u"factor"_s, 2.0}})
                                  << u"error unknown-rope-type"_s;
    QJsonObject noLow = llama3;
    noLow.remove(u"low_freq_factor"_s);
    QTest::newRow("missing key") << with(noLow) << u"error missing-required-key"_s;
    QJsonObject inverted = llama3;
    inverted.insert(u"low_freq_factor"_s, 4.0);
    inverted.insert(u"high_freq_factor"_s, 1.0);
    QTest::newRow("low above high") << with(inverted) << u"error llama3-low-above-high"_s;
    QTest::newRow("odd rotary dim") << QJsonObject {{u"model_type"_s, u"llama"_s},
                                                    {u"head_dim"_s, 100},
                                                    {u"partial_rotary_factor"_s, 0.25},
                                                    {u"rope_theta"_s, 10000.0}}
                                    << u"error odd-rotary-dim"_s;
    QTest::newRow("factor twice") << with(
        {{u"rope_type"_s, u"yarn"_s}, {u"factor"_s, 4.0}, {u"original_max_position_embeddings"_s, 8192}},
        {{u"max_position_embeddings"_s, 131072}})
                                  << u"error factor-applied-twice"_s;
    QTest::newRow("dynamic original") << with(
        {{u"rope_type"_s, u"dynamic"_s}, {u"factor"_s, 2.0}, {u"original_max_position_embeddings"_s, 4096}})
                                      << u"error dynamic-ignores-original"_s;
    QTest::newRow("scaling beside parameters")
        << with({{u"rope_type"_s, u"linear"_s}, {u"factor"_s, 2.0}},
                {{u"rope_parameters"_s, QJsonObject {{u"rope_type"_s, u"linear"_s}, {u"factor"_s, 4.0}}}})
        << u"error rope-scaling-overrides-parameters"_s;
    QTest::newRow("theta twice") << with({{u"rope_type"_s, u"linear"_s}, {u"factor"_s, 2.0}, {u"rope_theta"_s, 1e4}})
                                 << u"error rope-theta-twice"_s;
    // gpt-oss in transformers 5's per-layer form: its truncate false is never read.
    const QJsonObject yarn {{u"rope_type"_s, u"yarn"_s}, {u"factor"_s, 32.0},
                            {u"beta_fast"_s, 32.0},      {u"beta_slow"_s, 1.0},
                            {u"truncate"_s, false},      {u"original_max_position_embeddings"_s, 4096},
                            {u"rope_theta"_s, 150000.0}};
    QJsonObject gemma {{u"model_type"_s, u"gemma3_text"_s},
                       {u"num_hidden_layers"_s, 6},
                       {u"head_dim"_s, 64},
                       {u"rope_parameters"_s,
                        QJsonObject {{u"full_attention"_s, yarn},
                                     {u"sliding_attention"_s, QJsonObject {{u"rope_type"_s, u"default"_s}}}}}};
    QTest::newRow("truncate in layer dict") << gemma << u"error truncate-in-layer-dict"_s;
    QJsonObject mixed = gemma;
    QJsonObject stray = gemma.value(u"rope_parameters"_s).toObject();
    stray.insert(u"truncate"_s, false);
    mixed.insert(u"rope_parameters"_s, stray);
    QJsonObject oss {
        {u"model_type"_s, u"gpt_oss"_s},
        {u"num_hidden_layers"_s, 4},
        {u"rope_theta"_s, 150000.0},
        {u"rope_parameters"_s,
         QJsonObject {{u"full_attention"_s, yarn}, {u"sliding_attention"_s, yarn}, {u"truncate"_s, false}}}};
    QTest::newRow("truncate outside") << oss << u"error rope-parameters-mixed-keys"_s;
    QJsonObject perLayer = oss;
    perLayer.insert(u"rope_parameters"_s, QJsonObject {{u"full_attention"_s, yarn}, {u"sliding_attention"_s, yarn}});
    QTest::newRow("per-layer dicts, one embedding") << perLayer << u"error per-layer-dicts-unsupported"_s;
    QTest::newRow("mpt alibi bias max") << QJsonObject {{u"model_type"_s, u"mpt"_s},
                                                        {u"n_heads"_s, 16},
                                                        {u"attn_config"_s,
                                                         QJsonObject {{u"alibi"_s, true}, {u"alibi_bias_max"_s, 16}}}}
                                        << u"error mpt-alibi-ignored"_s;
    QTest::newRow("longrope list length") << QJsonObject {{u"model_type"_s, u"phi3"_s},
                                                          {u"hidden_size"_s, 3072},
                                                          {u"num_attention_heads"_s, 32},
                                                          {u"max_position_embeddings"_s, 131072},
                                                          {u"original_max_position_embeddings"_s, 4096},
                                                          {u"rope_scaling"_s,
                                                           QJsonObject {{u"rope_type"_s, u"longrope"_s},
                                                                        {u"short_factor"_s, QJsonArray {1, 1}},
                                                                        {u"long_factor"_s, QJsonArray {2, 2}}}}}
                                          << u"error factor-list-length"_s;
    QTest::newRow("legacy type") << with({{u"type"_s, u"linear"_s}, {u"factor"_s, 2.0}})
                                 << u"warning legacy-type-key"_s;
    // What the fuzzer found: words and keys of the file with a newline stay on the finding's line.
    QTest::newRow("unknown type with an odd character")
        << with({{u"rope_type"_s, u"yarn\u00a0"_s}, {u"factor"_s, 2.0}}) << u"error unknown-rope-type"_s;
    QTest::newRow("key with a newline") << with(
        {{u"rope_type"_s, u"linear"_s}, {u"factor"_s, 2.0}, {u"high_freq_factor\n"_s, 4.0}})
                                        << u"warning unrecognized-rope-key"_s;
    QTest::newRow("yarn mismatch") << with(
        {{u"rope_type"_s, u"yarn"_s}, {u"factor"_s, 4.0}, {u"original_max_position_embeddings"_s, 4096}})
                                   << u"warning yarn-factor-mismatch"_s;
    QTest::newRow("unrecognized key") << with(
        {{u"rope_type"_s, u"linear"_s}, {u"factor"_s, 2.0}, {u"original_max_position_embeddings"_s, 4096}})
                                      << u"warning unrecognized-rope-key"_s;
    QTest::newRow("proportional") << QJsonObject {{u"model_type"_s, u"llama"_s},
                                                  {u"head_dim"_s, 512},
                                                  {u"hidden_size"_s, 2816},
                                                  {u"rope_parameters"_s,
                                                   QJsonObject {{u"rope_type"_s, u"proportional"_s},
                                                                {u"partial_rotary_factor"_s, 0.25},
                                                                {u"rope_theta"_s, 1e6}}}}
                                  << u"note proportional-not-partial"_s;
}

void TestCliConfigCheck::mistakesAreNamed()
{
    QFETCH(QJsonObject, config);
    QFETCH(QString, finding);
    QTemporaryDir dir;
    const Checked c = checkJson(writeConfig(dir, u"config"_s, config));
    QVERIFY2(c.findings().contains(finding), qPrintable(c.run.err + c.run.out));
    QCOMPARE(c.run.exitCode, finding.startsWith(u"error"_s) ? 1 : 0);
    // The message is one line.
    QVERIFY(!c.message(finding.section(u' ', 1)).contains(u'\n'));
}

void TestCliConfigCheck::textOutputHasBlocksAndFindings()
{
    const Run run = posenc({u"check"_s, u"--config"_s, fixture(u"gemma-3-1b-it"_s)});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.err.isEmpty());
    QVERIFY(run.out.contains(u"layer_type: sliding_attention\n"_s));
    QVERIFY(run.out.contains(u"layer_type: full_attention\nlayers: 5, 11, 17, 23 (4)\n"_s));
    QVERIFY(run.out.contains(u"  note sliding-layers-own-theta: "_s));
    QVERIFY(run.out.contains(u"rope_theta: 10000\n"_s));
    QVERIFY(run.out.contains(u"findings: 0 errors, 0 warnings, 1 note\n"_s));
}

void TestCliConfigCheck::layerTypeFilters()
{
    const Checked c = checkJson(fixture(u"gemma-3-1b-it"_s), {u"--layer-type"_s, u"full_attention"_s});
    QCOMPARE(c.layerTypes(), QStringList {u"full_attention"_s});
    QCOMPARE(c.findings(), QStringList());
    const Checked bad = checkJson(fixture(u"gemma-3-1b-it"_s), {u"--layer-type"_s, u"global"_s});
    QCOMPARE(bad.run.exitCode, 2);
    QVERIFY2(bad.run.err.contains(u"sliding_attention, full_attention"_s), qPrintable(bad.run.err));
}

void TestCliConfigCheck::hostileConfigs_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("words");
    QTest::newRow("not JSON") << QByteArray("{\"model_type\": \"llama\",\n \"rope_theta\": }") << 3
                              << u"not JSON: object is missing after a comma at byte 40 (line 2, column 17)"_s;
    QTest::newRow("NaN") << QByteArray("{\"rope_theta\": NaN}") << 3 << u"Python's extensions"_s;
    QTest::newRow("array") << QByteArray("[1, 2]") << 3 << u"not a model config"_s;
    QTest::newRow("empty") << QByteArray("") << 3 << u"not JSON"_s;
    QTest::newRow("NUL") << QByteArray("{\"a\": \"b\0c\"}", 12) << 3 << u"NUL byte"_s;
    QTest::newRow("deep") << QByteArray(5000, '[') << 3 << u"not JSON"_s;
    QTest::newRow("factor as text") << QByteArray(
        R"({"model_type": "llama", "rope_scaling": {"rope_type": "linear", "factor": "4"}})")
                                    << 2 << u"rope_scaling.factor: must be a number"_s;
    QTest::newRow("negative theta") << QByteArray(R"({"model_type": "llama", "rope_theta": -10000})") << 2
                                    << u"rope_theta: must be a number in (1, 1e15]; got -10000"_s;
    QTest::newRow("scaling a list") << QByteArray(R"({"model_type": "llama", "rope_scaling": [1, 2]})") << 2
                                    << u"rope_scaling: must be an object or null; got [1,2]"_s;
    QTest::newRow("text_config a number") << QByteArray(R"({"model_type": "gemma3", "text_config": 5})") << 2
                                          << u"text_config: must be an object or null; got 5"_s;
    QTest::newRow("truncate as text") << QByteArray(
        R"({"model_type": "llama", "rope_scaling": {"rope_type": "yarn", "factor": 4, "truncate": "false"}})")
                                      << 2 << u"rope_scaling.truncate: must be true or false; got \"false\""_s;
    QTest::newRow("nested nonsense") << QByteArray(
        R"({"model_type": "gemma3_text", "rope_parameters": {"full_attention": [], "sliding_attention": {"rope_theta": {"a": 1}}}})")
                                     << 2 << u"rope_parameters.full_attention: must be an object or null"_s;
    QTest::newRow("huge head_dim") << QByteArray(R"({"model_type": "llama", "head_dim": 1e300})") << 2
                                   << u"head_dim: must be a whole number"_s;
    QTest::newRow("rope_type with a newline")
        << QByteArray(R"({"model_type": "llama", "rope_scaling": {"rope_type": "yarn\n", "factor": 4}})") << 2
        << u"rope_scaling.rope_type: must be a string of at most 256 characters, without control characters; got "
           "\"yarn\\n\""_s;
    QTest::newRow("control character") << QByteArray("{\"model_type\": \"llama\\u0007\"}") << 2
                                       << u"model_type: must be a string of at most 256 characters"_s;
    QTest::newRow("a million layers") << QByteArray(R"({"model_type": "llama", "num_hidden_layers": 1000000})") << 2
                                      << u"num_hidden_layers: must be a whole number in [1, 65536]; got 1000000"_s;
    QTest::newRow("no model at all") << QByteArray(R"({"hello": "world"})") << 3 << u"model_type"_s;
    // Before: "not JSON: illegal number". JSON allows 1e400; Python's json reads it as infinite.
    QTest::newRow("1e400") << QByteArray(R"({"model_type": "llama", "max_position_embeddings": 1e400})") << 2
                           << u"max_position_embeddings: must be a whole number in [1, 1099511627776]; got 1e400 "
                              "(past a double's range: Python's json reads it as infinite)"_s;
    QTest::newRow("-1e400 in a rope dict")
        << QByteArray(R"({"model_type": "llama", "rope_scaling": {"rope_type": "yarn", "factor": -1e400}})") << 2
        << u"rope_scaling.factor: must be a number; got -1e400 (past a double's range"_s;
    // 1e-400 is 0 to Python, as here: a theta of 0.
    QTest::newRow("1e-400") << QByteArray(R"({"model_type": "llama", "rope_theta": 1e-400})") << 2
                            << u"rope_theta: must be a number in (1, 1e15]; got 0"_s;
    // Before: accepted, "0 errors", where HF's _compute_yarn_parameters cannot compute it
    // (OverflowError in math.floor, or a NaN ramp).
    QTest::newRow("yarn's beta_fast 1e-308")
        << QByteArray(R"({"model_type": "llama", "rope_scaling": {"rope_type": "yarn", "factor": 4,
                          "original_max_position_embeddings": 4096, "beta_fast": 1e-308}})")
        << 2 << u"rope_scaling.beta_fast: must be a number in [1e-6, 1000000]; got 1e-308"_s;
    QTest::newRow("yarn's attention_factor 1e300")
        << QByteArray(R"({"model_type": "llama", "rope_scaling": {"rope_type": "yarn", "factor": 4,
                          "original_max_position_embeddings": 4096, "attention_factor": 1e300}})")
        << 2 << u"rope_scaling.attention_factor: must be a number in (0, 1000000]"_s;
}

void TestCliConfigCheck::hostileConfigs()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, exitCode);
    QFETCH(QString, words);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"config.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    for (const bool json : {false, true}) {
        const Run run = posenc(QStringList {u"check"_s, u"--config"_s, path}
                               + (json ? QStringList {u"--json"_s} : QStringList()));
        QVERIFY2(run.exitCode == exitCode, qPrintable(run.err + run.out));
        QVERIFY2(run.err.contains(words), qPrintable(run.err));
        QVERIFY2(run.err.startsWith(u"posenc check: "_s), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
        // Each refused value is named once: a factor refused for its type is not also "needed".
        QVERIFY2(!run.err.contains(u"needed by"_s), qPrintable(run.err));
    }
}

void TestCliConfigCheck::hugeFileIsRefusedUnread()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"huge.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(qint64(100) << 20)); // sparse: 100 MB of zeros, nothing written
    file.close();
    const Run run = posenc({u"check"_s, u"--config"_s, path});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains(u"104857600 bytes is too large for a model config (at most 4194304 bytes)"_s),
             qPrintable(run.err));
    const Run missing = posenc({u"check"_s, u"--config"_s, dir.filePath(u"none.json"_s)});
    QCOMPARE(missing.exitCode, 3);
    QVERIFY(missing.err.contains(u"no such file"_s));
    const Run directory = posenc({u"check"_s, u"--config"_s, dir.path()});
    QCOMPARE(directory.exitCode, 3);
    QCOMPARE(posenc({u"check"_s}).exitCode, 2);
    QCOMPARE(posenc({u"check"_s, u"--config"_s, path, u"extra"_s}).exitCode, 2);
}

void TestCliConfigCheck::openNeedsRope()
{
    const Run run = posenc({u"check"_s, u"--config"_s, fixture(u"gpt2"_s), u"--open"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"--open: the config has no RoPE layers"_s), qPrintable(run.err));
    const Run nope = posenc({u"check"_s, u"--config"_s, fixture(u"SmolLM3-3B"_s), u"--open"_s, u"--layer-type"_s,
                             u"full_attention:nope"_s});
    QCOMPARE(nope.exitCode, 2);
    QVERIFY2(nope.err.contains(u"has no RoPE (none)"_s), qPrintable(nope.err));
    QCOMPARE(posenc({u"check"_s, u"--config"_s, fixture(u"gpt2"_s), u"--open"_s, u"--json"_s}).exitCode, 2);
}

void TestCliConfigCheck::openShowsTheWindow()
{
    QTemporaryDir dir;
    const QString png = dir.filePath(u"window.png"_s);
    const Run run = posenc({u"check"_s, u"--config"_s, fixture(u"gemma-3-4b-it"_s), u"--open"_s, u"--layer-type"_s,
                            u"sliding_attention"_s, u"--screenshot"_s, png},
                           windowEnvironment(dir.filePath(u"config"_s)));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains(u"layer_type: sliding_attention"_s));
    QVERIFY2(run.err.contains(u"max_len 131072"_s) == false, qPrintable(run.err)); // 131072 is the model's own
    QVERIFY(QFile::exists(png));
}

// The report is what one reads beside the window: on standard output while the window is open.
// Before: it stayed in a buffer until the window was closed.
void TestCliConfigCheck::openPrintsTheReportBeforeTheWindow()
{
    QTemporaryDir dir;
    QProcess process;
    process.setProcessEnvironment(windowEnvironment(dir.filePath(u"config"_s)));
    process.start(QStringLiteral(POSENC_EXECUTABLE),
                  {u"check"_s, u"--config"_s, fixture(u"Meta-Llama-3.1-8B"_s), u"--open"_s});
    QVERIFY(process.waitForStarted());
    QByteArray shown;
    QTRY_VERIFY_WITH_TIMEOUT((shown += process.readAllStandardOutput()).contains("rope_type: llama3"), 60000);
    QCOMPARE(process.state(), QProcess::Running);
    process.kill();
    QVERIFY(process.waitForFinished(60000));
}

void TestCliConfigCheck::helpListsTheFindings()
{
    const Run run = posenc({u"check"_s, u"--help"_s});
    QCOMPARE(run.exitCode, 0);
    for (const QString &id : {u"legacy-type-key"_s, u"truncate-in-layer-dict"_s, u"llama3-low-equals-high"_s,
                              u"mscale-pair"_s, u"nope-layers"_s, u"sliding-layers-own-theta"_s})
        QVERIFY2(run.out.contains(id), qPrintable(id));
    QVERIFY(run.out.contains(u"--layer-type"_s));
}

QTEST_GUILESS_MAIN(TestCliConfigCheck)
#include "tst_cliconfigcheck.moc"
