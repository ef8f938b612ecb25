// A lesson read for a model it was not written for says what is true of that model's class, each
// sentence checked against float64 written here from the reference code (docs/ARCHITECTURE.md,
// Lessons): a model whose every layer places position is not taught as NoPE, a factor on cos and
// sin scales only the columns that turn, M-RoPE's ids without the mask, the critical dimension of
// the pairs a model runs, and whose code multiplies DeepSeek's softmax scale by mscale².
#include "LessonRead.h"
#include "check/ModelConfigCheck.h"
#include "check/models/LayerLessonNumbers.h"
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "core/LessonNumbers.h"
#include "io/Lesson.h"
#include "io/LessonText.h"
#include "io/Preset.h"
#include "support/T5Reference.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <numbers>

namespace tst_lessonclasses {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using LessonRead::readFor;
using LessonRead::textOf;

double valueOf(const QString &key, const LessonModel &model)
{
    const auto n = LessonNumbers::number(key, model, LayerLessonNumbers::entries());
    return n && n->value ? *n->value : std::nan("");
}

// The words a sentence shows for `key`.
QString wordsOf(const QString &key, const LessonModel &model)
{
    const auto n = LessonNumbers::number(key, model, LayerLessonNumbers::entries());
    return n ? n->text : QString();
}

constexpr double kTwoPi = 2.0 * std::numbers::pi;

} // namespace

class TestLessonClasses : public QObject
{
    Q_OBJECT

private slots:
    void nopeOrderNeedsALayerWithoutPosition();
    void anAttentionFactorScalesOnlyTheTurnedColumns();
    void mropeIdsWithoutTheMaskAreOneShiftOfTheRow();
    void theCriticalDimensionIsOfThePairsTheModelRuns();
    void deepseekV2sSoftmaxScaleSaysWhoseCodeAppliesIt();
    void theFamiliesDistancesAreKeysItsFigureDraws();
    void ropeDecaySaysWhichLayersItsNumbersAre();
};

// nope-order taught Llama 2, BLOOM, Whisper, T5 and ModernBERT as NoPE models ("a score q·k cannot
// say how far apart two tokens are"), though every Llama 2 layer turns q and k, BLOOM's bias
// -m·(i - j) decays the first key's weight at t = 99 to 2.0e-31 in head 1 (not 1/(t + 1) = 0.01),
// and WhisperEncoder.forward adds embed_positions before its first layer. The lesson applies to a
// model with layers without position (its config's NoPE layers) or to encoding none, and refuses the
// others in one line that names what places their positions.
void TestLessonClasses::nopeOrderNeedsALayerWithoutPosition()
{
    const Lesson &lesson = *Lessons::find(u"nope-order"_s);
    // The layers without rotary of each NoPE config, as transformers reads them:
    // SmolLM3Attention.use_rope = no_rope_layers[layer_idx] (every 4th of 36 off), Llama 4's
    // no_rope_layers (every 4th of 48), Cohere2Attention rotates only in sliding layers (every 4th
    // of 32 is full), Exaone4Attention likewise (every 4th of 64).
    const struct
    {
        QString preset;
        int nope;
    } nope[] = {{u"smollm3-3b"_s, 9}, {u"llama-4-scout"_s, 12}, {u"command-r7b"_s, 8}, {u"exaone-4-32b"_s, 16}};
    for (const auto &c : nope) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, c.preset});
        QVERIFY2(r.result.exitCode() == 0 && r.result.usage.isEmpty(), qPrintable(c.preset + r.result.usage));
        QVERIFY2(textOf(lesson, r).contains(u"'s %1 NoPE layers"_s.arg(c.nope)), qPrintable(textOf(lesson, r)));
    }
    // Every other shipped preset places position in every layer or in its input: refused, naming
    // its scheme (the encoders with positions too: T5's buckets, ModernBERT's RoPE).
    const struct
    {
        QString preset, words;
    } named[] = {{u"llama-2-7b"_s, u"every one of its layers places position (RoPE)"_s},
                 {u"bloom-560m"_s, u"every one of its layers places position (ALiBi"_s},
                 {u"t5-base"_s, u"every one of its layers places position (T5 relative buckets)"_s},
                 {u"modernbert-base"_s, u"every one of its layers places position (RoPE)"_s},
                 {u"whisper-large-v3"_s, u"it adds a position term to its input (Sinusoidal PE)"_s}};
    for (const auto &c : named) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, c.preset});
        QVERIFY2(r.result.exitCode() == 2, qPrintable(c.preset));
        QVERIFY2(
            r.result.usage.startsWith(u"the lesson nope-order needs a model with layers that have no position term"_s)
                && r.result.usage.contains(c.words) && !r.result.usage.contains(u'\n'),
            qPrintable(c.preset + u": "_s + r.result.usage));
    }
    int refused = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset.name});
        const bool isNope
            = std::any_of(std::begin(nope), std::end(nope), [&](const auto &c) { return c.preset == preset.name; });
        QVERIFY2((r.result.exitCode() == 0) == isNope, qPrintable(preset.name + u": "_s + r.result.usage));
        refused += r.result.exitCode() == 2;
    }
    QVERIFY(refused >= 40);
    // Parameters of no named model with encoding none are the explicit choice the lesson is about.
    const LessonOptions::Read unnamed = readFor(lesson, {u"--d-model"_s, u"64"_s});
    QCOMPARE(unnamed.result.exitCode(), 0);
    QVERIFY(textOf(lesson, unnamed).contains(u"cannot say how far apart two tokens are"_s));
}

