// Every real config of tests/data/configs read layer by layer as its model's code computes it
// (ModelConfig::check): each layer type's layers, encoding, head, rotary dim, theta, rope_type,
// layout, window or chunk, query scaling and softmax scale, the expectations written here from the
// reference code (HF transformers main at c49429ed, or the model's own code), the numbers from
// float64 formulas. Where the reference differs from what is often said of a model, the row's
// comment says so.
#include "check/ModelConfigCheck.h"
#include "check/models/QueryScale.h"
#include "core/rope/RopeFrequencies.h"
#include "support/RopeReference.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <functional>

namespace tst_modellayers {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Expected
{
    QString type;
    QString encoding;
    std::vector<std::int64_t> layers;
    std::int64_t headDim = 0; // the rotary head (RopeParams::headDim)
    std::int64_t rotaryDim = 0;
    double theta = 0.0;
    QString ropeType; // "default", "yarn", ...
    RopeLayout layout = RopeLayout::Half;
    std::optional<std::int64_t> window;
    std::optional<std::int64_t> chunk;
    std::optional<double> softmax; // what multiplies q.k
    QueryScale query;
    bool bothSides = false;
};

using Layers = QList<Expected>;

std::vector<std::int64_t> where(std::int64_t n, const std::function<bool(std::int64_t)> &keep)
{
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < n; ++i) {
        if (keep(i))
            out.push_back(i);
    }
    return out;
}

std::vector<std::int64_t> all(std::int64_t n)
{
    return where(n, [](std::int64_t) { return true; });
}

Expected rope(const QString &type, std::vector<std::int64_t> layers, std::int64_t head, std::int64_t rotary,
              double theta, const QString &ropeType = u"default"_s, RopeLayout layout = RopeLayout::Half)
{
    Expected e;
    e.type = type;
    e.encoding = u"rope"_s;
    e.layers = std::move(layers);
    e.headDim = head;
    e.rotaryDim = rotary;
    e.theta = theta;
    e.ropeType = ropeType;
    e.layout = layout;
    e.softmax = 1.0 / std::sqrt(double(head));
    return e;
}

Expected other(const QString &type, const QString &encoding, std::vector<std::int64_t> layers,
               std::optional<double> softmax = std::nullopt)
{
    Expected e;
    e.type = type;
    e.encoding = encoding;
    e.layers = std::move(layers);
    e.softmax = softmax;
    return e;
}

Expected mrope(Expected e)
{
    e.encoding = u"mrope"_s;
    return e;
}

Expected with(Expected e, const std::function<void(Expected &)> &change)
{
    change(e);
    return e;
}

