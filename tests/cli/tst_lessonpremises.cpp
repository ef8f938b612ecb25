// A lesson's premise holds for the model it is read for (docs/ARCHITECTURE.md, Lessons): packing's
// advice names the layers it does not reach (those that are not attention), the s of X = s·E + PE is
// the model's own where its code multiplies by nothing, the lessons of that sum refuse a table added
// to no token embedding (a diffusion timestep's), and a patch model's X is said to hold no [MASK]
// token only of that X. Each count is recomputed here from the config's own keys.
#include "LessonRead.h"
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "io/Lesson.h"
#include "io/LessonText.h"
#include "io/Preset.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_lessonpremises {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using LessonRead::readFor;
using LessonRead::textOf;

QJsonObject configAt(const QString &name)
{
    QFile file(QStringLiteral(POSENC_CONFIGS) + u'/' + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// A config of `json` written into `dir`: its path.
QString writeConfig(const QTemporaryDir &dir, const QString &name, const QByteArray &json)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size())
        return {};
    return path;
}

} // namespace

class TestLessonPremises : public QObject
{
    Q_OBJECT

private slots:
    void packingNamesTheLayersThatAreNotAttention();
    void aPatchModelsScaleIsItsCodes();
    void theSumsLessonsRefuseATimestepTable();
    void aTimestepTableIsToldItEntersNoAttention();
    void whySqrtDNamesThePaperItCites();
    void aPatchModelsXHasNoMaskTokenOfItsOwn();
    void aHybridModelIsShownItsOwnLayersCode();
    void anAlibiModelHearsOfItsOwnCode();
    void aPortsFloat32IsNotTheModelsOwn();
    void relativePositionQuotesOnlyWhatItsFigureDraws();
    void aPapersPresetHasNoCodeToQuote();
    void aFlatQueryScaleAboveOneIsExplained();
    void aKeyPastTheWindowIsNotScored();
    void aScalingRunsPastItsOriginalContext();
    void aProportionalModelHearsWhoseFrequenciesTheScalingsTake();
    void aBoundSaidToFallFalls();
};

// packing told Qwen3-Next that restarted ids and no 2-D mask keep the documents apart, though 36 of
// its 48 layers are Gated DeltaNet (transformers, models/qwen3_next/modeling_qwen3_next.py:
// Qwen3NextGatedDeltaNet.forward reads no position ids and runs its causal conv and its recurrent
// state along the whole row; Qwen3NextDecoderLayer.forward gives them no position_ids). Every model
// with such layers hears how many, of what kind, and what separates documents in them (the
// collator's seq_idx and cu_seq_lens_q, DataCollatorWithFlattening in data/data_collator.py); a
// model all of whose layers attend hears nothing of it.
void TestLessonPremises::packingNamesTheLayersThatAreNotAttention()
{
    const Lesson &lesson = *Lessons::find(u"packing"_s);
    // Qwen3NextConfig.__post_init__: layer i is linear_attention unless (i + 1) % interval == 0.
    const QJsonObject next = configAt(u"Qwen3-Next-80B-A3B-Instruct.json"_s);
    const int layers = next.value(u"num_hidden_layers"_s).toInt();
    const int interval = next.value(u"full_attention_interval"_s).toInt();
    QVERIFY(layers > 0 && interval > 0);
    int linear = 0;
    for (int i = 0; i < layers; ++i)
        linear += (i + 1) % interval != 0;
    const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, u"qwen3-next-80b"_s});
    QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
    const QString said = textOf(lesson, r);
    QVERIFY2(said.contains(u"reaches only Qwen3-Next 80B A3B's %1 attention layers: %2 of its %3 layers are not "
                           "attention but linear attention (a recurrent state)"_s.arg(layers - linear)
                               .arg(linear)
                               .arg(layers)),
             qPrintable(said));
    QVERIFY2(said.contains(u"return_seq_idx=True"_s) && said.contains(u"seq_idx"_s), qPrintable(said));

    // The class, not the one model: LFM2's short convolutions (Lfm2Config: full_attn_idxs attend,
    // the rest are Lfm2ShortConv), from a config written here.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString lfm2 = writeConfig(dir, u"lfm2.json"_s,
                                     R"({"model_type": "lfm2", "hidden_size": 1024, "num_attention_heads": 16,
                                         "num_key_value_heads": 8, "num_hidden_layers": 10,
                                         "full_attn_idxs": [2, 5, 8], "max_position_embeddings": 128000,
                                         "rope_theta": 1000000.0})");
    const LessonOptions::Read conv = readFor(lesson, {u"--config"_s, lfm2});
    QVERIFY2(conv.result.exitCode() == 0, qPrintable(conv.result.usage));
    QVERIFY2(textOf(lesson, conv).contains(u"3 attention layers: 7 of its 10 layers are not attention but short "
                                           "causal convolutions"_s),
             qPrintable(textOf(lesson, conv)));

    // A model whose every layer attends: no such sentence.
    for (const QString &preset : {u"mistral-7b"_s, u"llama-3-1-8b"_s}) {
        const LessonOptions::Read all = readFor(lesson, {u"--preset"_s, preset});
        QCOMPARE(all.result.exitCode(), 0);
        QVERIFY2(!textOf(lesson, all).contains(u"are not attention"_s), qPrintable(preset));
    }
}