// rope-relative told Phi-4 mini (96 of 128 columns turn) that "the factor 1.1902 on both multiplies
// every score by 1.1902²"; transformers' apply_rotary_pos_emb (models/phi3/modeling_phi3.py) turns
// q_rot = q[..., :rotary_dim] alone, with cos and sin times attention_scaling, and concatenates
// q_pass unchanged: only the turned columns' part of a score is scaled. Here a partial rotary of 16
// of 32 columns whose yarn keeps every pair (factor 1) under an attention factor of 1.5: the score
// the lesson quotes is 1.5²·(the turned part) + (the passed part), written here in float64.
void TestLessonClasses::anAttentionFactorScalesOnlyTheTurnedColumns()
{
    const Lesson &lesson = *Lessons::find(u"rope-relative"_s);
    const LessonOptions::Read r
        = readFor(lesson,
                  {u"--encoding"_s, u"rope"_s, u"--d-model"_s, u"32"_s, u"--head-dim"_s, u"32"_s,
                   u"--partial-rotary-factor"_s, u"0.5"_s, u"--rope-type"_s, u"yarn"_s, u"--rope-factor"_s, u"1"_s,
                   u"--attention-factor"_s, u"1.5"_s, u"--original-max-len"_s, u"512"_s});
    QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.messages().join(u"; "_s) + r.result.usage));
    const int head = 32, rotary = 16, half = rotary / 2;
    const double a = 1.5, theta = 10000.0;
    std::vector<double> q(head), k(head);
    for (int j = 0; j < head; ++j) {
        q[std::size_t(j)] = std::sin(j + 1.0);
        k[std::size_t(j)] = std::cos(2.0 * j + 1.0);
    }
    // <R(0)q, R(7)k>: rotate_half's pairs (i, i + r/2) of the first r columns, each times a.
    double turned = 0.0, passed = 0.0;
    for (int i = 0; i < half; ++i) {
        const double angle = 7.0 * std::pow(theta, -2.0 * i / rotary);
        const double c = std::cos(angle), s = std::sin(angle);
        const std::size_t x = std::size_t(i), y = std::size_t(i + half);
        turned += q[x] * (k[x] * c - k[y] * s) + q[y] * (k[y] * c + k[x] * s);
    }
    for (int j = rotary; j < head; ++j)
        passed += q[std::size_t(j)] * k[std::size_t(j)];
    const double score = a * a * turned + passed;
    QVERIFY2(std::abs(valueOf(u"rope_dot_0_7"_s, r.model) - score) < 1e-9,
             qPrintable(u"%1 against %2"_s.arg(valueOf(u"rope_dot_0_7"_s, r.model)).arg(score)));
    // Not a² times the unscaled score: the sentence says which part the factor scales.
    QVERIFY(std::abs(score / (turned + passed) - a * a) > 0.01);
    const QString said = textOf(lesson, r);
    QVERIFY2(!said.contains(u"multiplies every score by"_s), qPrintable(said));
    QVERIFY2(said.contains(u"multiplies the part of every score from the first 16 columns, which turn, by 1.5²"_s)
                 && said.contains(u"leaves the part from the columns that pass unturned as it is"_s),
             qPrintable(said));
    // Phi-4 mini, the model the sentence was false of, hears the same.
    const LessonOptions::Read phi = readFor(lesson, {u"--preset"_s, u"phi-4-mini"_s});
    QCOMPARE(phi.result.exitCode(), 0);
    QVERIFY2(textOf(lesson, phi).contains(u"from the first 96 columns, which turn"_s), qPrintable(textOf(lesson, phi)));
}