QJsonObject readConfig(const QString &name)
{
    QFile file(QStringLiteral(POSENC_CONFIGS) + u'/' + name + u".json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestModelLayers : public QObject
{
    Q_OBJECT

private slots:
    void everyConfigHasARow();
    void layers_data();
    void layers();
    void gemma4FullLayersAreProportionalOver512();
    void deepSeekSoftmaxFollowsItsAttention();
    void unknownTypeIsAGuess();
    void configsHfCannotLoadNameTheKey_data();
    void configsHfCannotLoadNameTheKey();

private:
    QStringList m_rows;
};

void TestModelLayers::everyConfigHasARow()
{
    layers_data();
    const QStringList files = QDir(QStringLiteral(POSENC_CONFIGS)).entryList({u"*.json"_s}, QDir::Files);
    QVERIFY(files.size() >= 40);
    for (const QString &file : files)
        QVERIFY2(m_rows.contains(file.chopped(5)), qPrintable(file));
}

void TestModelLayers::layers_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<Layers>("expected");
    m_rows.clear();
    const auto row = [this](const char *name, const Layers &layers) {
        m_rows.append(QString::fromLatin1(name));
        QTest::newRow(name) << QString::fromLatin1(name) << layers;
    };
    const auto every4 = [](std::int64_t i) { return (i + 1) % 4 != 0; };
    const auto fourth = [](std::int64_t i) { return (i + 1) % 4 == 0; };
    const auto every6 = [](std::int64_t i) { return (i + 1) % 6 != 0; };
    const auto sixth = [](std::int64_t i) { return (i + 1) % 6 == 0; };
    using L = RopeLayout;
    // DeepseekV3Attention: qk_head_dim (128 + 64)^-0.5 times get_mscale(40, mscale_all_dim 1)^2; RoPE on
    // the 64-wide tail, interleaved (rope_interleave true). DeepSeek-V3.2's indexer rotates the first 64 of
    // its 128 columns in rotate_half pairs (DeepseekV32Indexer).
    const double ds = roperef::mscale(40.0, 1.0) * roperef::mscale(40.0, 1.0) / std::sqrt(192.0);
    row("DeepSeek-V3",
        {with(rope(u"full_attention"_s, all(61), 64, 64, 1e4, u"yarn"_s, L::Interleaved),
              [&](Expected &e) { e.softmax = ds; })});
    row("DeepSeek-V3.2-Exp",
        {with(rope(u"full_attention"_s, all(61), 64, 64, 1e4, u"yarn"_s, L::Interleaved),
              [&](Expected &e) { e.softmax = ds; })});
    // Kimi-K2 (remote code, DeepSeek-V3's): yarn 32 with mscale = mscale_all_dim = 1.
    row("Kimi-K2-Instruct",
        {with(rope(u"full_attention"_s, all(61), 64, 64, 50000.0, u"yarn"_s, L::Interleaved), [](Expected &e) {
            e.softmax = roperef::mscale(32.0, 1.0) * roperef::mscale(32.0, 1.0) / std::sqrt(192.0);
        })});
    // Ministral3Attention keeps head_dim^-0.5 and multiplies every query by 1 + 0.1 ln(1 + floor(p / 8192)),
    // L0 the dict's original_max_position_embeddings (8192 here; Ministral3Config's default is 16384).
    row("Devstral-Small-2-24B-Instruct",
        {with(rope(u"full_attention"_s, all(40), 128, 128, 1e8, u"yarn"_s), [](Expected &e) {
            e.query = {QueryScale::Kind::Beta, 0.1, 8192};
        })});
    // Exaone4Attention: RoPE if sliding_window is None or the layer slides: the full layers are NoPE.
    row("EXAONE-4.0-32B",
        {with(rope(u"sliding_attention"_s, where(64, every4), 128, 128, 1e6, u"llama3"_s),
              [](Expected &e) { e.window = 4096; }),
         other(u"full_attention"_s, u"none"_s, where(64, fourth), 1.0 / std::sqrt(128.0))});
    // Glm4MoeConfig: partial_rotary_factor 0.5 of 128, rotate_half (unlike glm/glm4's interleaved pairs).
    row("GLM-4.5", {rope(u"full_attention"_s, all(92), 128, 64, 1e6)});
    row("Llama-2-7b-hf", {rope(u"full_attention"_s, all(32), 128, 128, 1e4)});
    row("Llama-3.2-1B", {rope(u"full_attention"_s, all(16), 64, 64, 5e5, u"llama3"_s)});
    row("Meta-Llama-3.1-8B", {rope(u"full_attention"_s, all(32), 128, 128, 5e5, u"llama3"_s)});
    // Llama 4: no_rope_layers 1 = RoPE; the RoPE layers are chunked (8192), the NoPE layers ((i + 1) % 4
    // == 0) global with the query temperature 1 + 0.1 ln(floor((p + 1) / 8192) + 1).
    row("Llama-4-Scout-17B-16E",
        {with(rope(u"chunked_attention"_s, where(48, every4), 128, 128, 5e5, u"llama3"_s, L::Interleaved),
              [](Expected &e) { e.chunk = 8192; }),
         with(other(u"full_attention"_s, u"none"_s, where(48, fourth), 1.0 / std::sqrt(128.0)), [](Expected &e) {
             e.query = {QueryScale::Kind::Temperature, 0.1, 8192};
         })});
    row("Mistral-7B-v0.1",
        {with(rope(u"sliding_attention"_s, all(32), 128, 128, 1e4), [](Expected &e) { e.window = 4096; })});
    // ModernBertConfig: global every 3rd layer from layer 0 (theta 160000), local ones theta 1e4 with
    // local_attention 128 as 64 each side (the "window of 128" is the whole span).
    row("ModernBERT-base",
        {rope(u"full_attention"_s, where(22, [](std::int64_t i) { return i % 3 == 0; }), 64, 64, 160000.0),
         with(rope(u"sliding_attention"_s, where(22, [](std::int64_t i) { return i % 3 != 0; }), 64, 64, 1e4),
              [](Expected &e) {
                  e.window = 64;
                  e.bothSides = true;
              })});
    row("Phi-3-mini-128k-instruct", {rope(u"full_attention"_s, all(32), 96, 96, 1e4, u"longrope"_s)});
    row("Phi-4-mini-instruct", {rope(u"full_attention"_s, all(32), 128, 96, 1e4, u"longrope"_s)});
    row("phi-4", {rope(u"full_attention"_s, all(40), 128, 128, 250000.0)});
    // Qwen2-VL, Qwen2.5-VL and Qwen3-VL turn by M-RoPE on RoPE's keys (MropeConfig; mropeKeys below).
    row("Qwen2-VL-7B-Instruct", {mrope(rope(u"full_attention"_s, all(28), 128, 128, 1e6))});
    row("Qwen2.5-VL-7B-Instruct", {mrope(rope(u"full_attention"_s, all(28), 128, 128, 1e6))});
    row("Qwen2.5-7B-Instruct", {rope(u"full_attention"_s, all(28), 128, 128, 1e6)});
    row("Qwen3-8B", {rope(u"full_attention"_s, all(36), 128, 128, 1e6)});
    row("Qwen3-VL-8B-Instruct", {mrope(rope(u"full_attention"_s, all(36), 128, 128, 5e6))});
    // Qwen3NextConfig: layer_types from full_attention_interval 4 (the file lists none): three Gated
    // DeltaNet layers, then full attention turning the first 64 of 256 columns.
    row("Qwen3-Next-80B-A3B-Instruct",
        {other(u"linear_attention"_s, u"linear"_s, where(48, every4)),
         rope(u"full_attention"_s, where(48, fourth), 256, 64, 1e7)});
    row("SmolLM3-3B",
        {rope(u"full_attention"_s, where(36, every4), 128, 128, 5e6),
         other(u"full_attention:nope"_s, u"none"_s, where(36, fourth), 1.0 / std::sqrt(128.0))});
    // Cohere2: RoPE only where sliding_window is set, pairs interleaved (rotate_half takes x[..., ::2]).
    row("c4ai-command-r7b-12-2024",
        {with(rope(u"sliding_attention"_s, where(32, every4), 128, 128, 50000.0, u"default"_s, L::Interleaved),
              [](Expected &e) { e.window = 4096; }),
         other(u"full_attention"_s, u"none"_s, where(32, fourth), 1.0 / std::sqrt(128.0))});
    // Gemma 3: local theta 1e4 (rope_local_base_freq), global 1e6, linear 8 on the global layers only;
    // softmax query_pre_attn_scalar^-0.5 = 256^-0.5.
    row("gemma-3-1b-it",
        {with(rope(u"sliding_attention"_s, where(26, every6), 256, 256, 1e4), [](Expected &e) { e.window = 512; }),
         rope(u"full_attention"_s, where(26, sixth), 256, 256, 1e6)});
    for (const char *name : {"gemma-3-4b-it", "gemma-3-4b-it-v5"})
        row(name,
            {with(rope(u"sliding_attention"_s, where(34, every6), 256, 256, 1e4), [](Expected &e) { e.window = 1024; }),
             rope(u"full_attention"_s, where(34, sixth), 256, 256, 1e6, u"linear"_s)});
    // Gemma 4: the full layers at global_head_dim 512 with proportional RoPE (rotary_dim is the whole head,
    // a zero-frequency tail); softmax scale 1 (q and k RMS-normed).
    row("gemma-4-31B-it",
        {with(rope(u"sliding_attention"_s, where(60, every6), 256, 256, 1e4),
              [](Expected &e) {
                  e.window = 1024;
                  e.softmax = 1.0;
              }),
         with(rope(u"full_attention"_s, where(60, sixth), 512, 512, 1e6, u"proportional"_s),
              [](Expected &e) { e.softmax = 1.0; })});
    row("gpt-j-6b", {rope(u"full_attention"_s, all(28), 256, 64, 1e4, u"default"_s, L::Interleaved)});
    row("gpt-neox-20b", {rope(u"full_attention"_s, all(44), 96, 24, 1e4)});
    row("pythia-160m", {rope(u"full_attention"_s, all(12), 64, 16, 1e4)});
    // GptOssConfig: even layers slide (128), odd ones are full; both yarn 32.
    row("gpt-oss-20b",
        {with(rope(u"sliding_attention"_s, where(24, [](std::int64_t i) { return i % 2 == 0; }), 64, 64, 150000.0,
                   u"yarn"_s),
              [](Expected &e) { e.window = 128; }),
         rope(u"full_attention"_s, where(24, [](std::int64_t i) { return i % 2 == 1; }), 64, 64, 150000.0, u"yarn"_s)});
    row("bloom-560m", {other(u"full_attention"_s, u"alibi"_s, all(24))});
    row("mpt-7b", {other(u"full_attention"_s, u"alibi"_s, all(32))});
    for (const char *name : {"t5-base", "flan-t5-base"})
        row(name, {other(u"encoder"_s, u"t5"_s, all(12)), other(u"decoder"_s, u"t5"_s, all(12))});
    row("deberta-v3-base", {other(u"attention"_s, u"deberta"_s, all(12))});
    for (const char *name : {"gpt2", "bert-base-uncased", "roberta-base"})
        row(name, {other(u"input"_s, u"learned"_s, all(12))});
    row("whisper-small", {other(u"encoder"_s, u"sinusoidal"_s, all(12)), other(u"decoder"_s, u"learned"_s, all(12))});
    row("whisper-large-v3",
        {other(u"encoder"_s, u"sinusoidal"_s, all(32)), other(u"decoder"_s, u"learned"_s, all(32))});
}

void TestModelLayers::layers()
{
    QFETCH(QString, name);
    QFETCH(Layers, expected);
    const ConfigCheck check = ModelConfig::check(readConfig(name));
    QVERIFY2(check.problems.isEmpty(), qPrintable(check.problems.value(0).toString()));
    QVERIFY(!check.hasError());
    QCOMPARE(check.layers.size(), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const Expected &e = expected[i];
        const ConfigLayer &l = check.layers[i];
        const QByteArray where = (name + u' ' + e.type).toUtf8();
        QVERIFY2(l.layerType == e.type, where);
        QVERIFY2(l.scheme.encoding == e.encoding, where + ": " + l.scheme.encoding.toUtf8());
        QVERIFY2(l.layers == e.layers, where);
        QVERIFY2(l.described, where);
        QVERIFY2(l.scheme.window == e.window && l.scheme.windowBothSides == e.bothSides, where);
        QVERIFY2(l.scheme.chunk == e.chunk, where);
        QVERIFY2(l.scheme.query == e.query, where);
        QVERIFY2(l.scheme.softmaxScale.has_value() == e.softmax.has_value(), where);
        if (e.softmax)
            QVERIFY2(std::abs(*l.scheme.softmaxScale - *e.softmax) <= 1e-15 * *e.softmax, where);
        if (e.encoding != u"rope"_s && e.encoding != u"mrope"_s)
            continue;
        const RopeParams &r = l.params.rope;
        QVERIFY2(l.params.encoding == (e.encoding == u"rope"_s ? Encoding::Rope : Encoding::Mrope), where);
        QVERIFY2(l.params.isValid(), where);
        QVERIFY2(r.headDim == e.headDim, where);
        QVERIFY2(RopeFrequencies::rotaryDim(r) == e.rotaryDim, where);
        QVERIFY2(r.theta == e.theta, where);
        QVERIFY2(r.layout == e.layout, where);
        const QStringList words {u"default"_s,  u"linear"_s, u"dynamic"_s,     u"yarn"_s,
                                 u"longrope"_s, u"llama3"_s, u"proportional"_s};
        QVERIFY2(words.value(int(r.type)) == e.ropeType, where);
    }
}

void TestModelLayers::gemma4FullLayersAreProportionalOver512()
{
    // _compute_proportional_rope_parameters: int(0.25 * 512 // 2) = 64 pairs at theta^(-2i/512), the
    // other 192 at frequency 0; the sliding layers turn all 128 pairs of their 256 at 1e4^(-2i/256).
    const ConfigCheck check = ModelConfig::check(readConfig(u"gemma-4-31B-it"_s));
    const ConfigLayer *full = check.layer(u"full_attention"_s);
    const ConfigLayer *sliding = check.layer(u"sliding_attention"_s);
    QVERIFY(full && sliding);
    const std::vector<double> inv = RopeFrequencies::table(full->params).inv;
    QCOMPARE(inv.size(), std::size_t(256));
    for (std::size_t i = 0; i < inv.size(); ++i) {
        const double expected = i < 64 ? std::pow(1e6, -2.0 * double(i) / 512.0) : 0.0;
        QVERIFY2(std::abs(inv[i] - expected) <= 1e-15 * std::max(expected, 1e-300), qPrintable(QString::number(i)));
    }
    const std::vector<double> local = RopeFrequencies::table(sliding->params).inv;
    QCOMPARE(local.size(), std::size_t(128));
    for (std::size_t i = 0; i < local.size(); ++i)
        QVERIFY(std::abs(local[i] - std::pow(1e4, -2.0 * double(i) / 256.0)) <= 1e-15 * local[i]);
    QCOMPARE(full->scheme.rotaryPlace, u"proportional"_s);
    QCOMPARE(full->scheme.headDim, 512);
    QCOMPARE(sliding->scheme.headDim, 256);
}

void TestModelLayers::deepSeekSoftmaxFollowsItsAttention()
{
    // MLA's softmax takes yarn's temperature; Ministral 3's keeps head_dim^-0.5 although its dict has
    // the same mscale pair (Ministral3Attention). Since HF PR #47435 DeepSeek-V2 follows V3 (the issue's
    // "DeepSeek-V2 keeps head_dim^-0.5" predates it).
    const ConfigCheck deepseek = ModelConfig::check(readConfig(u"DeepSeek-V3"_s));
    QCOMPARE(deepseek.layers.first().scheme.mscaleFactor, roperef::mscale(40.0, 1.0) * roperef::mscale(40.0, 1.0));
    QCOMPARE(deepseek.layers.first().scheme.rotaryPlace, u"mla-tail"_s);
    QCOMPARE(deepseek.layers.first().scheme.headDim, 192);
    const ConfigCheck devstral = ModelConfig::check(readConfig(u"Devstral-Small-2-24B-Instruct"_s));
    QCOMPARE(devstral.layers.first().scheme.mscaleFactor, 1.0);
    QJsonObject v2 = readConfig(u"DeepSeek-V3"_s);
    v2.insert(u"model_type"_s, u"deepseek_v2"_s);
    QCOMPARE(ModelConfig::check(v2).layers.first().scheme.mscaleFactor,
             roperef::mscale(40.0, 1.0) * roperef::mscale(40.0, 1.0));
    const ConfigCheck v32 = ModelConfig::check(readConfig(u"DeepSeek-V3.2-Exp"_s));
    QCOMPARE(v32.layers.first().scheme.indexerHeadDim, 128);
    QCOMPARE(v32.layers.first().scheme.indexerRotaryDim, 64);
    QCOMPARE(v32.layers.first().scheme.indexerLayout, u"half"_s);
}

void TestModelLayers::unknownTypeIsAGuess()
{
    QJsonObject config = readConfig(u"Qwen3-8B"_s);
    config.insert(u"model_type"_s, u"qwen9_future"_s);
    const ConfigCheck check = ModelConfig::check(config);
    QCOMPARE(check.basis, u"guess"_s);
    const auto unknown = std::find_if(check.findings.cbegin(), check.findings.cend(),
                                      [](const ConfigFinding &f) { return f.id == u"model-type-unknown"_s; });
    QVERIFY(unknown != check.findings.cend());
    QCOMPARE(unknown->severity, Severity::Warning);
    QVERIFY(unknown->message.contains(u"guess"_s));
    QCOMPARE(check.layers.size(), 1); // read by Llama's rules all the same
    QCOMPARE(check.layers.first().params.rope.theta, 1e6);
}

void TestModelLayers::configsHfCannotLoadNameTheKey_data()
{
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("key");
    QJsonObject exaone = readConfig(u"EXAONE-4.0-32B"_s);
    exaone.remove(u"layer_types"_s);
    // Exaone4Config: a word as the period is computed as (i + 1) % "LLLG".
    QTest::newRow("EXAONE, pattern a word") << exaone << u"layer-rule-fails"_s << u"sliding_window_pattern"_s;
    exaone.insert(u"sliding_window"_s, QJsonValue::Null);
    QTest::newRow("EXAONE, no window") << exaone << u"layer-rule-fails"_s << u"sliding_window"_s;
    QJsonObject devstral = readConfig(u"Devstral-Small-2-24B-Instruct"_s);
    QJsonObject text = devstral.value(u"text_config"_s).toObject();
    QJsonObject dict = text.value(u"rope_parameters"_s).toObject();
    dict.remove(u"llama_4_scaling_beta"_s);
    text.insert(u"rope_parameters"_s, dict);
    devstral.insert(u"text_config"_s, text);
    QTest::newRow("Ministral 3 without beta")
        << devstral << u"query-scale-key-missing"_s << u"rope_parameters.llama_4_scaling_beta"_s;
    QJsonObject gemma4 = readConfig(u"gemma-4-31B-it"_s);
    QJsonObject g = gemma4.value(u"text_config"_s).toObject();
    g.insert(u"rope_parameters"_s, QJsonObject {{u"rope_type"_s, u"default"_s}, {u"rope_theta"_s, 1e6}});
    gemma4.insert(u"text_config"_s, g);
    // Gemma4TextConfig converts nothing: rope_parameters["full_attention"] raises KeyError.
    QTest::newRow("Gemma 4, one flat dict") << gemma4 << u"layer-dict-missing"_s << u"rope_parameters"_s;
}

void TestModelLayers::configsHfCannotLoadNameTheKey()
{
    QFETCH(QJsonObject, config);
    QFETCH(QString, id);
    QFETCH(QString, key);
    const ConfigCheck check = ModelConfig::check(config);
    const auto finding = std::find_if(check.findings.cbegin(), check.findings.cend(),
                                      [&](const ConfigFinding &f) { return f.id == id; });
    QVERIFY2(finding != check.findings.cend(), qPrintable(id));
    QCOMPARE(finding->severity, Severity::Error);
    QVERIFY2(finding->message.contains(key), qPrintable(finding->message));
}

POSENC_TEST_GUILESS_MAIN(TestModelLayers)
} // namespace tst_modellayers
#include "tst_modellayers.moc"