// dropout-on-sum said DiT-XL/2's s was unsaid and showed the lesson's √1152 = 33.9, a ratio
// ‖s·E‖ / ‖PE‖ of 48; DiT.forward (facebookresearch/DiT, models.py) adds pos_embed to
// x_embedder(x) as it comes, and MaskedAutoencoderViT.forward_encoder (facebookresearch/mae,
// models_mae.py) to patch_embed(x): s = 1. With s = 1 and σ = 1, ‖E_p‖ = √d and ‖PE_p‖ = √(d/2)
// for the 2-D sin-cos table without a cls row (half its columns a sine, half a cosine of each
// angle): the ratio √2.
void TestLessonPremises::aPatchModelsScaleIsItsCodes()
{
    const Lesson &lesson = *Lessons::find(u"dropout-on-sum"_s);
    for (const QString &preset : {u"dit-xl-2"_s, u"mae-vit-b-16"_s}) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
        const QString said = textOf(lesson, r);
        QVERIFY2(said.contains(u"'s code multiplies its embeddings by nothing: the s = 1 of these numbers is its own"_s)
                     && !said.contains(u"does not say what its code multiplies"_s),
                 qPrintable(preset + u": "_s + said));
        QVERIFY2(!said.contains(u"s·E outweighs the PE"_s), qPrintable(preset + u": "_s + said));
    }
    // DiT's grid has no cls row, so every row's PE norm is √(d/2): the ratio is √2 there.
    const LessonOptions::Read dit = readFor(lesson, {u"--preset"_s, u"dit-xl-2"_s});
    QVERIFY2(textOf(lesson, dit).contains(u"‖s·E‖ / ‖PE‖ = %1 at σ = 1"_s.arg(QString::number(std::sqrt(2.0), 'f', 2))),
             qPrintable(textOf(lesson, dit)));
}

