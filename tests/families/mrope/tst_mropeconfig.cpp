// M-RoPE's config reader (MropeConfig): Qwen2-VL, Qwen2.5-VL and Qwen3-VL configs, flat or with
// text_config, give --encoding mrope with the keys as the model's code reads them in HF transformers
// main (c49429ed):
// - Qwen2VLAttention and Qwen2_5_VLAttention call apply_multimodal_rotary_pos_emb with
//   self.config.rope_parameters["mrope_section"] (KeyError when absent), chunked;
// - Qwen3VLTextRotaryEmbedding takes rope_parameters.get("mrope_section", [24, 20, 20]) and always
//   interleaves (apply_interleaved_mrope); mrope_interleaved is in ignore_keys_at_rope_validation
//   and read by no code;
// - get_rope_index reads self.config.vision_config.spatial_merge_size (class default 2) and, for
//   Qwen2.5-VL, vision_config.tokens_per_second (Qwen2_5_VLVisionConfig's field default 4; its
//   docstring says 41).
// The era of get_rope_index follows the config's transformers_version: 5.x's
// get_vision_position_ids from 5.0, the models' own 4.x rule before it or without a version.
#include "check/ModelConfigCheck.h"
#include "core/rope/RopeFrequencies.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <functional>

namespace tst_mropeconfig {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QJsonObject readConfig(const QString &name)
{
    QFile file(QStringLiteral(POSENC_CONFIGS) + u'/' + name + u".json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

using Change = std::function<void(QJsonObject &)>;

QJsonObject changed(const QString &name, const Change &change)
{
    QJsonObject o = readConfig(name);
    change(o);
    return o;
}

// `o[key][inner] = value` (or removed for an undefined value).
void setIn(QJsonObject &o, const QString &key, const QString &inner, const QJsonValue &value)
{
    QJsonObject d = o.value(key).toObject();
    if (value.isUndefined())
        d.remove(inner);
    else
        d.insert(inner, value);
    o.insert(key, d);
}

// Qwen2.5-VL-7B as transformers 5 saves it: the text keys in text_config, the rope dict as
// rope_parameters holding rope_theta.
QJsonObject qwen25TextConfig()
{
    QJsonObject flat = readConfig(u"Qwen2.5-VL-7B-Instruct"_s);
    QJsonObject text;
    for (const QString &key :
         {u"hidden_size"_s, u"num_attention_heads"_s, u"num_key_value_heads"_s, u"num_hidden_layers"_s,
          u"max_position_embeddings"_s, u"max_window_layers"_s, u"use_sliding_window"_s, u"sliding_window"_s}) {
        text.insert(key, flat.take(key));
    }
    text.insert(u"model_type"_s, u"qwen2_5_vl_text"_s);
    text.insert(u"rope_parameters"_s,
                QJsonObject {{u"rope_type"_s, u"default"_s},
                             {u"rope_theta"_s, flat.take(u"rope_theta"_s)},
                             {u"mrope_section"_s, QJsonArray {16, 24, 24}}});
    flat.remove(u"rope_scaling"_s);
    flat.insert(u"text_config"_s, text);
    flat.insert(u"transformers_version"_s, u"5.2.0"_s);
    return flat;
}

struct Want
{
    std::vector<std::int64_t> section;
    bool interleaved = false;
    MropeVision vision = MropeVision::Qwen2Vl;
    std::int64_t merge = 2;
    double tokensPerSecond = MropeParams().tokensPerSecond;
    double theta = 0.0;
    MropeEra era = MropeEra::V4;
};

} // namespace

class TestMropeConfig : public QObject
{
    Q_OBJECT

private slots:
    void readsTheModelsKeys_data();
    void readsTheModelsKeys();
    void findings_data();
    void findings();
    void aSectionThatDoesNotSumNamesItsKey_data();
    void aSectionThatDoesNotSumNamesItsKey();
    void aLlamaKeepsRope();
};

void TestMropeConfig::readsTheModelsKeys_data()
{
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<Want>("want");
    using V = MropeVision;
    QTest::newRow("Qwen2-VL-7B") << readConfig(u"Qwen2-VL-7B-Instruct"_s)
                                 << Want {{16, 24, 24}, false, V::Qwen2Vl, 2, MropeParams().tokensPerSecond, 1e6};
    QTest::newRow("Qwen2.5-VL-7B") << readConfig(u"Qwen2.5-VL-7B-Instruct"_s)
                                   << Want {{16, 24, 24}, false, V::Qwen25Vl, 2, 2.0, 1e6};
    QTest::newRow("Qwen2.5-VL-7B text_config, saved by 5.2.0")
        << qwen25TextConfig() << Want {{16, 24, 24}, false, V::Qwen25Vl, 2, 2.0, 1e6, MropeEra::V5};
    const auto savedBy = [](const QString &version) {
        return changed(u"Qwen2.5-VL-7B-Instruct"_s,
                       [version](QJsonObject &o) { o.insert(u"transformers_version"_s, version); });
    };
    QTest::newRow("Qwen2.5-VL-7B, saved by 5.0.0.dev0")
        << savedBy(u"5.0.0.dev0"_s) << Want {{16, 24, 24}, false, V::Qwen25Vl, 2, 2.0, 1e6, MropeEra::V5};
    QTest::newRow("Qwen2.5-VL-7B, saved by 4.57.1")
        << savedBy(u"4.57.1"_s) << Want {{16, 24, 24}, false, V::Qwen25Vl, 2, 2.0, 1e6, MropeEra::V4};
    QTest::newRow("Qwen2.5-VL-7B, a version that is none")
        << savedBy(u"main"_s) << Want {{16, 24, 24}, false, V::Qwen25Vl, 2, 2.0, 1e6, MropeEra::V4};
    QTest::newRow("Qwen3-VL-8B") << readConfig(u"Qwen3-VL-8B-Instruct"_s)
                                 << Want {{24, 20, 20}, true, V::Qwen3Vl, 2, MropeParams().tokensPerSecond, 5e6};
    // Qwen3-VL's .get default, when the dict has no mrope_section.
    QTest::newRow("Qwen3-VL-8B, no section") << changed(u"Qwen3-VL-8B-Instruct"_s, [](QJsonObject &o) {
        QJsonObject text = o.value(u"text_config"_s).toObject();
        setIn(text, u"rope_scaling"_s, u"mrope_section"_s, QJsonValue::Undefined);
        o.insert(u"text_config"_s, text);
    }) << Want {{24, 20, 20}, true, V::Qwen3Vl, 2, MropeParams().tokensPerSecond, 5e6};
    // The vision config's own values; Qwen2.5-VL's class default of tokens_per_second when absent.
    QTest::newRow("Qwen2.5-VL, merge 3, no tokens_per_second") << changed(
        u"Qwen2.5-VL-7B-Instruct"_s, [](QJsonObject &o) {
            setIn(o, u"vision_config"_s, u"spatial_merge_size"_s, 3);
            setIn(o, u"vision_config"_s, u"tokens_per_second"_s, QJsonValue::Undefined);
        }) << Want {{16, 24, 24}, false, V::Qwen25Vl, 3, 4.0, 1e6};
    // mrope_interleaved is read by no model: the code decides.
    QTest::newRow("Qwen2.5-VL says interleaved") << changed(u"Qwen2.5-VL-7B-Instruct"_s, [](QJsonObject &o) {
        setIn(o, u"rope_scaling"_s, u"mrope_interleaved"_s, true);
    }) << Want {{16, 24, 24}, false, V::Qwen25Vl, 2, 2.0, 1e6};
}

void TestMropeConfig::readsTheModelsKeys()
{
    QFETCH(QJsonObject, config);
    QFETCH(Want, want);
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY2(check.problems.isEmpty(), qPrintable(check.problems.value(0).toString()));
    QVERIFY(!check.hasError());
    QCOMPARE(check.layers.size(), 1);
    const ConfigLayer &l = check.layers.first();
    QCOMPARE(l.layerType, u"full_attention"_s);
    QCOMPARE(l.scheme.encoding, u"mrope"_s);
    QVERIFY(l.described);
    const Params &p = l.params;
    QCOMPARE(p.encoding, Encoding::Mrope);
    QVERIFY(p.isValid());
    QCOMPARE(p.mrope.section, want.section);
    QCOMPARE(p.mrope.interleaved, want.interleaved);
    QCOMPARE(p.mrope.vision, want.vision);
    QCOMPARE(p.mrope.era, want.era); // the era its transformers_version names
    // The finding says which era and why.
    const bool v5 = want.era == MropeEra::V5;
    const QString version = config.value(u"transformers_version"_s).toString();
    QString rule;
    for (const ConfigFinding &f : check.findings) {
        if (f.id == u"mrope-vision-positions"_s)
            rule = f.message;
    }
    QVERIFY2(rule.contains(v5 ? u"as transformers 5.x has it"_s : u"as transformers 4.x has it"_s), qPrintable(rule));
    QVERIFY2(rule.contains(version.isEmpty()          ? u"(no transformers_version)"_s
                               : version == u"main"_s ? u"(transformers_version 'main', not a version)"_s
                                                      : u"(transformers_version %1)"_s.arg(version)),
             qPrintable(rule));
    QVERIFY2(rule.contains(v5 ? u"(--mrope-era v4)"_s : u"(--mrope-era v5)"_s), qPrintable(rule));
    QCOMPARE(p.mrope.spatialMergeSize, want.merge);
    QCOMPARE(p.mrope.tokensPerSecond, want.tokensPerSecond);
    QCOMPARE(p.rope.theta, want.theta);
    QCOMPARE(p.rope.headDim, std::int64_t(128));
    QCOMPARE(RopeFrequencies::pairs(p.rope), std::int64_t(64));
    QCOMPARE(p.rope.type, RopeType::Default);
}

void TestMropeConfig::findings_data()
{
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<QString>("finding");
    QTest::addColumn<bool>("described");
    QTest::newRow("Qwen2-VL without mrope_section: KeyError") << changed(u"Qwen2-VL-7B-Instruct"_s, [](QJsonObject &o) {
        setIn(o, u"rope_scaling"_s, u"mrope_section"_s, QJsonValue::Undefined);
    }) << u"error mrope-section-missing"_s << false;
    QTest::newRow("sections of 56 pairs, chunked") << changed(u"Qwen2.5-VL-7B-Instruct"_s, [](QJsonObject &o) {
        setIn(o, u"rope_scaling"_s, u"mrope_section"_s, QJsonArray {16, 24, 16});
    }) << u"error mrope-section-sum"_s << false;
    QTest::newRow("two sections, interleaved") << changed(u"Qwen3-VL-8B-Instruct"_s, [](QJsonObject &o) {
        QJsonObject text = o.value(u"text_config"_s).toObject();
        setIn(text, u"rope_scaling"_s, u"mrope_section"_s, QJsonArray {24, 20});
        o.insert(u"text_config"_s, text);
    }) << u"error mrope-section-sum"_s << false;
    QTest::newRow("Qwen3-VL says chunked") << changed(u"Qwen3-VL-8B-Instruct"_s,
                                                      [](QJsonObject &o) {
                                                          QJsonObject text = o.value(u"text_config"_s).toObject();
                                                          setIn(text, u"rope_scaling"_s, u"mrope_interleaved"_s, false);
                                                          o.insert(u"text_config"_s, text);
                                                      })
                                           << u"warning mrope-interleaved-ignored"_s << true;
    QTest::newRow("Qwen2-VL: no vision_config")
        << readConfig(u"Qwen2-VL-7B-Instruct"_s) << u"warning implicit-default"_s << true;
    QTest::newRow("the rule named") << readConfig(u"Qwen3-VL-8B-Instruct"_s) << u"note mrope-vision-positions"_s
                                    << true;
}

void TestMropeConfig::findings()
{
    QFETCH(QJsonObject, config);
    QFETCH(QString, finding);
    QFETCH(bool, described);
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY2(check.problems.isEmpty(), qPrintable(check.problems.value(0).toString()));
    QStringList found;
    for (const ConfigFinding &f : check.findings)
        found.append(ConfigFindings::severityWord(f.severity) + u' ' + f.id);
    QVERIFY2(found.contains(finding), qPrintable(found.join(u", "_s)));
    QCOMPARE(check.layers.size(), 1);
    QCOMPARE(check.layers.first().described, described);
    QCOMPARE(check.layers.first().params.encoding, Encoding::Mrope);
}

void TestMropeConfig::aSectionThatDoesNotSumNamesItsKey_data()
{
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("sum");
    QTest::newRow("Qwen2.5-VL, rope_scaling") << changed(u"Qwen2.5-VL-7B-Instruct"_s, [](QJsonObject &o) {
        setIn(o, u"rope_scaling"_s, u"mrope_section"_s, QJsonArray {16, 24, 16});
    }) << u"rope_scaling.mrope_section"_s << u"56"_s;
    QJsonObject nested = qwen25TextConfig();
    QJsonObject text = nested.value(u"text_config"_s).toObject();
    setIn(text, u"rope_parameters"_s, u"mrope_section"_s, QJsonArray {16, 24, 32});
    nested.insert(u"text_config"_s, text);
    QTest::newRow("Qwen2.5-VL, text_config.rope_parameters")
        << nested << u"text_config.rope_parameters.mrope_section"_s << u"72"_s;
}

void TestMropeConfig::aSectionThatDoesNotSumNamesItsKey()
{
    // `posenc check --config` names the key, the sections' sum and the pairs they must fill.
    QFETCH(QJsonObject, config);
    QFETCH(QString, key);
    QFETCH(QString, sum);
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY(check.hasError());
    QStringList messages;
    for (const ConfigFinding &f : check.findings) {
        if (f.id == u"mrope-section-sum"_s)
            messages.append(f.message);
    }
    QVERIFY2(!messages.isEmpty(), "no mrope-section-sum finding");
    for (const QString &message : messages) {
        QVERIFY2(message.contains(key), qPrintable(message));
        QVERIFY2(message.contains(sum) && message.contains(u"64"_s), qPrintable(message));
    }
}

void TestMropeConfig::aLlamaKeepsRope()
{
    // The keys alone choose nothing: LlamaAttention reads no mrope_section.
    QJsonObject config = readConfig(u"Qwen2.5-VL-7B-Instruct"_s);
    config.insert(u"model_type"_s, u"llama"_s);
    const ConfigCheck check = ModelConfig::check(config);
    QCOMPARE(check.layers.size(), 1);
    QCOMPARE(check.layers.first().params.encoding, Encoding::Rope);
}

POSENC_TEST_GUILESS_MAIN(TestMropeConfig)
} // namespace tst_mropeconfig
#include "tst_mropeconfig.moc"
