// `posenc check --config`'s numbers for the real configs of tests/data/configs (real models'
// config.json, see its README): each layer type's describe keys computed here again from float64
// formulas or taken from the RoPE issue's golden values.
#include "ConfigCheckRun.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_cliconfignumbers {
using namespace CliRun;
using namespace ConfigCheckRun;

class TestCliConfigNumbers : public QObject
{
    Q_OBJECT

private slots:
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
};

void TestCliConfigNumbers::defaultRopeNumbers_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("layerType");
    QTest::addColumn<double>("theta");
    QTest::addColumn<int>("rotary");
    QTest::addColumn<double>("context");
    QTest::newRow("Mistral-7B") << u"Mistral-7B-v0.1"_s << u"sliding_attention"_s << 1e4 << 128 << 32768.0;
    QTest::newRow("Qwen2.5-7B") << u"Qwen2.5-7B-Instruct"_s << u"full_attention"_s << 1e6 << 128 << 32768.0;
    QTest::newRow("Qwen3-8B") << u"Qwen3-8B"_s << u"full_attention"_s << 1e6 << 128 << 40960.0;
    QTest::newRow("gemma-3-1b full") << u"gemma-3-1b-it"_s << u"full_attention"_s << 1e6 << 256 << 32768.0;
    QTest::newRow("gemma-3-1b sliding") << u"gemma-3-1b-it"_s << u"sliding_attention"_s << 1e4 << 256 << 32768.0;
    QTest::newRow("SmolLM3-3B") << u"SmolLM3-3B"_s << u"full_attention"_s << 5e6 << 128 << 65536.0;
    QTest::newRow("gpt-neox-20b") << u"gpt-neox-20b"_s << u"full_attention"_s << 1e4 << 24 << 2048.0;
    QTest::newRow("gpt-j-6b") << u"gpt-j-6b"_s << u"full_attention"_s << 1e4 << 64 << 2048.0;
}

void TestCliConfigNumbers::defaultRopeNumbers()
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

void TestCliConfigNumbers::llama31KeepsBlendsAndDivides()
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

void TestCliConfigNumbers::llama32CountsItsBands()
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

void TestCliConfigNumbers::llama2CriticalDimension()
{
    const Checked c = checkJson(fixture(u"Llama-2-7b-hf"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"critical_dimension"_s).toInt(), 92); // the RoPE issue's golden value
    QCOMPARE(l.value(u"rope_type"_s).toString(), u"default"_s);
    QCOMPARE(l.value(u"max_position_embeddings"_s).toInt(), 4096);
    // The same file without rope_theta (its 4.31-era copies): 10000 assumed, said as a warning.
    QTemporaryDir dir;
    QJsonObject config = TestFiles::jsonObject(fixture(u"Llama-2-7b-hf"_s));
    config.remove(u"rope_theta"_s);
    const Checked absent = checkJson(writeConfig(dir, u"llama2"_s, config));
    QCOMPARE(absent.run.exitCode, 0);
    QCOMPARE(absent.findings(), QStringList {u"warning rope-theta-absent"_s});
    QVERIFY2(absent.message(u"rope-theta-absent"_s).contains(u"10000"_s), qPrintable(absent.run.out));
    QCOMPARE(absent.layer(u"full_attention"_s).value(u"critical_dimension"_s).toInt(), 92);
    QVERIFY2(absent.message(u"rope-theta-absent"_s).contains(u"is absent"_s), qPrintable(absent.run.out));
    // Written as null: read as absent, and said to be null.
    config.insert(u"rope_theta"_s, QJsonValue::Null);
    const Checked null = checkJson(writeConfig(dir, u"llama2-null"_s, config));
    QCOMPARE(null.findings(), QStringList {u"warning rope-theta-absent"_s});
    QVERIFY2(null.message(u"rope-theta-absent"_s).contains(u"rope_theta is null, read as absent"_s),
             qPrintable(null.run.out));
    // More heads than hidden_size holds (hidden_size // heads is 0): the heads refused, in one line,
    // not a head_dim the file does not hold.
    config.insert(u"rope_theta"_s, 10000.0);
    config.insert(u"num_attention_heads"_s, double(std::int64_t(1) << 40));
    const Checked heads = checkJson(writeConfig(dir, u"llama2-heads"_s, config));
    QCOMPARE(heads.run.exitCode, 2);
    QCOMPARE(heads.run.err.trimmed().count(u'\n'), 0);
    QVERIFY2(heads.run.err.contains(u"num_attention_heads: must be a whole number in [1, 4096]"_s),
             qPrintable(heads.run.err));
    QVERIFY2(heads.run.err.contains(u"got 1099511627776"_s), qPrintable(heads.run.err));
}