// sum-vs-concat and why-sqrt-d taught SD 1.5's timestep table as X = s·E + PE: UNet2DConditionModel
// feeds time_proj(timesteps) to TimestepEmbedding (Linear, SiLU, Linear) and each ResnetBlock2D adds
// time_emb_proj of it to its feature map (diffusers, models/unets/unet_2d_condition.py get_time_embed,
// models/resnet.py): no token embedding, no s. Every lesson premised on that sum, or on tokens'
// positions, refuses each timestep preset (its title says so) and each diffusers config in one line
// saying what it needs, and still takes Whisper's sinusoid, which WhisperEncoder adds to its frames.
void TestLessonPremises::theSumsLessonsRefuseATimestepTable()
{
    const QStringList premised {u"sum-vs-concat"_s, u"why-sqrt-d"_s,   u"dropout-on-sum"_s,
                                u"masked-dropout"_s, u"left-padding"_s, u"packing"_s};
    QStringList timesteps;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.title.contains(u"timestep"_s))
            timesteps.append(preset.name);
    }
    QVERIFY(timesteps.size() >= 4);
    const QDir diffusers(QStringLiteral(POSENC_CONFIGS) + u"/diffusers"_s);
    const QStringList configs = diffusers.entryList({u"*.json"_s}, QDir::Files);
    QVERIFY(!configs.isEmpty());
    for (const QString &name : premised) {
        const Lesson &lesson = *Lessons::find(name);
        QList<QStringList> refusedFor;
        for (const QString &preset : timesteps)
            refusedFor.append({u"--preset"_s, preset});
        for (const QString &config : configs)
            refusedFor.append({u"--config"_s, diffusers.filePath(config)});
        for (const QStringList &arguments : refusedFor) {
            const LessonOptions::Read r = readFor(lesson, arguments);
            const QString what = name + u" "_s + arguments.join(u' ') + u": "_s + r.result.usage;
            QVERIFY2(r.result.exitCode() == 2, qPrintable(what));
            QVERIFY2(r.result.usage.startsWith(u"the lesson %1 needs "_s.arg(name))
                         && r.result.usage.contains(u"embeds a diffusion timestep"_s) && !r.result.usage.contains(u'\n'),
                     qPrintable(what));
        }
        const LessonOptions::Read whisper = readFor(lesson, {u"--preset"_s, u"whisper-large-v3"_s});
        QVERIFY2(whisper.result.exitCode() == 0, qPrintable(name + u": "_s + whisper.result.usage));
    }
    // The lessons that describe the table itself still take it.
    for (const QString &name : {u"frequencies"_s, u"relative-position"_s, u"float32-precision"_s}) {
        const LessonOptions::Read r = readFor(*Lessons::find(name), {u"--preset"_s, u"sd-1-5-timestep"_s});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(name + u": "_s + r.result.usage));
    }
}

// relative-position told SD 1.5's timestep table "which of two tokens comes first" and "Attention
// sees PE through Q = XW_Q": a timestep's embedding enters no attention over positions (diffusers'
// UNet2DConditionModel.get_time_embed feeds it to TimestepEmbedding, Linear, SiLU, Linear; FLUX's
// and Wan's timestep embedders to an MLP likewise). Every lesson a timestep preset or a diffusers
// config opens says of tokens and attention only what it says of them as not the model's: a
// sentence naming tokens or attention names the timestep too, and a lesson that speaks of a
// query and its keys says once that the model enters no attention.
void TestLessonPremises::aTimestepTableIsToldItEntersNoAttention()
{
    QList<QStringList> timesteps;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.title.contains(u"timestep"_s))
            timesteps.append({u"--preset"_s, preset.name});
    }
    QVERIFY(timesteps.size() >= 4);
    const QDir diffusers(QStringLiteral(POSENC_CONFIGS) + u"/diffusers"_s);
    for (const QString &config : diffusers.entryList({u"*.json"_s}, QDir::Files))
        timesteps.append({u"--config"_s, diffusers.filePath(config)});
    static const QRegularExpression ofAttention(u"\\b(tokens?|attention|attends?)\\b|Q = XW"_s,
                                                QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression ofQueries(u"\\b(query|queries|keys?)\\b"_s);
    static const QRegularExpression noAttention(u"enters? (no attention|none)"_s);
    static const QRegularExpression end(u"(?<!al)[.?!](\\s|$)"_s);
    int opened = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const QStringList &arguments : timesteps) {
            const LessonOptions::Read r = readFor(lesson, arguments);
            if (r.result.exitCode() != 0)
                continue;
            ++opened;
            const QString said = textOf(lesson, r);
            const QString where = lesson.name + u" "_s + arguments.join(u' ') + u": "_s;
            for (const QString &sentence : said.split(end, Qt::SkipEmptyParts)) {
                if (sentence.contains(ofAttention))
                    QVERIFY2(sentence.contains(u"timestep"_s), qPrintable(where + sentence));
            }
            if (said.contains(ofQueries) || said.contains(ofAttention))
                QVERIFY2(said.contains(noAttention), qPrintable(where + said));
        }
    }
    // frequencies, relative-position, float32-precision, families, what-dropout-does at least.
    QVERIFY2(opened >= 5 * 4, qPrintable(QString::number(opened)));
    // What holds instead is said: the similarity of the embeddings at two timesteps.
    const Lesson &relative = *Lessons::find(u"relative-position"_s);
    const QString said = textOf(relative, readFor(relative, {u"--preset"_s, u"sd-1-5-timestep"_s}));
    QVERIFY2(said.contains(u"the similarity of the embeddings at two timesteps"_s), qPrintable(said));
}