// left-padding told Qwen2.5-VL that "arange(L) would give it its column, 32767", then that its
// scores are alike "either way" and that dynamic NTK reads "32760 under arange(L)": its arange(L) is
// get_rope_index without the mask (Qwen2_5_VLModel.get_rope_index, models/qwen2_5_vl), which counts
// the pads as text and shifts the row's ids by their number, the image still taking fewer ids than
// columns. The id it names is that shift of the true one, the length dynamic NTK reads one more,
// and the score the same at the same difference: q all ones, (1/64)·Σ cos(Δ·θ_i), θ_i =
// 1e6^(-2i/128), Δ the last text token's id less the first's (0), on all three axes alike.
void TestLessonClasses::mropeIdsWithoutTheMaskAreOneShiftOfTheRow()
{
    const Lesson &lesson = *Lessons::find(u"left-padding"_s);
    const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, u"qwen2-5-vl-7b"_s});
    QCOMPARE(r.result.exitCode(), 0);
    const double last = valueOf(u"batch_last_id"_s, r.model), padding = valueOf(u"batch_padding"_s, r.model);
    const double column = valueOf(u"batch_last_column"_s, r.model);
    QCOMPARE(valueOf(u"batch_last_arange_id"_s, r.model), last + padding);
    QCOMPARE(valueOf(u"batch_length_arange"_s, r.model), last + padding + 1.0);
    QVERIFY(last + padding < column);
    const QString said = textOf(lesson, r);
    QVERIFY2(said.contains(u"the last token gets %1, not its column %2"_s.arg(
                 QLocale(QLocale::English).toString(qint64(last + padding)),
                 QLocale(QLocale::English).toString(qint64(column))))
                 && !said.contains(u"would give it its column"_s),
             qPrintable(said));
    double score = 0.0;
    for (int i = 0; i < 64; ++i)
        score += std::cos(last * std::pow(1e6, -2.0 * i / 128.0));
    score /= 64.0;
    QVERIFY2(std::abs(valueOf(u"batch_score_reference"_s, r.model) - score) < 1e-6,
             qPrintable(u"%1 against %2"_s.arg(valueOf(u"batch_score_reference"_s, r.model)).arg(score)));
    QVERIFY(std::abs(valueOf(u"batch_score_difference"_s, r.model)) < 1e-6);
}

// rope-scaling told Gemma 3 4B (linear x8, no original context named) that its pairs "from
// dimension 186 on never finish a turn within L", Liu's count for the unscaled θ, while
// Gemma3RotaryEmbedding divides every inv_freq by 8 (_compute_linear_scaling_rope_parameters) and
// the wavelength panel drew those pairs crossing L at dimension 146. The count is of the pairs as
// the model runs them: the first 2i with 8·2π·θ^(2i/r) > L. A model that names L0 keeps Liu's
// 2⌈(r/2)·log_θ(L0/2π)⌉, the pairs it was trained on unscaled (Llama 3.1: θ 500000, L0 8192).
void TestLessonClasses::theCriticalDimensionIsOfThePairsTheModelRuns()
{
    const Lesson &lesson = *Lessons::find(u"rope-scaling"_s);
    const LessonOptions::Read gemma = readFor(lesson, {u"--preset"_s, u"gemma-3-4b"_s});
    QCOMPARE(gemma.result.exitCode(), 0);
    const Params &p = gemma.model.params;
    const double r = double(p.rope.headDim), L = double(p.maxLen), f = *p.rope.factor;
    int dim = 0;
    while (dim < int(r) && f * kTwoPi * std::pow(p.rope.theta, dim / r) <= L)
        dim += 2;
    QCOMPARE(dim, 146); // r 256, θ 1e6, L 131072, f 8
    QCOMPARE(valueOf(u"rope_critical_dim"_s, gemma.model), double(dim));
    // The figure counts rotary pairs, so the text names the pair: dimension 146 is pair 73.
    QVERIFY2(textOf(lesson, gemma).contains(u"its pairs from i = 73 on never finish a turn within L"_s),
             qPrintable(textOf(lesson, gemma)));
    const LessonOptions::Read llama = readFor(lesson, {u"--preset"_s, u"llama-3-1-8b"_s});
    QCOMPARE(llama.result.exitCode(), 0);
    const double liu = 2.0 * std::ceil(64.0 * std::log(8192.0 / kTwoPi) / std::log(500000.0));
    QCOMPARE(valueOf(u"rope_critical_dim"_s, llama.model), liu);
}

