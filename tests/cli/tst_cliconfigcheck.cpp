// `posenc check --config` as scripts meet it: every config of tests/data/configs (real models'
// config.json, see its README) prints its layer types with describe's keys and the findings each
// should have (their numbers are tst_cliconfignumbers' and tst_modellayers'); configs with each
// mistake name it; hostile files exit 2 or 3 with a message, never crash.
#include "ConfigCheckRun.h"
#include "support/TestMain.h"

#include <QDir>
#include <QHash>
#include <QProcess>
#include <QSet>
#include <QTest>

namespace tst_cliconfigcheck {
using namespace CliRun;
using namespace ConfigCheckRun;

class TestCliConfigCheck : public QObject
{
    Q_OBJECT

private slots:
    void everySharedConfigIsRead_data();
    void everySharedConfigIsRead();
    void mistakesAreNamed_data();
    void mistakesAreNamed();
    void textOutputHasBlocksAndFindings();
    void layerTypeFilters();
    void takesAnExampleByName();
    void aJsonFileIsAConfig();
    void hostileConfigs_data();
    void hostileConfigs();
    void hugeFileIsRefusedUnread();
    void openNeedsPosition();
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
    row("DeepSeek-V3.2-Exp", 0, {u"full_attention"_s},
        {u"note indexer-layout"_s, u"note interleaved-pairs"_s, u"note mla-rope-tail"_s, u"note mscale-pair"_s,
         u"warning legacy-type-key"_s});
    row("DeepSeek-V3", 0, {u"full_attention"_s},
        {u"note interleaved-pairs"_s, u"note mla-rope-tail"_s, u"note mscale-pair"_s, u"warning legacy-type-key"_s});
    row("Devstral-Small-2-24B-Instruct", 0, {u"full_attention"_s},
        {u"note mscale-pair"_s, u"note query-scaling-beta"_s, u"note rope-parameters-v5-form"_s});
    row("EXAONE-4.0-32B", 0, {u"sliding_attention"_s, u"full_attention"_s}, {u"note nope-layers"_s});
    row("GLM-4.5", 0, {u"full_attention"_s}, {});
    row("Kimi-K2-Instruct", 0, {u"full_attention"_s},
        {u"note interleaved-pairs"_s, u"note mla-rope-tail"_s, u"note mscale-pair"_s, u"warning legacy-type-key"_s});
    row("Llama-2-7b-hf", 0, {u"full_attention"_s}, {});
    row("Llama-3.2-1B", 0, {u"full_attention"_s}, {});
    row("Llama-4-Scout-17B-16E", 0, {u"chunked_attention"_s, u"full_attention"_s},
        {u"note chunked-layers-turn"_s, u"note interleaved-pairs"_s, u"note llama3-low-equals-high"_s,
         u"note nope-layers"_s, u"note query-temperature"_s});
    row("Meta-Llama-3.1-8B", 0, {u"full_attention"_s}, {});
    row("Mistral-7B-v0.1", 0, {u"sliding_attention"_s}, {});
    row("ModernBERT-base", 0, {u"full_attention"_s, u"sliding_attention"_s}, {u"note sliding-layers-own-theta"_s});
    row("Phi-3-mini-128k-instruct", 0, {u"full_attention"_s},
        {u"note longrope-factor-choice"_s, u"warning legacy-type-key"_s, u"warning longrope-factor-from-context"_s});
    row("Phi-4-mini-instruct", 0, {u"full_attention"_s},
        {u"note longrope-factor-choice"_s, u"warning legacy-type-key"_s, u"warning longrope-factor-from-context"_s});
    // No vision_config: get_rope_index's spatial_merge_size is the class's default.
    row("Qwen2-VL-7B-Instruct", 0, {u"full_attention"_s},
        {u"note mrope-vision-positions"_s, u"warning implicit-default"_s, u"warning legacy-type-key"_s});
    row("Qwen2.5-7B-Instruct", 0, {u"full_attention"_s}, {});
    row("Qwen2.5-VL-7B-Instruct", 0, {u"full_attention"_s},
        {u"note mrope-vision-positions"_s, u"warning legacy-type-key"_s});
    row("Qwen3-8B", 0, {u"full_attention"_s}, {});
    row("Qwen3-Next-80B-A3B-Instruct", 0, {u"linear_attention"_s, u"full_attention"_s}, {});
    row("Qwen3-VL-8B-Instruct", 0, {u"full_attention"_s}, {u"note mrope-vision-positions"_s});
    row("SmolLM3-3B", 0, {u"full_attention"_s, u"full_attention:nope"_s}, {u"note nope-layers"_s});
    row("bert-base-uncased", 0, {u"input"_s}, {});
    row("bloom-560m", 0, {u"full_attention"_s}, {});
    row("c4ai-command-r7b-12-2024", 0, {u"sliding_attention"_s, u"full_attention"_s},
        {u"note interleaved-pairs"_s, u"note nope-layers"_s});
    row("deberta-v3-base", 0, {u"attention"_s}, {});
    row("flan-t5-base", 0, {u"encoder"_s, u"decoder"_s}, {u"warning implicit-default"_s});
    row("gemma-3-1b-it", 0, {u"sliding_attention"_s, u"full_attention"_s}, {u"note sliding-layers-own-theta"_s});
    row("gemma-3-4b-it-v5", 0, {u"sliding_attention"_s, u"full_attention"_s},
        {u"note rope-parameters-v5-form"_s, u"note sliding-layers-own-theta"_s});
    row("gemma-3-4b-it", 0, {u"sliding_attention"_s, u"full_attention"_s}, {u"note sliding-layers-own-theta"_s});
    row("gemma-4-31B-it", 0, {u"sliding_attention"_s, u"full_attention"_s},
        {u"note proportional-not-partial"_s, u"note rope-parameters-v5-form"_s, u"note sliding-layers-own-theta"_s});
    row("gpt-j-6b", 0, {u"full_attention"_s}, {u"note interleaved-pairs"_s});
    row("gpt-neox-20b", 0, {u"full_attention"_s}, {});
    row("gpt-oss-20b", 0, {u"sliding_attention"_s, u"full_attention"_s}, {});
    row("gpt2", 0, {u"input"_s}, {});
    row("mpt-7b", 0, {u"full_attention"_s}, {u"note learned-pos-emb-ignored"_s});
    row("phi-4", 0, {u"full_attention"_s}, {});
    row("pythia-160m", 0, {u"full_attention"_s}, {});
    row("roberta-base", 0, {u"input"_s}, {u"note learned-offset"_s});
    row("t5-base", 0, {u"encoder"_s, u"decoder"_s}, {u"warning implicit-default"_s, u"warning model-type-missing"_s});
    row("whisper-large-v3", 0, {u"encoder"_s, u"decoder"_s}, {u"note half-dim-minus-one"_s});
    row("whisper-small", 0, {u"encoder"_s, u"decoder"_s}, {u"note half-dim-minus-one"_s});
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
        // M-RoPE turns at a rope_type's frequencies too (issue 57: they were reported as none).
        {u"mrope"_s, {u"rope_type"_s, u"rotary_dim"_s, u"mrope_section"_s, u"attention_factor"_s}},
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
        if (encoding != u"rope"_s && encoding != u"mrope"_s)
            QVERIFY(!layer.contains(u"rope_type"_s));
    }
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
    // Phi3RotaryEmbedding honours partial_rotary_factor (Llama's default rope_type would not).
    QTest::newRow("odd rotary dim") << QJsonObject {{u"model_type"_s, u"phi3"_s},
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
    // A row per layer type, the finding under its layer type after the table (tst_cliconfigtable).
    QVERIFY2(run.out.contains(u"\nlayer type "_s), qPrintable(run.out));
    QVERIFY(run.out.contains(u"\nsliding_attention:\n  note sliding-layers-own-theta: "_s));
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

// --config takes an example's name, as the other commands do: the same report as its file's.
void TestCliConfigCheck::takesAnExampleByName()
{
    const Checked byName = checkJson(u"llama-4-scout"_s);
    const Checked byFile = checkJson(fixture(u"Llama-4-Scout-17B-16E"_s));
    QCOMPARE(byName.run.exitCode, 0);
    QCOMPARE(byName.layerTypes(), byFile.layerTypes());
    QCOMPARE(byName.findings(), byFile.findings());
    // A name that is neither a file nor an example is a file that cannot be read.
    QCOMPARE(checkJson(u"no-such-model"_s).run.exitCode, 3);
}

// `posenc check FILE` takes a model's config.json, as its usage says: a FILE named *.json is
// checked as --config FILE, the same report; a table's option beside it is refused by name.
void TestCliConfigCheck::aJsonFileIsAConfig()
{
    const QString file = fixture(u"Qwen3-8B"_s);
    const Run plain = posenc({u"check"_s, file, u"--json"_s});
    const Checked byFlag = checkJson(file);
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(plain.out, byFlag.run.out);
    QVERIFY(!byFlag.layerTypes().isEmpty());
    QCOMPARE(posenc({u"check"_s, u"--json"_s, file}).out, byFlag.run.out);
    QCOMPARE(posenc({u"check"_s, u"--json"_s, u"--"_s, file}).out, byFlag.run.out);
    // The word after an option that takes one is its value, -name spelled as --name.
    const Checked full = checkJson(file, {u"--layer-type"_s, u"full_attention"_s});
    QCOMPARE(full.layerTypes(), QStringList {u"full_attention"_s});
    QCOMPARE(posenc({u"check"_s, u"--layer-type"_s, u"full_attention"_s, file, u"--json"_s}).out, full.run.out);
    QCOMPARE(posenc({u"check"_s, u"-layer-type"_s, u"full_attention"_s, file, u"--json"_s}).out, full.run.out);
    // The word after an option that takes a value is the option's: --expect-config's config
    // beside a table is no config to check.
    QTemporaryDir dir;
    const Run expected = posenc({u"check"_s, u"--expect-config"_s, file, dir.filePath(u"none.npy"_s)});
    QCOMPARE(expected.exitCode, 3);
    QVERIFY2(expected.err.contains(u"none.npy"_s), qPrintable(expected.err));
    const Run table = posenc({u"check"_s, file, u"--expect"_s, u"rope"_s});
    QCOMPARE(table.exitCode, 2);
    QVERIFY2(table.err.contains(u"expect"_s), qPrintable(table.err));
    QVERIFY(table.out.isEmpty());
    // --open opens the window on it, as with --config.
    const QString png = dir.filePath(u"window.png"_s);
    const Run open
        = posenc({u"check"_s, file, u"--open"_s, u"--screenshot"_s, png}, windowEnvironment(dir.filePath(u"config"_s)));
    QVERIFY2(open.exitCode == 0, qPrintable(open.err));
    QVERIFY(QFile::exists(png));
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
    // transformers' PreTrainedConfig._dict_from_json_file (configuration_utils.py) opens the file as
    // "utf-8" and calls json.loads, which raises "Unexpected UTF-8 BOM". Before: read as if absent.
    QTest::newRow("a byte-order mark") << QByteArray("\xEF\xBB\xBF{\"model_type\": \"llama\"}") << 3
                                       << u"begins with a UTF-8 byte-order mark, which json.loads refuses"_s;
    // JSON allows any value at the top level; Qt's parser calls a lone one "illegal value". Before: "not JSON".
    QTest::newRow("null") << QByteArray("null\n") << 3 << u"not a model config: its top level is null, not an object"_s;
    QTest::newRow("a number") << QByteArray(" 42") << 3
                              << u"not a model config: its top level is the number 42, not an object"_s;
    QTest::newRow("a string") << QByteArray("\"config\"") << 3
                              << u"not a model config: its top level is a string, not an object"_s;
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
        << u"rope_scaling.rope_type: must be a string of at most 256 characters, without control characters or "
           "lone surrogates; got \"yarn\\n\""_s;
    // JSON's \ud800 unpaired is no character: Python's json.loads keeps it in the str, and transformers'
    // AutoConfig.from_pretrained (models/auto/configuration_auto.py) then finds no CONFIG_MAPPING entry
    // for the model_type (ValueError), as no rope_type's function is keyed by one. Before: shown as U+FFFD,
    // read as a guess of Llama's rules.
    QTest::newRow("a lone surrogate model_type") << QByteArray(R"({"model_type": "\ud800"})") << 2
                                                 << u"model_type: must be a string of at most 256 characters, "
                                                    "without control characters or lone surrogates; got \"\\ud800\""_s;
    QTest::newRow("a lone low surrogate in rope_type")
        << QByteArray(R"({"model_type": "llama", "rope_scaling": {"rope_type": "yarn\udc80x", "factor": 4}})") << 2
        << u"rope_scaling.rope_type: must be a string of at most 256 characters, without control characters or "
           "lone surrogates; got \"yarn\\udc80x\""_s;
    QTest::newRow("control character") << QByteArray("{\"model_type\": \"llama\\u0007\"}") << 2
                                       << u"model_type: must be a string of at most 256 characters"_s;
    QTest::newRow("a million layers") << QByteArray(R"({"model_type": "llama", "num_hidden_layers": 1000000})") << 2
                                      << u"num_hidden_layers: must be a whole number in [1, 65536]; got 1000000"_s;
    // Before: the word refused once a layer, 65,536 identical lines (6.4 MB) on standard error.
    QTest::newRow("a word for max_window_layers, 65536 layers")
        << QByteArray(R"({"model_type": "qwen2_vl", "hidden_size": 1536, "num_attention_heads": 12,
                          "num_hidden_layers": 65536, "max_window_layers": "abc", "use_sliding_window": true,
                          "sliding_window": 4096, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})")
        << 2 << u"max_window_layers: must be a whole number in [0, 1099511627776]; got \"abc\""_s;
    QTest::newRow("no model at all") << QByteArray(R"({"hello": "world"})") << 3 << u"model_type"_s;
    // Before: "not JSON: illegal number". JSON allows 1e400; Python's json reads it as infinite.
    QTest::newRow("1e400") << QByteArray(R"({"model_type": "llama", "max_position_embeddings": 1e400})") << 2
                           << u"max_position_embeddings: must be a whole number in [1, 1099511627776]; got 1e400 "
                              "(past a double's range: Python's json reads it as infinite)"_s;
    QTest::newRow("-1e400 in a rope dict")
        << QByteArray(R"({"model_type": "llama", "rope_scaling": {"rope_type": "yarn", "factor": -1e400}})") << 2
        << u"rope_scaling.factor: must be a number; got -1e400 (past a double's range"_s;
    // Past 2^53 a double holds whole numbers 2 and more apart: the value said is the double read, with how
    // far the file's may be from it. Before: "got 9007199254740992" for the file's 9007199254740993.
    QTest::newRow("past 2^53")
        << QByteArray(R"({"model_type": "llama", "max_position_embeddings": 9007199254740993})") << 2
        << u"max_position_embeddings: must be a whole number in [1, 1099511627776]; got 9007199254740992 (past "
           "2^53, read as the nearest double: the file's number may differ from it by up to 1)"_s;
    QTest::newRow("past 2^64 in a rope dict")
        << QByteArray(
               R"({"model_type": "llama", "rope_scaling": {"rope_type": "default", "rope_theta": -18446744073709551617}})")
        << 2
        << u"rope_scaling.rope_theta: must be a number in (1, 1e15]; got -18446744073709552000 (past 2^53, read as "
           "the nearest double: the file's number may differ from it by up to 2048)"_s;
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
        // A refused value is said once, even where it is read once a layer.
        if (exitCode == 2)
            QCOMPARE(run.err.count(words), 1);
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
    // Before: "no such file".
    QVERIFY(QFile::link(u"b.json"_s, dir.filePath(u"a.json"_s)) && QFile::link(u"a.json"_s, dir.filePath(u"b.json"_s)));
    const Run loop = posenc({u"check"_s, u"--config"_s, dir.filePath(u"a.json"_s)});
    QCOMPARE(loop.exitCode, 3);
    QVERIFY2(loop.err.contains(u"a.json: a loop of symbolic links (a.json -> b.json -> a.json)"_s),
             qPrintable(loop.err));
    QCOMPARE(posenc({u"check"_s}).exitCode, 2);
    QCOMPARE(posenc({u"check"_s, u"--config"_s, path, u"extra"_s}).exitCode, 2);
}

// The window opens on any family a config's layers place position with (each family reads its
// own keys); a layer type that places none is refused. Before: GPT-2's learned table was refused.
void TestCliConfigCheck::openNeedsPosition()
{
    QTemporaryDir dir;
    const QString png = dir.filePath(u"window.png"_s);
    const Run learned = posenc({u"check"_s, u"--config"_s, fixture(u"gpt2"_s), u"--open"_s, u"--screenshot"_s, png},
                               windowEnvironment(dir.filePath(u"config"_s)));
    QVERIFY2(learned.exitCode == 0, qPrintable(learned.err));
    QVERIFY(QFile::exists(png));
    const Run nope = posenc({u"check"_s, u"--config"_s, fixture(u"SmolLM3-3B"_s), u"--open"_s, u"--layer-type"_s,
                             u"full_attention:nope"_s});
    QCOMPARE(nope.exitCode, 2);
    QVERIFY2(nope.err.contains(u"places no position (none)"_s), qPrintable(nope.err));
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
    QVERIFY2(run.out.contains(u"\nsliding_attention "_s), qPrintable(run.out)); // its row of the table
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
    QTRY_VERIFY_WITH_TIMEOUT((shown += process.readAllStandardOutput()).contains("findings: "), 60000);
    QVERIFY(shown.contains("  llama3  "));
    QCOMPARE(process.state(), QProcess::Running);
    process.kill();
    QVERIFY(process.waitForFinished(60000));
}

void TestCliConfigCheck::helpListsTheFindings()
{
    const Run run = posenc({u"help"_s, u"check"_s, u"--all"_s});
    QCOMPARE(run.exitCode, 0);
    for (const QString &id : {u"legacy-type-key"_s, u"truncate-in-layer-dict"_s, u"llama3-low-equals-high"_s,
                              u"mscale-pair"_s, u"nope-layers"_s, u"sliding-layers-own-theta"_s})
        QVERIFY2(run.out.contains(id), qPrintable(id));
    QVERIFY(run.out.contains(u"--layer-type"_s));
}

POSENC_TEST_GUILESS_MAIN(TestCliConfigCheck)
} // namespace tst_cliconfigcheck
#include "tst_cliconfigcheck.moc"