// why-sqrt-d told DiT-XL/2 "(the paper, section 3.4)", which read as DiT's paper: the factor √d is
// Vaswani et al.'s (Attention Is All You Need, section 3.4), named so for every model.
void TestLessonPremises::whySqrtDNamesThePaperItCites()
{
    const Lesson &lesson = *Lessons::find(u"why-sqrt-d"_s);
    int opened = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset.name});
        if (r.result.exitCode() != 0)
            continue;
        ++opened;
        const QString said = textOf(lesson, r);
        QVERIFY2(!said.contains(u"the paper"_s) && said.contains(u"(Vaswani et al., 2017, “Attention Is All You Need”, "
                                                                 "section 3.4)"_s),
                 qPrintable(preset.name + u": "_s + said));
    }
    QVERIFY2(opened >= 4, qPrintable(QString::number(opened)));
}

// masked-dropout said MAE "has no [SEP] or [MASK] token"; MaskedAutoencoderViT.__init__ builds
// self.mask_token, which forward_decoder appends for the removed patches (facebookresearch/mae,
// models_mae.py). What holds of every patch model is that its input X holds no such row.
void TestLessonPremises::aPatchModelsXHasNoMaskTokenOfItsOwn()
{
    const Lesson &lesson = *Lessons::find(u"masked-dropout"_s);
    for (const QString &preset : {u"mae-vit-b-16"_s, u"dit-xl-2"_s}) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
        const QString said = textOf(lesson, r);
        QVERIFY2(!said.contains(u"has no [SEP] or [MASK] token"_s), qPrintable(said));
        QVERIFY2(said.contains(u"no [SEP] or [MASK] token is among the rows of this X"_s), qPrintable(said));
    }
}

// many-layers showed EXAONE 4.0 32B "SmolLM3's code, not EXAONE 4.0 32B's", though its own code
// says it: Exaone4Attention.forward (transformers, models/exaone4/modeling_exaone4.py) turns q and k
// only "if self.sliding_window is None or self.is_sliding" ("We use global NoPE for hybrid
// attention model"). The box of a model whose code the lesson holds is that code, without the line
// that calls it another's; SmolLM3 keeps its own.
void TestLessonPremises::aHybridModelIsShownItsOwnLayersCode()
{
    const Lesson &lesson = *Lessons::find(u"many-layers"_s);
    const struct
    {
        QString preset, file, computes;
    } own[] = {{u"exaone-4-32b"_s, u"models/exaone4/modeling_exaone4.py"_s,
                u"if self.sliding_window is None or self.is_sliding:"_s},
               {u"smollm3-3b"_s, u"models/smollm3/configuration_smollm3.py"_s, u"if self.use_rope:"_s}};
    for (const auto &c : own) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, c.preset});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
        const QString box = lesson.code.forModel(r.model);
        QVERIFY2(box.startsWith(u"# transformers, "_s + c.file), qPrintable(c.preset + u":\n"_s + box));
        QVERIFY2(box.contains(c.computes) && !box.contains(u"not "_s + r.model.name), qPrintable(box));
    }
}

