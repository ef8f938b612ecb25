// Each model's preset is what `posenc --config` reads of its model's config (tests/data/configs,
// their sources in its README): for the layer type the preset shows, every parameter --config
// gives (ConfigOptions::choose, which every command's --config goes through: the encoding, d_model,
// max_len and the family's keys) has the same value, as ParamText writes it, in the parameters the
// preset gives from the defaults (a RoPE preset names the keys its rope_type reads).
// Two things a config does not give are not compared, and each is checked for what it is
// instead: max_len, which a preset may cap at 131072 to keep the window responsive where the config
// says more (its note saying so), and the family's input (a Qwen-VL prompt), which no config holds.
// Whisper's half_dim - 1 frequencies are freq-shift 1 in both. A preset whose cite names a model of
// tests/data/configs has a row. What --config says of the input's dropout (ConfigDropout, by the
// model_type it reads) is the preset's record of it.
// So is what it says of the embedding scale (ConfigScale), and Gemma's s is its normalizer in the
// dtype its config names. A preset's "max-position-embeddings" is its config's.
#include "check/FamilyCheck.h"
#include "check/models/ModelExamples.h"
#include "check/models/ModelTable.h"
#include "cli/ConfigDropout.h"
#include "cli/ConfigOptions.h"
#include "core/FamilySpec.h"
#include "core/ParamOverlay.h"
#include "core/ParamText.h"
#include "io/Preset.h"
#include "support/HalfFloats.h"
#include "support/TestFiles.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <optional>

namespace tst_presetconfigs {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr std::int64_t kPresetMaxLen = 131072;

QString configPath(const QString &file)
{
    return QStringLiteral(POSENC_CONFIGS) + u'/' + file;
}

// The model a cite names first: "meta-llama/Llama-2-7b-hf, config.json" -> "llama-2-7b-hf".
QString citedModel(const QString &cite)
{
    const QString first = cite.section(u',', 0, 0).section(u';', 0, 0).section(u' ', 0, 0);
    return first.contains(u'/') ? first.section(u'/', -1).toLower() : QString();
}

} // namespace

class TestPresetConfigs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void eachPresetIsWhatItsConfigReads_data();
    void eachPresetIsWhatItsConfigReads();
    void everyPresetOfAConfigHereHasARow();
    void aPresetsExampleIsItsConfigAndAnMlaPresetNamesOne();
    void aConfigWithoutTheKeyTakesItsClassDefault();
    void gemmaConfigsScaleInTheDtypeTheyName();
    void whisperScalesByNothingWhateverScaleEmbeddingSays();
    void aPresetsContextIsNotAnOlderRevisions();

private:
    QStringList m_rows; // the presets of the rows
    QStringList m_configs; // their configs, files of tests/data/configs
    QTemporaryDir m_dir;
};

void TestPresetConfigs::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(Presets::shipped().problems.isEmpty());
}