void TestCliConfigNumbers::llama4ScoutNopeLayersAndEqualBands()
{
    const Checked c = checkJson(fixture(u"Llama-4-Scout-17B-16E"_s));
    const QJsonObject rope = c.layer(u"chunked_attention"_s);
    const QJsonObject nope = c.layer(u"full_attention"_s);
    QCOMPARE(rope.value(u"layers"_s).toArray().size(), 36);
    QCOMPARE(nope.value(u"layers"_s).toArray().size(), 12);
    QCOMPARE(nope.value(u"layers"_s).toArray().first().toInt(), 3);
    QCOMPARE(nope.value(u"encoding"_s).toString(), u"none"_s);
    QCOMPARE(rope.value(u"rope_theta"_s).toDouble(), 500000.0);
    QCOMPARE(rope.value(u"rope_layout"_s).toString(), u"interleaved"_s);
    // Its llama3 scaling (factor 16, low = high = 1, from 8192): the equal bands are a note.
    QVERIFY(c.findings().contains(u"note llama3-low-equals-high"_s));
    // Without rope_theta, Llama4TextConfig's default theta, not 10000.
    QTemporaryDir dir;
    QJsonObject config = TestFiles::jsonObject(fixture(u"Llama-4-Scout-17B-16E"_s));
    config.remove(u"rope_theta"_s);
    const Checked absent = checkJson(writeConfig(dir, u"scout"_s, config));
    QCOMPARE(absent.layer(u"chunked_attention"_s).value(u"rope_theta"_s).toDouble(), 500000.0);
    QVERIFY(absent.message(u"rope-theta-absent"_s).contains(u"500000"_s));
    const Checked &scout = c;
    QCOMPARE(scout.run.exitCode, 0);
    QVERIFY(scout.findings().contains(u"note llama3-low-equals-high"_s));
    const QJsonObject l = scout.layer(u"chunked_attention"_s);
    const auto bands = llama3Bands(500000.0, 128, 8192.0, 1.0, 1.0);
    QCOMPARE(l.value(u"pairs_blended"_s).toInt(), 0);
    QCOMPARE(l.value(u"pairs_kept"_s).toInt(), bands[0]);
    QCOMPARE(l.value(u"pairs_divided"_s).toInt(), bands[2]);
}

void TestCliConfigNumbers::gptOssBandEdgesOnBothLayerTypes()
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

void TestCliConfigNumbers::deepSeekMscalePair()
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

void TestCliConfigNumbers::phi3LongRopeAttentionFactor()
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

void TestCliConfigNumbers::phi4MiniPartialLongRope()
{
    const Checked c = checkJson(fixture(u"Phi-4-mini-instruct"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"rotary_dim"_s).toInt(), 96);
    QCOMPARE(l.value(u"head_dim"_s).toInt(), 128);
    QVERIFY(near(l.value(u"attention_factor"_s).toDouble(), std::sqrt(1.0 + std::log(32.0) / std::log(4096.0))));
    // The long factors apply at 131072 > 4096: the slowest pair 2 pi 10000^(94/96) x 47.77.
    QVERIFY(near(l.value(u"wavelength_max"_s).toDouble(), 2.0 * kPi * std::pow(10000.0, 94.0 / 96.0) * 47.77, 1e-9));
}

void TestCliConfigNumbers::gemma3SlidingLayersOwnTheta()
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

void TestCliConfigNumbers::gemma3V5PerLayerForm()
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