// left-padding told BLOOM-560m that its code builds its bias by "MPT's build_mpt_alibi_tensor over
// max_seq_len, sliced to the last key_length columns; BLOOM's build_alibi_tensor ...": BloomModel
// (transformers, models/bloom/modeling_bloom.py) calls build_alibi_tensor(attention_mask, ...) only;
// MptModel (models/mpt/modeling_mpt.py) build_mpt_alibi_tensor only. Each hears its own.
void TestLessonPremises::anAlibiModelHearsOfItsOwnCode()
{
    const struct
    {
        QString preset, own, other;
    } models[] = {{u"bloom-560m"_s, u"BLOOM's build_alibi_tensor"_s, u"build_mpt_alibi_tensor"_s},
                  {u"mpt-7b"_s, u"MPT's build_mpt_alibi_tensor"_s, u"build_alibi_tensor"_s}};
    for (const QString &name : {u"left-padding"_s, u"packing"_s}) {
        const Lesson &lesson = *Lessons::find(name);
        for (const auto &m : models) {
            const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, m.preset});
            QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
            const QString said = textOf(lesson, r);
            QVERIFY2(said.contains(m.own) && !said.contains(m.other), qPrintable(name + u": "_s + said));
        }
    }
}

// float32-precision said Wan 2.1's timestep table "forms the angle p·w_i in float32": diffusers'
// port does (WanTimeTextImageEmbedding's Timesteps, get_timestep_embedding), the preset's source;
// Wan's own sinusoidal_embedding_1d (Wan-Video/Wan2.1, wan/modules/model.py) casts the position to
// float64 and forms the outer product there. The sentence names the port and the model's own code;
// a preset read from the model's own code (SD 1.5's, Whisper's) hears nothing of a port.
void TestLessonPremises::aPortsFloat32IsNotTheModelsOwn()
{
    const Lesson &lesson = *Lessons::find(u"float32-precision"_s);
    const LessonOptions::Read wan = readFor(lesson, {u"--preset"_s, u"wan-2-1-timestep"_s});
    QVERIFY2(wan.result.exitCode() == 0, qPrintable(wan.result.usage));
    const QString said = textOf(lesson, wan);
    QVERIFY2(said.contains(u"from a port of the model's code, diffusers' get_timestep_embedding (the code in "
                           u"question), forms the angle"_s)
                 && said.contains(u"the model's own code (Wan-Video/Wan2.1 wan/modules/model.py, "
                                  "sinusoidal_embedding_1d) forms it in float64"_s),
             qPrintable(said));
    for (const QString &preset : {u"sd-1-5-timestep"_s, u"whisper-large-v3"_s}) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
        QVERIFY2(!textOf(lesson, r).contains(u"a port of the model's code"_s), qPrintable(textOf(lesson, r)));
    }
}

// relative-position quoted S(10) and S(100) for a table of 8 positions, and a curve "measured at a
// middle position" where the figure measures at p = 0 alone. The similarity figure draws S(k) over
// the offsets 0 .. min(L − 1, 200) and a second row, p = min((L − 1)/2, L − 1 − that last offset),
// only where it is past 0 (SimilarityCompute.cpp): every S(k) quoted is one drawn, every row named
// one measured, and "not monotonically" said only where S(k) rises somewhere over them (float64 here).
void TestLessonPremises::relativePositionQuotesOnlyWhatItsFigureDraws()
{
    const Lesson &lesson = *Lessons::find(u"relative-position"_s);
    const QRegularExpression quoted(u"S\\((\\d+)\\)"_s);
    for (const auto &[d, length] : {std::pair {16, 8}, std::pair {16, 2}, std::pair {16, 60}, std::pair {128, 256},
                                    std::pair {512, 1000}, std::pair {6, 150}}) {
        const LessonOptions::Read r = readFor(
            lesson, {u"--d-model"_s, QString::number(d), u"--max-len"_s, QString::number(length)});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
        const QString said = textOf(lesson, r);
        const int last = std::min(length - 1, 200);
        for (auto it = quoted.globalMatch(said); it.hasNext();) {
            const int k = it.next().captured(1).toInt();
            QVERIFY2(k <= last, qPrintable(said));
        }
        const int middle = std::max(0, std::min((length - 1) / 2, length - 1 - last));
        const QString rows = middle > 0 ? u"measured at p = 0 and at p = %1 lies"_s.arg(middle)
                                        : u"measured at p = 0 lies"_s;
        QVERIFY2(said.contains(rows), qPrintable(said));
        const auto similarity = [d = d](int k) {
            double sum = 0.0;
            for (int i = 0; i < d / 2; ++i)
                sum += std::cos(k * std::pow(10000.0, -2.0 * i / d));
            return sum;
        };
        bool rises = false;
        for (int k = 1; k <= last; ++k)
            rises = rises || similarity(k) > similarity(k - 1);
        QVERIFY2(said.contains(u"not monotonically"_s) == rises, qPrintable(said));
        QVERIFY2(said.contains(u"falls steadily"_s) == (!rises && last >= 2), qPrintable(said));
    }
}