void TestPresetConfigs::eachPresetIsWhatItsConfigReads_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("config"); // a file of tests/data/configs
    QTest::addColumn<QString>("layerType"); // empty: the one --config opens without --layer-type
    // The rope_scaling a preset cites beside the config, which the file keeps under this metadata
    // key, and the context it gives (0: the config's max_position_embeddings); empty for the
    // config as shipped.
    QTest::addColumn<QString>("scaling");
    QTest::addColumn<qint64>("context");
    m_rows.clear();
    m_configs.clear();
    const auto row = [this](const char *preset, const char *config, const QString &layerType = {},
                            const QString &scaling = {}, qint64 context = 0) {
        m_rows.append(QString::fromLatin1(preset));
        m_configs.append(QString::fromLatin1(config) + u".json"_s);
        QTest::newRow(preset) << QString::fromLatin1(preset) << QString::fromLatin1(config) + u".json"_s << layerType
                              << scaling << context;
    };
    row("llama-2-7b", "Llama-2-7b-hf");
    // meta-llama renamed Meta-Llama-3.1-8B to Llama-3.1-8B; the file has the old name.
    row("llama-3-1-8b", "Meta-Llama-3.1-8B");
    row("llama-3-2-1b", "Llama-3.2-1B");
    // Llama 4 Scout's RoPE layers are chunked; every fourth is NoPE. Its llama3 block is the config's.
    row("llama-4-scout", "Llama-4-Scout-17B-16E", u"chunked_attention"_s);
    row("mistral-7b", "Mistral-7B-v0.1", u"sliding_attention"_s);
    // The README's YaRN block for contexts past 32768: 4 x 32768 = 131072 positions, it says.
    row("qwen2-5-7b", "Qwen2.5-7B-Instruct", {}, u"_readme_suggested_yarn"_s, 131072);
    row("qwen3-8b", "Qwen3-8B");
    row("gpt-oss-20b", "gpt-oss-20b", u"full_attention"_s);
    row("deepseek-v3", "DeepSeek-V3");
    row("phi-3-mini-128k", "Phi-3-mini-128k-instruct");
    row("phi-4-mini", "Phi-4-mini-instruct");
    row("gemma-3-4b", "gemma-3-4b-it", u"full_attention"_s);
    row("gpt-neox-20b", "gpt-neox-20b");
    row("gpt-j-6b", "gpt-j-6b");
    row("bloom-560m", "bloom-560m");
    row("mpt-7b", "mpt-7b");
    row("t5-base", "t5-base", u"encoder"_s);
    row("flan-t5-base", "flan-t5-base", u"encoder"_s);
    row("deberta-v3-base", "deberta-v3-base");
    row("qwen2-vl-7b", "Qwen2-VL-7B-Instruct");
    row("qwen2-5-vl-7b", "Qwen2.5-VL-7B-Instruct");
    row("qwen3-vl-8b", "Qwen3-VL-8B-Instruct");
    row("phi-4", "phi-4");
    // The full-attention layers of Command R7B and EXAONE 4 are NoPE: their RoPE is the sliding layers'.
    row("command-r7b", "c4ai-command-r7b-12-2024", u"sliding_attention"_s);
    row("exaone-4-32b", "EXAONE-4.0-32B", u"sliding_attention"_s);
    row("smollm3-3b", "SmolLM3-3B", u"full_attention"_s);
    row("qwen3-next-80b", "Qwen3-Next-80B-A3B-Instruct", u"full_attention"_s);
    row("glm-4-5", "GLM-4.5");
    row("kimi-k2", "Kimi-K2-Instruct");
    row("deepseek-v3-2-exp", "DeepSeek-V3.2-Exp");
    row("devstral-small-2", "Devstral-Small-2-24B-Instruct");
    row("modernbert-base", "ModernBERT-base", u"full_attention"_s);
    row("whisper-large-v3", "whisper-large-v3", u"encoder"_s);
}