// The check cited models/deepseek_v2/modeling_deepseek_v2.py for qk_head_dim^-0.5 times
// get_mscale(f, mscale_all_dim)², and the lesson DeepSeek-V3's code: transformers'
// DeepseekV2Attention.__init__ set self.scaling = self.qk_head_dim ** (-0.5) alone until PR #47435
// (read_file @0233e509); DeepSeek's own modeling_deepseek.py and vLLM's deepseek_v2 multiply by
// mscale², (0.1·0.707·ln 40 + 1)² = 1.5896 for DeepSeek-V2-Lite's published config.
void TestLessonClasses::deepseekV2sSoftmaxScaleSaysWhoseCodeAppliesIt()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"DeepSeek-V2-Lite.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // deepseek-ai/DeepSeek-V2-Lite config.json, its position keys.
    file.write(R"({"architectures": ["DeepseekV2ForCausalLM"], "model_type": "deepseek_v2", "hidden_size": 2048,
        "num_attention_heads": 16, "num_key_value_heads": 16, "num_hidden_layers": 27, "max_position_embeddings": 163840,
        "q_lora_rank": null, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
        "rope_theta": 10000, "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707,
        "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096, "type": "yarn"}})");
    file.close();
    const Lesson &lesson = *Lessons::find(u"rope-scaling"_s);
    const LessonOptions::Read r = readFor(lesson, {u"--config"_s, path});
    QVERIFY2(r.result.exitCode() == 0, qPrintable(r.result.messages().join(u"; "_s) + r.result.usage));
    const double mscale = 0.1 * 0.707 * std::log(40.0) + 1.0;
    QVERIFY(std::abs(valueOf(u"rope_softmax_scale"_s, r.model) - mscale * mscale) < 1e-12);
    const QString said = textOf(lesson, r);
    QVERIFY2(said.contains(u"DeepseekV2Attention.__init__ since transformers PR #47435, qk_head_dim^-0.5 alone before "
                           "it; DeepSeek's own modeling_deepseek.py and vLLM's deepseek_v2 apply it"_s)
                 && !said.contains(u"DeepSeek-V3's code"_s),
             qPrintable(said));
    QCOMPARE(wordsOf(u"rope_softmax_scale"_s, r.model), u"1.5896"_s);
    // posenc check --config's softmax line: the file and formula, and since when transformers has it.
    QVERIFY(file.open(QIODevice::ReadOnly));
    const ConfigCheck check = ModelConfig::check(QJsonDocument::fromJson(file.readAll()).object());
    QVERIFY(!check.layers.isEmpty());
    const ConfigLayer &layer = check.layers.constFirst();
    QVERIFY(std::abs(*layer.scheme.softmaxScale - mscale * mscale / std::sqrt(192.0)) < 1e-12);
    QString line;
    for (const auto &[key, source] : layer.sources)
        line = key == u"softmax_scale"_s ? source : line;
    QCOMPARE(line,
             u"code models/deepseek_v2/modeling_deepseek_v2.py (qk_head_dim^-0.5 * get_mscale(factor, "
             "mscale_all_dim)^2: DeepseekV2Attention.__init__ since transformers PR #47435, qk_head_dim^-0.5 "
             "alone before it; DeepSeek's own modeling_deepseek.py and vLLM's deepseek_v2 apply it)"_s);
}