// "Transformer base's code multiplies its embeddings by s = 22.6": its preset is the paper's
// ("reference": "paper"), which has no code. And why-sqrt-d said the Annotated Transformer's preset
// "does not say how its embeddings start", where its make_model runs nn.init.xavier_uniform_ on
// every parameter with p.dim() > 1, Embeddings.lut among them (harvardnlp/annotated-transformer,
// the_annotated_transformer.py), whose σ follows a vocabulary size (its "embedding-init").
void TestLessonPremises::aPapersPresetHasNoCodeToQuote()
{
    const Lesson &sum = *Lessons::find(u"dropout-on-sum"_s);
    for (const QString &preset : {u"transformer-base"_s, u"transformer-big"_s}) {
        const LessonOptions::Read r = readFor(sum, {u"--preset"_s, preset});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
        const QString said = textOf(sum, r);
        QVERIFY2(said.contains(u"'s paper multiplies its embeddings by s = "_s), qPrintable(said));
        QVERIFY2(!said.contains(u"'s code multiplies"_s), qPrintable(said));
    }
    const LessonOptions::Read annotated = readFor(sum, {u"--preset"_s, u"annotated-transformer"_s});
    QVERIFY2(textOf(sum, annotated).contains(u"The Annotated Transformer's code multiplies its embeddings by s = "_s),
             qPrintable(textOf(sum, annotated)));
    const Lesson &sqrt = *Lessons::find(u"why-sqrt-d"_s);
    const LessonOptions::Read r = readFor(sqrt, {u"--preset"_s, u"annotated-transformer"_s});
    QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
    const QString said = textOf(sqrt, r);
    QVERIFY2(said.contains(u"the Annotated Transformer's code starts its embeddings with xavier_uniform_"_s)
                 && !said.contains(u"does not say how its embeddings start"_s),
             qPrintable(said));
}

// many-layers told DeepSeek-V3 "the query-scale view is flat for it" beside a view flat at ×1.8739,
// and said nothing of why it is not 1. The level is what YaRN does to every q·k at every position:
// DeepseekV3Attention.__init__ (transformers, models/deepseek_v3/modeling_deepseek_v3.py) multiplies
// the softmax scale by yarn_get_mscale(factor, mscale_all_dim)², 0.1·mscale_all_dim·ln f + 1 squared;
// gpt-oss's YaRN has no mscale_all_dim, and _compute_yarn_parameters (modeling_rope_utils.py) gives
// its cos and sin the attention factor 0.1·ln f + 1, so q·k its square. Each from the config's keys.
void TestLessonPremises::aFlatQueryScaleAboveOneIsExplained()
{
    const Lesson &lesson = *Lessons::find(u"many-layers"_s);
    const struct
    {
        QString preset, file, says;
    } models[] = {{u"deepseek-v3"_s, u"DeepSeek-V3.json"_s, u"get_mscale(f, mscale_all_dim)² = "_s},
                  {u"kimi-k2"_s, u"Kimi-K2-Instruct.json"_s, u"get_mscale(f, mscale_all_dim)² = "_s},
                  {u"gpt-oss-20b"_s, u"gpt-oss-20b.json"_s, u"multiplies cos and sin by its attention factor "_s}};
    for (const auto &m : models) {
        const QJsonObject scaling = configAt(m.file).value(u"rope_scaling"_s).toObject();
        QVERIFY2(!scaling.isEmpty(), qPrintable(m.file));
        const double f = scaling.value(u"factor"_s).toDouble();
        const double all = scaling.value(u"mscale_all_dim"_s).toDouble(1.0);
        const double mscale = 0.1 * all * std::log(f) + 1.0;
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, m.preset});
        QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.usage));
        const QString said = textOf(lesson, r);
        const QString level = u"the query-scale view is flat for it, where Llama 4's NoPE layers grow with the "
                              "position; but flat at %1, not 1"_s.arg(mscale * mscale, 0, 'f', 4);
        QVERIFY2(said.contains(level), qPrintable(level + u" not in: "_s + said));
        QVERIFY2(said.contains(m.says + QString::number(m.preset == u"gpt-oss-20b"_s ? mscale : mscale * mscale,
                                                        'f', 4)),
                 qPrintable(said));
    }
    // A model whose attention keeps its scale hears only that the view is flat.
    const LessonOptions::Read gemma = readFor(lesson, {u"--preset"_s, u"gemma-3-4b"_s});
    QVERIFY2(gemma.result.exitCode() == 0, qPrintable(gemma.result.usage));
    const QString said = textOf(lesson, gemma);
    QVERIFY2(said.contains(u"the query-scale view is flat for it"_s) && !said.contains(u"not 1"_s), qPrintable(said));
}

