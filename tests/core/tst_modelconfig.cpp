// The API the window's File > Open model config reads (ModelConfig::check): per layer type the
// Params a preset would give, and the findings; values no model could mean are problems naming
// their key path. The configs are written here; the numbers they derive are tst_cliconfigcheck's.
#include "check/ModelConfigCheck.h"
#include "core/rope/RopeFrequencies.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <algorithm>

namespace tst_modelconfig {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestModelConfig : public QObject
{
    Q_OBJECT

private slots:
    void llama3GivesItsParams();
    void gemma3GivesOneParamsPerLayerType();
    void problemsNameTheKeyPath();
    void anErrorLeavesTheLayerUndescribed();
    void llamaDefaultRopeTurnsTheWholeHead();
    void everyFindingIsCatalogued();
};

void TestModelConfig::llama3GivesItsParams()
{
    const QJsonObject config {{u"model_type"_s, u"llama"_s},
                              {u"hidden_size"_s, 4096},
                              {u"num_attention_heads"_s, 32},
                              {u"num_hidden_layers"_s, 2},
                              {u"max_position_embeddings"_s, 131072},
                              {u"rope_theta"_s, 500000.0},
                              {u"rope_scaling"_s,
                               QJsonObject {{u"rope_type"_s, u"llama3"_s},
                                            {u"factor"_s, 8.0},
                                            {u"low_freq_factor"_s, 1.0},
                                            {u"high_freq_factor"_s, 4.0},
                                            {u"original_max_position_embeddings"_s, 8192}}}};
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY(check.problems.isEmpty());
    QVERIFY(check.findings.isEmpty());
    QCOMPARE(check.layers.size(), 1);
    const ConfigLayer &layer = check.layers.first();
    QCOMPARE(layer.layers, (std::vector<std::int64_t> {0, 1}));
    const Params &p = layer.params;
    QCOMPARE(p.encoding, Encoding::Rope);
    QCOMPARE(p.dModel, 4096);
    QCOMPARE(p.maxLen, 131072);
    QCOMPARE(p.rope.headDim, 128);
    QCOMPARE(p.rope.theta, 500000.0);
    QCOMPARE(p.rope.type, RopeType::Llama3);
    QCOMPARE(p.rope.factor, std::optional<double>(8.0));
    QCOMPARE(p.rope.originalMaxLen, std::optional<std::int64_t>(8192));
    QCOMPARE(p.rope.highFreqFactor, 4.0);
    QVERIFY(p.isValid());
    QCOMPARE(check.openLayer(), &layer);
}

void TestModelConfig::gemma3GivesOneParamsPerLayerType()
{
    const QJsonObject config {{u"model_type"_s, u"gemma3_text"_s},
                              {u"num_hidden_layers"_s, 12},
                              {u"sliding_window_pattern"_s, 6},
                              {u"head_dim"_s, 256},
                              {u"hidden_size"_s, 2560},
                              {u"max_position_embeddings"_s, 131072},
                              {u"rope_theta"_s, 1e6},
                              {u"rope_local_base_freq"_s, 1e4},
                              {u"rope_scaling"_s, QJsonObject {{u"rope_type"_s, u"linear"_s}, {u"factor"_s, 8.0}}}};
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY(check.problems.isEmpty());
    const ConfigLayer *full = check.layer(u"full_attention"_s);
    const ConfigLayer *sliding = check.layer(u"sliding_attention"_s);
    QVERIFY(full && sliding);
    QCOMPARE(full->layers, (std::vector<std::int64_t> {5, 11}));
    QCOMPARE(sliding->layers.size(), std::size_t(10));
    QCOMPARE(full->params.rope.type, RopeType::Linear);
    QCOMPARE(full->params.rope.theta, 1e6);
    QCOMPARE(sliding->params.rope.type, RopeType::Default);
    QCOMPARE(sliding->params.rope.theta, 1e4);
    QVERIFY(!sliding->params.rope.factor);
    QCOMPARE(check.openLayer(), full);
    QCOMPARE(check.findings.size(), 1);
    QCOMPARE(check.findings.first().id, u"sliding-layers-own-theta"_s);
    QCOMPARE(check.findings.first().layerType, u"sliding_attention"_s);
}

void TestModelConfig::problemsNameTheKeyPath()
{
    const QJsonObject config {
        {u"model_type"_s, u"gemma3"_s},
        {u"text_config"_s,
         QJsonObject {{u"model_type"_s, u"gemma3_text"_s},
                      {u"rope_scaling"_s, QJsonObject {{u"rope_type"_s, u"linear"_s}, {u"factor"_s, u"8"_s}}}}}};
    const ConfigCheck check = ModelConfig::check(config);
    QCOMPARE(check.textConfig, u"text_config"_s);
    QVERIFY(!check.problems.isEmpty());
    QCOMPARE(check.problems.first().key, u"text_config.rope_scaling.factor"_s);
    QCOMPARE(check.problems.first().toString(), u"text_config.rope_scaling.factor: must be a number; got \"8\""_s);
    for (const ConfigLayer &layer : check.layers)
        QVERIFY(!layer.described);
}

void TestModelConfig::anErrorLeavesTheLayerUndescribed()
{
    // Phi3RotaryEmbedding honours partial_rotary_factor: int(100 * 0.25) = 25 columns, odd.
    const QJsonObject config {{u"model_type"_s, u"phi3"_s},
                              {u"head_dim"_s, 100},
                              {u"partial_rotary_factor"_s, 0.25},
                              {u"rope_theta"_s, 10000.0}};
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY(check.problems.isEmpty());
    QVERIFY(check.hasError());
    const auto odd = std::find_if(check.findings.cbegin(), check.findings.cend(),
                                  [](const ConfigFinding &f) { return f.id == u"odd-rotary-dim"_s; });
    QVERIFY(odd != check.findings.cend());
    QCOMPARE(odd->severity, Severity::Error);
    QVERIFY(odd->layerType.isEmpty()); // one dict for every layer type: the config as a whole
    QVERIFY(!check.layers.first().described);
    QCOMPARE(RopeFrequencies::rotaryDim(check.layers.first().params.rope), 25);
}

void TestModelConfig::llamaDefaultRopeTurnsTheWholeHead()
{
    // LlamaRotaryEmbedding.compute_default_rope_parameters reads no partial_rotary_factor: the whole
    // head of 100 turns, and the factor is said to be ignored.
    const QJsonObject config {{u"model_type"_s, u"llama"_s},
                              {u"head_dim"_s, 100},
                              {u"max_position_embeddings"_s, 4096},
                              {u"partial_rotary_factor"_s, 0.25},
                              {u"rope_theta"_s, 10000.0}};
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY(!check.hasError());
    QCOMPARE(RopeFrequencies::rotaryDim(check.layers.first().params.rope), 100);
    QCOMPARE(check.findings.size(), 1);
    QCOMPARE(check.findings.first().id, u"partial-rotary-factor-ignored"_s);
    QCOMPARE(check.findings.first().severity, Severity::Warning);
}

void TestModelConfig::everyFindingIsCatalogued()
{
    QSet<QString> ids;
    int severity = 0;
    for (const ConfigFindings::Kind &kind : ConfigFindings::catalogue()) {
        QVERIFY2(!ids.contains(kind.id), qPrintable(kind.id));
        ids.insert(kind.id);
        // kebab-case, errors before warnings before notes.
        QVERIFY(QRegularExpression(u"^[a-z0-9]+(-[a-z0-9]+)*$"_s).match(kind.id).hasMatch());
        QVERIFY(int(kind.severity) >= severity);
        severity = int(kind.severity);
        QVERIFY(!kind.meaning.isEmpty());
    }
}

POSENC_TEST_GUILESS_MAIN(TestModelConfig)
} // namespace tst_modelconfig
#include "tst_modelconfig.moc"