void TestPresetConfigs::eachPresetIsWhatItsConfigReads()
{
    QFETCH(QString, preset);
    QFETCH(QString, config);
    QFETCH(QString, layerType);
    QFETCH(QString, scaling);
    QFETCH(qint64, context);
    const Preset *shipped = Presets::find(preset);
    QVERIFY2(shipped, qPrintable(preset));
    QString path = configPath(config);
    QVERIFY2(QFile::exists(path), qPrintable(path));
    // The max_position_embeddings a preset records is its config's (its own, or its text model's).
    if (shipped->maxPositionEmbeddings > 0) {
        const QJsonObject json = TestFiles::jsonObject(path);
        const QJsonValue own = json.value(u"max_position_embeddings"_s);
        const QJsonValue text = json.value(u"text_config"_s).toObject().value(u"max_position_embeddings"_s);
        QCOMPARE(shipped->maxPositionEmbeddings, std::int64_t((own.isDouble() ? own : text).toDouble()));
    }
    if (!scaling.isEmpty()) {
        QJsonObject json = TestFiles::jsonObject(path);
        QVERIFY(!json.contains(u"rope_scaling"_s) || json.value(u"rope_scaling"_s).isNull());
        const QJsonValue block = json.value(scaling).toObject().value(u"rope_scaling"_s);
        QVERIFY(block.isObject());
        json.insert(u"rope_scaling"_s, block);
        if (context > 0)
            json.insert(u"max_position_embeddings"_s, context);
        path = m_dir.filePath(config);
        QFile edited(path);
        QVERIFY(edited.open(QIODevice::WriteOnly));
        QVERIFY(edited.write(QJsonDocument(json).toJson()) > 0);
    }
    const auto chosen = ConfigOptions::choose(path, layerType);
    if (const auto *refused = std::get_if<ParamOptions::Result>(&chosen))
        QFAIL(qPrintable(refused->usage));
    const ConfigOptions::Chosen &read = std::get<ConfigOptions::Chosen>(chosen);
    const ConfigLayer *layer = read.check.layer(read.layerType);
    QVERIFY(layer && layer->described);
    // The layer's parameters as --config gives them, and as the preset does.
    const auto fromConfig = ParamOverlay::over(Params {}, read.texts);
    QVERIFY(std::holds_alternative<Params>(fromConfig));
    const Params &c = std::get<Params>(fromConfig);
    const Params p = std::get<Params>(shipped->applyTo(Params {}));
    QCOMPARE(p.encoding, c.encoding);
    const QStringList inputs = FamilyChecks::of(c.encoding).inputKeys;
    int compared = 0;
    for (auto it = read.texts.cbegin(); it != read.texts.cend(); ++it) {
        const QString &key = it.key();
        if (inputs.contains(key))
            continue;
        const QByteArray where = (preset + u' ' + key).toUtf8();
        QString expected = ParamText::get(c, key);
        if (key == u"max-len"_s && c.maxLen > kPresetMaxLen && p.maxLen == kPresetMaxLen) {
            expected = QString::number(kPresetMaxLen);
            QVERIFY2(shipped->note.contains(u"capped at 131072"_s), where);
        }
        QVERIFY2(ParamText::get(p, key) == expected,
                 where + ": the preset gives " + ParamText::get(p, key).toUtf8() + ", the config " + expected.toUtf8());
        ++compared;
    }
    QVERIFY(compared >= 4);
    // No dropout on the input exactly where the preset records that the code has none, and a p (its
    // value compared above) only where the preset names one: --config said nothing of
    // DeepSeek-V3.2-Exp's deepseek_v32 and of Qwen3-VL's text model, qwen3_vl_text, whose code
    // (cited in the presets) has none.
    QVERIFY2(read.noInputDropout == (shipped->inputDropout == u"none"_s),
             qPrintable(preset + u": --config reads the model type "_s + read.check.modelType
                        + (read.noInputDropout ? u" as having no input dropout"_s : u" as not saying it has none"_s)));
    QVERIFY(!read.texts.contains(u"dropout"_s) || shipped->params.contains(u"dropout"_s));
    // Likewise the embedding scale (ConfigScale): s = 1 for no multiplier exactly where the preset
    // records none, and an s (its value compared above) only where the preset names one.
    QVERIFY2(read.noEmbeddingScale == (shipped->embeddingScale == u"none"_s),
             qPrintable(preset + u": --config reads the model type "_s + read.check.modelType
                        + (read.noEmbeddingScale ? u" as multiplying by nothing"_s : u" as not saying so"_s)));
    QVERIFY(!read.texts.contains(u"scale"_s) || shipped->params.contains(u"scale"_s));
}