// left-padding told Mistral 7B "against the row's first token the last one scores −0.00902 either
// way", 9,191 columns apart, though its every layer's sliding window of 4096 masks that key
// (transformers, masking_utils.py: sliding_window_overlay keeps kv_idx > q_idx - sliding_window,
// over cache positions). Every preset with a window: a key W or more back is said to be masked.
void TestLessonPremises::aKeyPastTheWindowIsNotScored()
{
    const Lesson &lesson = *Lessons::find(u"left-padding"_s);
    static const QRegularExpression lastId(u"has id ([0-9,]+)"_s);
    int masked = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const QString window = preset.params.value(u"sliding-window"_s);
        if (window.isEmpty())
            continue;
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset.name});
        if (r.result.exitCode() != 0 || !r.result.usage.isEmpty())
            continue;
        const QString said = textOf(lesson, r);
        const QRegularExpressionMatch id = lastId.match(said);
        QVERIFY2(id.hasMatch(), qPrintable(said));
        // The row's first real token has id 0 and the ids count its real columns: the last one's id
        // is how many columns back the first one lies.
        const qint64 back = QString(id.captured(1)).remove(u',').toLongLong();
        if (back >= window.toLongLong()) {
            ++masked;
            QVERIFY2(said.contains(u"its sliding window of %1 masks that key, %2 back"_s.arg(
                         QLocale(QLocale::English).toString(window.toLongLong()), id.captured(1))),
                     qPrintable(preset.name + u": "_s + said));
            QVERIFY2(!said.contains(u"the last one scores"_s), qPrintable(preset.name + u": "_s + said));
        } else {
            QVERIFY2(!said.contains(u"masks that key"_s), qPrintable(preset.name + u": "_s + said));
        }
    }
    // Mistral 7B, Command R7B's and EXAONE 4.0's sliding layers at the lesson's default batch.
    QVERIFY2(masked >= 3, qPrintable(QString::number(masked)));
}

// rope-scaling told InternLM2.5 7B (max_position_embeddings 32768, dynamic NTK ×2) that it "runs to
// 32,768 with dynamic NTK scaling", its L₀ itself: HF's dynamic scaling changes θ only past L₀
// (modeling_rope_utils.py, dynamic_rope_update). A model runs "to" a context only above its L₀.
void TestLessonPremises::aScalingRunsPastItsOriginalContext()
{
    const Lesson &lesson = *Lessons::find(u"rope-scaling"_s);
    static const QRegularExpression runsTo(u"L_0 = ([0-9,]+) positions and runs to ([0-9,]+) with"_s);
    const auto number = [](const QString &text) { return QString(text).remove(u',').toLongLong(); };
    int said = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset.name});
        if (r.result.exitCode() != 0 || !r.result.usage.isEmpty())
            continue;
        const QRegularExpressionMatch m = runsTo.match(textOf(lesson, r));
        if (!m.hasMatch())
            continue;
        ++said;
        QVERIFY2(number(m.captured(2)) > number(m.captured(1)), qPrintable(preset.name + u": "_s + m.captured()));
    }
    QVERIFY2(said >= 3, qPrintable(QString::number(said)));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = writeConfig(dir, u"dynamic.json"_s,
                                       R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                                           "num_hidden_layers": 32, "max_position_embeddings": 32768,
                                           "rope_theta": 1000000.0,
                                           "rope_scaling": {"type": "dynamic", "factor": 2.0}})");
    const LessonOptions::Read r = readFor(lesson, {u"--config"_s, config});
    QVERIFY2(r.result.exitCode() == 0 && r.result.usage.isEmpty(), qPrintable(r.result.usage));
    const QString text = textOf(lesson, r);
    QVERIFY2(!text.contains(u"runs to"_s) && text.contains(u"names no longer context"_s), qPrintable(text));
}

