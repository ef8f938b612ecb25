// The position keys of the transformers ecosystem read wherever they appear, whatever the
// model_type (ModelConfig::check, docs/ARCHITECTURE.md "Model knowledge"): each row is a config of
// a model_type posenc's table lacks, carrying one key, and the layer it changes. A known model whose
// code departs from the key keeps its own rule (the last rows).
#include "check/FamilyCheck.h"
#include "check/ModelConfigCheck.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTest>

namespace tst_configkeys {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A small model of `type`: 8 layers, 4 heads of 64, theta 1e6.
QJsonObject model(const QString &type, const QJsonObject &keys)
{
    QJsonObject o {{u"model_type"_s, type},
                   {u"hidden_size"_s, 256},
                   {u"num_attention_heads"_s, 4},
                   {u"num_hidden_layers"_s, 8},
                   {u"max_position_embeddings"_s, 4096},
                   {u"rope_theta"_s, 1e6}};
    for (auto it = keys.begin(); it != keys.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

const ConfigLayer *layerAt(const ConfigCheck &check, std::int64_t index)
{
    for (const ConfigLayer &l : check.layers) {
        if (std::find(l.layers.cbegin(), l.layers.cend(), index) != l.layers.cend())
            return &l;
    }
    return nullptr;
}

} // namespace

class TestConfigKeys : public QObject
{
    Q_OBJECT

private slots:
    void keyRead_data();
    void keyRead();
    void tailAndPairsFromKeys();
    void wrappedTextModel_data();
    void wrappedTextModel();
    void unknownTypeByTheNameItExtends_data();
    void unknownTypeByTheNameItExtends();
};

void TestConfigKeys::keyRead_data()
{
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<qint64>("layer");
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<qint64>("rotaryDim"); // 0 where the layer does not turn
    QTest::addColumn<double>("theta");
    QTest::addColumn<qint64>("window"); // 0 for none
    const QJsonArray pattern {0, 1, 1, 1, 0, 1, 1, 1};
    // int(64 * 0.25) = 16 columns (MiMoV2FlashRotaryEmbedding.compute_default_rope_parameters).
    QTest::newRow("partial_rotary_factor") << model(u"future_lm"_s, {{u"partial_rotary_factor"_s, 0.25}}) << qint64(0)
                                           << u"rope"_s << qint64(16) << 1e6 << qint64(0);
    // rotary_dim columns (MiniMax's modeling_minimax_m2.py; vLLM's MiniMaxM2Attention).
    QTest::newRow("rotary_dim") << model(u"future_lm"_s, {{u"rotary_dim"_s, 32}}) << qint64(3) << u"rope"_s
                                << qint64(32) << 1e6 << qint64(0);
    // hybrid_layer_pattern: 1 a sliding layer (MiMo-V2), with its own swa_rope_theta.
    const QJsonObject hybrid {
        {u"hybrid_layer_pattern"_s, pattern}, {u"sliding_window"_s, 128}, {u"swa_rope_theta"_s, 1e4}};
    QTest::newRow("hybrid_layer_pattern, sliding")
        << model(u"future_lm"_s, hybrid) << qint64(1) << u"rope"_s << qint64(64) << 1e4 << qint64(128);
    QTest::newRow("hybrid_layer_pattern, full")
        << model(u"future_lm"_s, hybrid) << qint64(4) << u"rope"_s << qint64(64) << 1e6 << qint64(0);
    // The other spellings of a sliding layer's theta.
    for (const QString &key : {u"sliding_window_rope_theta"_s, u"local_rope_theta"_s, u"rope_local_base_freq"_s}) {
        const QJsonObject keys {{u"hybrid_layer_pattern"_s, pattern}, {u"sliding_window"_s, 64}, {key, 5e4}};
        QTest::newRow(qPrintable(key)) << model(u"future_lm"_s, keys) << qint64(2) << u"rope"_s << qint64(64) << 5e4
                                       << qint64(64);
    }
    QTest::newRow("global_rope_theta") << model(u"future_lm"_s, {{u"global_rope_theta"_s, 2e6}}) << qint64(0)
                                       << u"rope"_s << qint64(64) << 2e6 << qint64(0);
    // cross_attention_layers take no position (MllamaTextCrossAttention), even on a known model_type.
    const QJsonObject cross {{u"cross_attention_layers"_s, QJsonArray {2, 5}}};
    QTest::newRow("cross_attention_layers")
        << model(u"future_vlm_text"_s, cross) << qint64(5) << u"cross_attention"_s << qint64(0) << 0.0 << qint64(0);
    QTest::newRow("cross_attention_layers, llama")
        << model(u"llama"_s, cross) << qint64(2) << u"cross_attention"_s << qint64(0) << 0.0 << qint64(0);
    QTest::newRow("cross_attention_layers, the others turn")
        << model(u"future_vlm_text"_s, cross) << qint64(3) << u"rope"_s << qint64(64) << 1e6 << qint64(0);
    // A dict with mrope_section is M-RoPE on a model the table lacks.
    const QJsonObject mrope {{u"rope_parameters"_s,
                              QJsonObject {{u"rope_type"_s, u"default"_s},
                                           {u"rope_theta"_s, 1e6},
                                           {u"mrope_section"_s, QJsonArray {8, 12, 12}},
                                           {u"mrope_interleaved"_s, true}}}};
    QTest::newRow("mrope_section") << model(u"future_vl_text"_s, mrope) << qint64(0) << u"mrope"_s << qint64(64) << 1e6
                                   << qint64(0);
    // The exceptions: LlamaRotaryEmbedding's default type reads no partial_rotary_factor, and
    // LlamaAttention no mrope_section.
    QTest::newRow("llama ignores partial_rotary_factor") << model(u"llama"_s, {{u"partial_rotary_factor"_s, 0.25}})
                                                         << qint64(0) << u"rope"_s << qint64(64) << 1e6 << qint64(0);
    QTest::newRow("llama reads no mrope_section")
        << model(u"llama"_s, mrope) << qint64(0) << u"rope"_s << qint64(64) << 1e6 << qint64(0);
}

void TestConfigKeys::keyRead()
{
    QFETCH(QJsonObject, config);
    QFETCH(qint64, layer);
    QFETCH(QString, encoding);
    QFETCH(qint64, rotaryDim);
    QFETCH(double, theta);
    QFETCH(qint64, window);
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY(check.problems.isEmpty());
    const ConfigLayer *l = layerAt(check, layer);
    QVERIFY(l);
    QCOMPARE(l->scheme.encoding, encoding);
    if (rotaryDim == 0)
        return;
    QCOMPARE(RopeFrequencies::rotaryDim(l->params.rope), rotaryDim);
    QCOMPARE(l->params.rope.theta, theta);
    QCOMPARE(l->scheme.window.value_or(0), window);
    if (encoding == u"mrope"_s) {
        QVERIFY(l->params.mrope.interleaved);
        QCOMPARE(l->params.mrope.section, (std::vector<std::int64_t> {8, 12, 12}));
    }
}

void TestConfigKeys::tailAndPairsFromKeys()
{
    // qk_rope_head_dim beside a head_dim that is not MLA's nope + rope: the last 32 of 128 turn
    // (DeepseekV4Config: partial_rotary_factor = qk_rope_head_dim / head_dim; apply_rotary_pos_emb
    // turns x[..., -rope_dim:]); rope_interleave true pairs adjacent columns.
    const ConfigCheck check = ModelConfig::check(
        model(u"future_mla"_s, {{u"head_dim"_s, 128}, {u"qk_rope_head_dim"_s, 32}, {u"rope_interleave"_s, true}}));
    QVERIFY(check.problems.isEmpty());
    const ConfigLayer *l = layerAt(check, 0);
    QVERIFY(l);
    QCOMPARE(RopeFrequencies::rotaryDim(l->params.rope), 32);
    QCOMPARE(l->scheme.rotaryPlace, u"mla-tail"_s);
    QCOMPARE(l->params.rope.layout, RopeLayout::Interleaved);
    // The words the layer stack and the head map show name the tail, and MLA only where it is MLA's.
    const QString words = FamilyChecks::of(Encoding::Rope).rotary->words(*l);
    QVERIFY2(words.contains(u"32 of 128 (the tail, the last columns)"_s), qPrintable(words));
    const ConfigCheck mla = ModelConfig::check(model(
        u"deepseek_v3"_s, {{u"qk_rope_head_dim"_s, 64}, {u"qk_nope_head_dim"_s, 128}, {u"num_attention_heads"_s, 2}}));
    const QString mlaWords = FamilyChecks::of(Encoding::Rope).rotary->words(mla.layers.first());
    QVERIFY2(mlaWords.contains(u"64 of 192 (MLA tail, key shared)"_s), qPrintable(mlaWords));
    const ConfigCheck neox = ModelConfig::check(model(u"future_lm"_s, {{u"rope_is_neox_style"_s, false}}));
    QCOMPARE(neox.layers.first().params.rope.layout, RopeLayout::Interleaved);
    QCOMPARE(neox.layers.first().scheme.rotaryPlace, u"prefix"_s);
    // Llama's own code pairs by rotate_half whatever the key says.
    const ConfigCheck llama = ModelConfig::check(model(u"llama"_s, {{u"rope_interleave"_s, true}}));
    QCOMPARE(llama.layers.first().params.rope.layout, RopeLayout::Half);
}

void TestConfigKeys::wrappedTextModel_data()
{
    QTest::addColumn<QString>("key");
    QTest::newRow("text_config") << u"text_config"_s;
    QTest::newRow("language_config") << u"language_config"_s; // DeepseekVLV2Config
    QTest::newRow("llm_config") << u"llm_config"_s; // InternVLChatConfig (remote code)
}

void TestConfigKeys::wrappedTextModel()
{
    // A wrapper the table lacks around a known text model: the text model's rules (Qwen3-Next's
    // linear layers and partial rotary), read where the wrapper keeps its keys.
    QFETCH(QString, key);
    const QJsonObject text {{u"model_type"_s, u"qwen3_next"_s},
                            {u"hidden_size"_s, 2048},
                            {u"num_attention_heads"_s, 16},
                            {u"num_hidden_layers"_s, 8},
                            {u"head_dim"_s, 256},
                            {u"partial_rotary_factor"_s, 0.25},
                            {u"rope_theta"_s, 1e7}};
    const ConfigCheck check = ModelConfig::check({{u"model_type"_s, u"future_vlm"_s}, {key, text}});
    QVERIFY(check.problems.isEmpty());
    QCOMPARE(check.textConfig, key);
    QCOMPARE(check.modelType, u"qwen3_next"_s);
    QCOMPARE(layerAt(check, 0)->scheme.encoding, u"linear"_s);
    const ConfigLayer *full = layerAt(check, 3);
    QVERIFY(full);
    QCOMPARE(RopeFrequencies::rotaryDim(full->params.rope), 64);
    QCOMPARE(full->params.rope.theta, 1e7);
}

void TestConfigKeys::unknownTypeByTheNameItExtends_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("nearest"); // empty: read by Llama's rules
    QTest::newRow("a minor release's text model") << u"exaone4_5_text"_s << u"exaone4"_s;
    QTest::newRow("a minor release") << u"exaone4_7"_s << u"exaone4"_s;
    QTest::newRow("a wrapper's name leads to its text model") << u"gemma3_vl"_s << u"gemma3_text"_s;
    QTest::newRow("a major release is not its series") << u"exaone5_text"_s << QString();
    QTest::newRow("a name that extends none") << u"future_lm_text"_s << QString();
}

void TestConfigKeys::unknownTypeByTheNameItExtends()
{
    // EXAONE 4.5's text model (model_type exaone4_5_text) is Exaone4's code; so is its layer rule:
    // every sliding_window_pattern-th layer global and without RoPE (Exaone4Attention.forward). A
    // name that extends no known type by a minor version or a suffix is read by Llama's rules. Both
    // are guesses, and say so.
    QFETCH(QString, type);
    QFETCH(QString, nearest);
    const ConfigCheck check
        = ModelConfig::check(model(type, {{u"sliding_window"_s, 1024}, {u"sliding_window_pattern"_s, 4}}));
    QVERIFY(check.problems.isEmpty());
    QCOMPARE(check.basis, u"guess"_s);
    const ConfigFinding *unknown = nullptr;
    for (const ConfigFinding &f : check.findings) {
        if (f.id == u"model-type-unknown"_s)
            unknown = &f;
    }
    QVERIFY(unknown);
    QVERIFY2(unknown->message.contains(nearest.isEmpty() ? u"Llama's rules"_s : u"of %1, the known"_s.arg(nearest)),
             qPrintable(unknown->message));
    const ConfigLayer *global = layerAt(check, 3);
    QVERIFY(global);
    if (nearest == u"exaone4"_s) {
        QCOMPARE(global->scheme.encoding, u"none"_s);
        QCOMPARE(layerAt(check, 0)->scheme.encoding, u"rope"_s);
        QCOMPARE(qint64(layerAt(check, 0)->scheme.window.value_or(0)), qint64(1024));
    } else {
        QCOMPARE(global->scheme.encoding, u"rope"_s);
    }
}

POSENC_TEST_GUILESS_MAIN(TestConfigKeys)
} // namespace tst_configkeys
#include "tst_configkeys.moc"