// Gemma's normalizer as its code holds it: √hidden_size in float32, cast to the dtype the config
// names (torch.tensor(embed_scale).to(self.weight.dtype), Gemma3TextScaledWordEmbedding); a config
// that names none leaves s unsaid. Reference: float32's bits, the upper 16 rounded to nearest even.
void TestPresetConfigs::gemmaConfigsScaleInTheDtypeTheyName()
{
    const auto bfloat16 = [](double value) { return double(halffloats::toBFloat16(float(value))); };
    const auto scaleOf = [](const QString &path) -> std::optional<QString> {
        const auto chosen = ConfigOptions::choose(path, {});
        if (!std::holds_alternative<ConfigOptions::Chosen>(chosen))
            return std::nullopt;
        const auto &texts = std::get<ConfigOptions::Chosen>(chosen).texts;
        return texts.contains(u"scale"_s) ? texts.value(u"scale"_s) : QString();
    };
    // gemma-4-31B-it: dtype bfloat16, hidden_size 5376; √5376 = 73.32 is 73.5 in bfloat16.
    const auto gemma4 = scaleOf(configPath(u"gemma-4-31B-it.json"_s));
    QVERIFY(gemma4);
    QCOMPARE(gemma4->toDouble(), bfloat16(std::sqrt(5376.0)));
    QCOMPARE(*gemma4, u"73.5"_s);
    // gemma-3-4b-it's text_config names no dtype: no s, not a guess.
    const QString gemma3Path = configPath(u"gemma-3-4b-it.json"_s);
    QCOMPARE(scaleOf(gemma3Path), std::optional(QString()));
    for (const auto &[dtype, expected] :
         {std::pair {u"bfloat16"_s, bfloat16(std::sqrt(2560.0))},
          std::pair {u"float32"_s, double(float(std::sqrt(2560.0)))}, std::pair {u"float64"_s, -1.0}}) {
        QJsonObject json = TestFiles::jsonObject(gemma3Path);
        json.insert(u"torch_dtype"_s, dtype);
        const QString path = m_dir.filePath(u"gemma3-"_s + dtype + u".json"_s);
        QFile edited(path);
        QVERIFY(edited.open(QIODevice::WriteOnly));
        QVERIFY(edited.write(QJsonDocument(json).toJson()) > 0);
        edited.close();
        const auto s = scaleOf(path);
        QVERIFY2(s, qPrintable(dtype));
        if (expected < 0.0)
            QCOMPARE(*s, QString()); // a dtype not known here: unsaid
        else
            QCOMPARE(s->toDouble(), expected);
    }
    QCOMPARE(bfloat16(std::sqrt(2560.0)), 50.5);
    // Qwen2-VL's code multiplies by nothing: s = 1.
    QCOMPARE(scaleOf(configPath(u"Qwen2-VL-7B-Instruct.json"_s)), std::optional(u"1"_s));
}

// WhisperEncoder and WhisperDecoder set embed_scale = math.sqrt(d_model) if config.scale_embedding
// else 1.0, but neither forward reads it (transformers @ 5c48f71a682fa7bbcbde1be5d2a2ac16cc654210,
// models/whisper/modeling_whisper.py: hidden_states = inputs_embeds + embed_pos, and inputs_embeds +
// positions): s = 1 in both layers whatever scale_embedding says, not √d_model where it is true. A
// model type whose code was not read (gpt2) says nothing.
void TestPresetConfigs::whisperScalesByNothingWhateverScaleEmbeddingSays()
{
    const QString small = configPath(u"whisper-small.json"_s);
    QCOMPARE(TestFiles::jsonObject(small).value(u"scale_embedding"_s), QJsonValue(false));
    for (const bool scaled : {false, true}) {
        QJsonObject json = TestFiles::jsonObject(small);
        json.insert(u"scale_embedding"_s, scaled);
        const QString path = m_dir.filePath(scaled ? u"whisper-scaled.json"_s : u"whisper-unscaled.json"_s);
        QFile edited(path);
        QVERIFY(edited.open(QIODevice::WriteOnly));
        QVERIFY(edited.write(QJsonDocument(json).toJson()) > 0);
        edited.close();
        for (const QString &layer : {u"encoder"_s, u"decoder"_s}) {
            const auto chosen = ConfigOptions::choose(path, layer);
            QVERIFY2(std::holds_alternative<ConfigOptions::Chosen>(chosen), qPrintable(layer));
            const auto &read = std::get<ConfigOptions::Chosen>(chosen);
            QCOMPARE(read.layerType, layer);
            QVERIFY(read.noEmbeddingScale);
            QCOMPARE(read.texts.value(u"scale"_s), u"1"_s);
        }
    }
    const auto gpt2 = ConfigOptions::choose(configPath(u"gpt2.json"_s), {});
    QVERIFY(std::holds_alternative<ConfigOptions::Chosen>(gpt2));
    QVERIFY(!std::get<ConfigOptions::Chosen>(gpt2).noEmbeddingScale);
    QVERIFY(!std::get<ConfigOptions::Chosen>(gpt2).texts.contains(u"scale"_s));
}