// rope-scaling told Gemma 4 (proportional RoPE, head_dim 512, a quarter turning) that llama3 "would
// keep 40, blend 7 and divide 17" of its pairs: counts over θ^(−2i/128), transformers' partial
// rotary frequencies (modeling_rope_utils.py, _compute_default_rope_parameters: dim = head_dim ·
// partial_rotary_factor), which the figure's unscaled curve draws too, not its own θ^(−2i/512)
// (_compute_proportional_rope_parameters). Every proportional model hears whose they are.
void TestLessonPremises::aProportionalModelHearsWhoseFrequenciesTheScalingsTake()
{
    const Lesson &lesson = *Lessons::find(u"rope-scaling"_s);
    int said = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = LessonRead::modelFor(lesson, {u"--preset"_s, preset.name});
        if (!model || model->params.rope.type != RopeType::Proportional)
            continue;
        ++said;
        const RopeParams &rope = model->params.rope;
        const auto turning = 2 * std::int64_t(std::floor(rope.partialRotaryFactor * double(rope.headDim) / 2.0));
        const QString text = LessonRead::itemsOf(lesson, *model).join(u' ');
        QVERIFY2(text.contains(
                     u"take transformers' partial rotary frequencies θ^−2i/%1, not its own θ^−2i/%2"_s.arg(turning).arg(
                         rope.headDim)),
                 qPrintable(preset.name + u": "_s + text));
    }
    QVERIFY2(said >= 1, qPrintable(QString::number(said)));
}

// rope-decay told Gemma 4 that RoFormer's bound "falls from 129 at distance 0 to 73.4 at 100 and
// 74.9 at 1000": it rises past 100. A bound said to fall to each number is lower at each.
void TestLessonPremises::aBoundSaidToFallFalls()
{
    const Lesson &lesson = *Lessons::find(u"rope-decay"_s);
    static const QRegularExpression falls(
        u"bound falls from ([0-9.,]+) at distance 0 to ([0-9.,]+) at 100 and ([0-9.,]+) at 1000"_s);
    static const QRegularExpression notOn(u"to ([0-9.,]+) at 100, but not on: at 1000 it is ([0-9.,]+)"_s);
    const auto number = [](const QString &text) { return QString(text).remove(u',').toDouble(); };
    int fell = 0, rose = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset.name});
        if (r.result.exitCode() != 0 || !r.result.usage.isEmpty())
            continue;
        const QString text = textOf(lesson, r);
        if (const QRegularExpressionMatch m = falls.match(text); m.hasMatch()) {
            ++fell;
            QVERIFY2(number(m.captured(1)) > number(m.captured(2)) && number(m.captured(2)) > number(m.captured(3)),
                     qPrintable(preset.name + u": "_s + m.captured()));
        } else if (const QRegularExpressionMatch n = notOn.match(text); n.hasMatch()) {
            ++rose;
            QVERIFY2(number(n.captured(2)) >= number(n.captured(1)), qPrintable(preset.name + u": "_s + n.captured()));
        }
    }
    QVERIFY2(fell >= 3 && rose >= 1, qPrintable(u"%1 %2"_s.arg(fell).arg(rose)));
}

POSENC_TEST_GUILESS_MAIN(TestLessonPremises)
} // namespace tst_lessonpremises
#include "tst_lessonpremises.moc"