// The families lesson said "a hundred back" and "The keys 10 and 1000 back fall in T5's buckets 8
// and 15, its last" for MAE (197 patches: the figure's query q = (L − 1)/2 = 98) and the 512
// positions of T5 and DeBERTa (q = 255), where the figure draws no key that far back. Every distance
// it quotes is one the figure draws from q, for every preset, and "its last" is said of a key in
// the last bucket T5's reference gives (relative_attention_max_distance 128 caps it).
void TestLessonClasses::theFamiliesDistancesAreKeysItsFigureDraws()
{
    const Lesson &lesson = *Lessons::find(u"families"_s);
    static const QRegularExpression back(
        u"(\\d[\\d,]*) (?:keys? )?back|at distance (\\d[\\d,]*)|and (\\d[\\d,]*) apart"_s);
    static const QRegularExpression t5Last(
        u"The keys 10 and (\\d[\\d,]*) back fall in T5's buckets \\d+ and \\d+, its last"_s);
    int shortTables = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset.name});
        if (r.result.exitCode() != 0)
            continue;
        const QString text = textOf(lesson, r);
        const Params &p = r.model.params;
        const std::int64_t q = (p.maxLen - 1) / 2;
        shortTables += q < 1000;
        QVERIFY2(!text.contains(u"hundred"_s), qPrintable(preset.name + u": "_s + text));
        int quoted = 0;
        for (auto it = back.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            const QString words = m.captured(1) + m.captured(2) + m.captured(3);
            const std::int64_t distance = QString(words).remove(u',').toLongLong();
            QVERIFY2(distance >= 1 && distance <= q,
                     qPrintable(u"%1: %2 back from q = %3: %4"_s.arg(preset.name, words).arg(q).arg(text)));
            ++quoted;
        }
        QVERIFY2(quoted >= 3, qPrintable(preset.name + u": "_s + text));
        if (const auto m = t5Last.match(text); m.hasMatch()) {
            const std::int64_t distance = m.captured(1).remove(u',').toLongLong();
            QCOMPARE(t5ref::t5(-distance, p.t5.buckets, p.t5.maxDistance, !p.t5.causal).value,
                     t5ref::t5(-(1 << 30), p.t5.buckets, p.t5.maxDistance, !p.t5.causal).value);
        } else {
            QVERIFY2(text.contains(u"T5's last bucket, which holds every key farther still, begins"_s),
                     qPrintable(preset.name + u": "_s + text));
        }
    }
    QVERIFY(shortTables >= 10);
}

// rope-decay quoted Gemma 3's bound and scores (rope-scaling its scaling, rope-relative its angles)
// without saying whose layers they are: its preset is the 5 full_attention layers' θ = 1,000,000
// (linear ×8), its other 29 layers slide a window of 1024 with θ = 10,000 (transformers,
// models/gemma3/configuration_gemma3.py, Gemma3TextConfig: layer_types "sliding_attention" if
// (i + 1) % sliding_window_pattern else "full_attention"; rope_local_base_freq for the sliding
// layers). A model of one layer type hears nothing of it.
void TestLessonClasses::ropeDecaySaysWhichLayersItsNumbersAre()
{
    QFile file(QStringLiteral(POSENC_CONFIGS) + u"/gemma-3-4b-it.json"_s);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject config = QJsonDocument::fromJson(file.readAll()).object(); // the text model's config
    QVERIFY(config.value(u"model_type"_s).toString().startsWith(u"gemma3"_s));
    const int layers = config.value(u"num_hidden_layers"_s).toInt();
    const int pattern = config.value(u"sliding_window_pattern"_s).toInt();
    int full = 0;
    QVERIFY(layers > 0 && pattern > 0);
    for (int i = 0; i < layers; ++i)
        full += (i + 1) % pattern == 0 ? 1 : 0;
    const auto grouped = [](double v) { return QLocale(QLocale::English).toString(qint64(v)); };
    const QString sliding = u"%1 sliding_attention layers turn with RoPE θ = %2"_s.arg(layers - full)
                                .arg(grouped(config.value(u"rope_local_base_freq"_s).toDouble()));
    const QString global = u"%1 full_attention layers turn with RoPE θ = %2"_s.arg(full).arg(
        grouped(config.value(u"rope_theta"_s).toDouble()));
    // The RoPE lessons whose numbers are one layer type's θ and scaling.
    for (const QString &name : {u"rope-decay"_s, u"rope-scaling"_s, u"rope-relative"_s}) {
        const Lesson &lesson = *Lessons::find(name);
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, u"gemma-3-4b"_s});
        QCOMPARE(r.result.exitCode(), 0);
        const QString text = textOf(lesson, r);
        QVERIFY2(text.contains(sliding) && text.contains(global), qPrintable(name + u": "_s + text));
        QVERIFY2(text.contains(u"the figures and numbers here are its full_attention layers'"_s),
                 qPrintable(name + u": "_s + text));
        QCOMPARE(r.model.params.rope.theta, config.value(u"rope_theta"_s).toDouble());
        const LessonOptions::Read one = readFor(lesson, {u"--preset"_s, u"qwen2-5-7b"_s});
        QCOMPARE(one.result.exitCode(), 0);
        QVERIFY2(!textOf(lesson, one).contains(u"do not all place position alike"_s),
                 qPrintable(name + u": "_s + textOf(lesson, one)));
    }
}

POSENC_TEST_GUILESS_MAIN(TestLessonClasses)
} // namespace tst_lessonclasses
#include "tst_lessonclasses.moc"