void TestPresetConfigs::everyPresetOfAConfigHereHasARow()
{
    eachPresetIsWhatItsConfigReads_data();
    QCOMPARE(m_rows.size(), 33);
    QStringList models;
    for (const QString &file : QDir(QStringLiteral(POSENC_CONFIGS)).entryList({u"*.json"_s}, QDir::Files))
        models.append(file.chopped(5).toLower());
    for (const Preset &preset : Presets::shipped().presets) {
        const QString model = citedModel(preset.cite);
        if (models.contains(model))
            QVERIFY2(m_rows.contains(preset.name), qPrintable(preset.name + u" cites "_s + model));
    }
    for (const QString &name : std::as_const(m_rows))
        QVERIFY2(Presets::find(name), qPrintable(name));
}

// The example a preset names (its "config", compiled in from src/check/models/examples) is the config
// of its row here, but for the "_" metadata keys; and a preset of an MLA model (a config with
// qk_rope_head_dim, the rotary tail of a wider query-key head) names one, since only the config says
// where its rotary columns sit. Kimi K2's and DeepSeek-V3.2-Exp's presets named none, so the lessons
// could not say "the last r = 64 of a head's 192 columns" of them.
void TestPresetConfigs::aPresetsExampleIsItsConfigAndAnMlaPresetNamesOne()
{
    const auto withoutMetadata = [](QJsonObject json) {
        for (const QString &key : json.keys())
            if (key.startsWith(u'_'))
                json.remove(key);
        return json;
    };
    eachPresetIsWhatItsConfigReads_data();
    int named = 0, mla = 0;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        const QString &name = m_rows[i], &config = m_configs[i];
        const Preset *preset = Presets::find(name);
        const QJsonObject json = TestFiles::jsonObject(configPath(config));
        QVERIFY2(!json.isEmpty(), qPrintable(config));
        const bool isMla = json.contains(u"qk_rope_head_dim"_s) && json.contains(u"qk_nope_head_dim"_s);
        mla += isMla;
        QVERIFY2(!isMla || !preset->config.isEmpty(), qPrintable(name + u": an MLA model's preset names no config"_s));
        if (preset->config.isEmpty())
            continue;
        ++named;
        const ModelExamples::Example *example = ModelExamples::find(preset->config);
        QVERIFY2(example, qPrintable(name + u": no example "_s + preset->config));
        QVERIFY2(withoutMetadata(example->config) == withoutMetadata(json),
                 qPrintable(name + u": the example "_s + preset->config + u" is not "_s + config));
    }
    QVERIFY(mla >= 3 && named >= 12);
}