void TestCliConfigNumbers::smolLM3NopeLayers()
{
    const Checked c = checkJson(fixture(u"SmolLM3-3B"_s));
    const QJsonArray nope = c.layer(u"full_attention:nope"_s).value(u"layers"_s).toArray();
    QCOMPARE(nope.size(), 9);
    for (const QJsonValue &l : nope)
        QCOMPARE((l.toInt() + 1) % 4, 0);
    QCOMPARE(c.layer(u"full_attention"_s).value(u"rope_theta"_s).toDouble(), 5e6);
    QVERIFY(c.message(u"nope-layers"_s).contains(u"9 of 36"_s));
}

void TestCliConfigNumbers::qwenYarnBlocks()
{
    QTemporaryDir dir;
    // Qwen2.5's README block: legacy type, and a max_position_embeddings left at the original.
    QJsonObject qwen25 = TestFiles::jsonObject(fixture(u"Qwen2.5-7B-Instruct"_s));
    qwen25.insert(u"rope_scaling"_s, qwen25.value(u"_readme_suggested_yarn"_s).toObject().value(u"rope_scaling"_s));
    const Checked a = checkJson(writeConfig(dir, u"qwen25"_s, qwen25));
    QCOMPARE(a.run.exitCode, 0);
    QCOMPARE(a.findings(), (QStringList {u"note yarn-context-not-extended"_s, u"warning legacy-type-key"_s}));
    // Qwen3's docs block added without max_position_embeddings: 40960 / 32768 is not 4.
    QJsonObject qwen3 = TestFiles::jsonObject(fixture(u"Qwen3-8B"_s));
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

void TestCliConfigNumbers::mrope()
{
    // Qwen2-VL's layers turn by M-RoPE (MropeConfig): its describe keys, the sections chunked.
    const Checked c = checkJson(fixture(u"Qwen2-VL-7B-Instruct"_s));
    const QJsonObject l = c.layer(u"full_attention"_s);
    QCOMPARE(l.value(u"encoding"_s).toString(), u"mrope"_s);
    QCOMPARE(l.value(u"rope_theta"_s).toDouble(), 1e6);
    QCOMPARE(l.value(u"mrope_section"_s).toArray(), (QJsonArray {16, 24, 24}));
    QCOMPARE(l.value(u"mrope_interleaved"_s).toBool(), false);
    QCOMPARE(l.value(u"rotary_dim"_s).toInt(), 128);
    QCOMPARE(l.value(u"pairs_w"_s).toInt(), 24);
    QCOMPARE(l.value(u"fastest_pair_w"_s).toInt(), 40); // the width's 24 pairs are the last: 40 ... 63
    QCOMPARE(l.value(u"vision_positions"_s).toString(), u"qwen2-vl"_s);
    QCOMPARE(l.value(u"mrope_era"_s).toString(), u"v4"_s); // the config names no transformers_version
    QVERIFY(c.message(u"mrope-vision-positions"_s).contains(u"[16, 24, 24]"_s));
    // Sections that do not add up to the 64 pairs are an error.
    QTemporaryDir dir;
    QJsonObject config = TestFiles::jsonObject(fixture(u"Qwen2-VL-7B-Instruct"_s));
    config.insert(u"rope_scaling"_s,
                  QJsonObject {{u"type"_s, u"mrope"_s}, {u"mrope_section"_s, QJsonArray {16, 24, 16}}});
    const Checked bad = checkJson(writeConfig(dir, u"qwen2vl"_s, config));
    QCOMPARE(bad.run.exitCode, 1);
    QVERIFY(bad.findings().contains(u"error mrope-section-sum"_s));
}

void TestCliConfigNumbers::gptNeoXAndGptJPartialRotary()
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
    QJsonObject config = TestFiles::jsonObject(fixture(u"pythia-160m"_s));
    config.remove(u"rotary_pct"_s);
    const Checked bare = checkJson(writeConfig(dir, u"pythia"_s, config));
    QCOMPARE(bare.findings(), QStringList {u"warning implicit-default"_s});
    QCOMPARE(bare.layer(u"full_attention"_s).value(u"rotary_dim"_s).toInt(), 16);
}

void TestCliConfigNumbers::nonRotaryFamilies()
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

POSENC_TEST_GUILESS_MAIN(TestCliConfigNumbers)
} // namespace tst_cliconfignumbers
#include "tst_cliconfignumbers.moc"