// A config.json without the key its code drops the input with takes its configuration class's
// default, as from_pretrained does (the code's default where the docstring says another): --config
// said "does not say" of GPT-NeoX-20B's and GPT-J's configs, whose presets give p = 0.
void TestPresetConfigs::aConfigWithoutTheKeyTakesItsClassDefault()
{
    const auto p = [](const QString &type, const QJsonObject &config) {
        const ConfigDropout::Read read = ConfigDropout::of(type, config);
        return std::pair {read.p.value_or(-1.0), read.byDefault};
    };
    QCOMPARE(p(u"gpt_neox"_s, {}), std::pair(0.0, true)); // GPTNeoXConfig hidden_dropout = 0.0
    QCOMPARE(p(u"gptj"_s, {}), std::pair(0.0, true)); // GPTJConfig embd_pdrop=0.0, documented 0.1
    QCOMPARE(p(u"t5"_s, {}), std::pair(0.1, true)); // T5Config dropout_rate=0.1
    QCOMPARE(p(u"whisper"_s, {}), std::pair(0.0, true)); // WhisperConfig dropout=0.0, documented 0.1
    QCOMPARE(p(u"gptj"_s, QJsonObject {{u"embd_pdrop"_s, 0.25}}), std::pair(0.25, false));
    // The config's own value, in its text model's block where it has one.
    QCOMPARE(ConfigDropout::of(u"t5"_s, QJsonObject {{u"text_config"_s, QJsonObject {{u"dropout_rate"_s, 0.2}}}},
                               u"text_config"_s)
                 .p,
             std::optional(0.2));
    // A model type it does not know, and one whose code has none, give no p.
    QVERIFY(!ConfigDropout::of(u"mpt"_s, {}).p);
    QVERIFY(!ConfigDropout::of(u"llama"_s, {}).p && ConfigDropout::of(u"llama"_s, {}).none);
}

// ModernBERT's preset and example said a context of 512, the max_position_embeddings of the first
// revision of its config.json, where the model was trained to 8192 (its README; ModernBertConfig's
// default, and the file's later revisions): a config copied before its model's class was written
// is out of date there. A preset's context below its config class's default max_position_embeddings
// is only the window's cap (kPresetMaxLen), and its example config says no less than the class.
void TestPresetConfigs::aPresetsContextIsNotAnOlderRevisions()
{
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.config.isEmpty())
            continue;
        const ModelExamples::Example *example = ModelExamples::find(preset.config);
        QVERIFY2(example, qPrintable(preset.name));
        const auto chosen = ConfigOptions::choose(preset.config, {});
        QVERIFY2(std::holds_alternative<ConfigOptions::Chosen>(chosen), qPrintable(preset.name));
        const ConfigCheck &check = std::get<ConfigOptions::Chosen>(chosen).check;
        const ModelRow *row = ModelTable::find(check.modelType);
        QJsonObject text = example->config;
        if (row && !row->text.isEmpty()) {
            row = ModelTable::find(row->text);
            text = text.value(u"text_config"_s).toObject();
        }
        QVERIFY2(row, qPrintable(preset.name + u": "_s + check.modelType));
        const QString key = row->keyName(u"max_position_embeddings"_s);
        const std::optional<double> byDefault = row->number(key);
        if (!byDefault)
            continue;
        ++read;
        const qint64 context = preset.params.value(u"max-len"_s).toLongLong();
        QVERIFY2(context >= qint64(*byDefault) || context == kPresetMaxLen,
                 qPrintable(u"%1: max-len %2, below %3's default %4"_s.arg(preset.name)
                                .arg(context)
                                .arg(row->configClass)
                                .arg(*byDefault)));
        if (text.contains(key))
            QVERIFY2(text.value(key).toDouble() >= *byDefault,
                     qPrintable(u"%1's example: %2 %3, below %4's default %5"_s.arg(preset.name, key)
                                    .arg(text.value(key).toDouble())
                                    .arg(row->configClass)
                                    .arg(*byDefault)));
    }
    QVERIFY(read >= 10);
}

POSENC_TEST_GUILESS_MAIN(TestPresetConfigs)
} // namespace tst_presetconfigs
#include "tst_presetconfigs.moc"
