// What the lessons say of a model's attention, its dropout and its counts, for every preset
// (docs/ARCHITECTURE.md, Lessons): an encoder (its preset's "attention": "both-ways", its config's
// model_type or words) is never told of a causal mask, a KV cache or a decode step as its own; a model whose
// code drops nothing is never said to drop its input; a sinusoid's frequencies are the model's own
// or called the lesson's; a count of pairs that turn counts the pairs that turn. Every number is
// worked out here from the presets' values, never read back from posenc.
#include "LessonRead.h"
#include "support/TestMain.h"

#include "cli/ConfigAttention.h"
#include "cli/ConfigOptions.h"
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"

#include "core/LessonNumbers.h"
#include "core/NumberText.h"
#include "core/positions/BatchLayout.h"
#include "io/Lesson.h"
#include "io/LessonModels.h"
#include "io/LessonText.h"
#include "io/Preset.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <numbers>

namespace tst_lessonattention {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

LessonOptions::Read readFor(const Lesson &lesson, const QStringList &arguments, bool *ok)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    *ok = parser.parse(QStringList {u"posenc"_s} + arguments);
    return *ok ? LessonOptions::read(parser, lesson) : LessonOptions::Read {};
}

// The lesson read for `arguments`, or nothing where it does not apply (it says so in one line).
std::optional<LessonModel> modelFor(const Lesson &lesson, const QStringList &arguments)
{
    bool ok = false;
    const LessonOptions::Read r = readFor(lesson, arguments, &ok);
    if (!ok || r.result.exitCode() != 0 || !r.result.usage.isEmpty())
        return std::nullopt;
    return r.model;
}

using LessonRead::itemsOf;

// The encoders among the presets, by their models' code (each preset's "source" cites it).
const QStringList kEncoders
    = {u"modernbert-base"_s, u"whisper-large-v3"_s, u"mae-vit-b-16"_s,    u"dit-xl-2"_s, u"pixtral-12b-vision"_s,
       u"flux-1-dev"_s,      u"flux-2-dev"_s,       u"deberta-v3-base"_s, u"t5-base"_s,  u"flan-t5-base"_s};

// Packed documents of these lengths in one row: the pairs of different documents a causal mask or
// a mask both ways attends, and the farthest such pair's distance, counted pair by pair.
struct PackCounts
{
    std::int64_t causal = 0, bothWays = 0, farthest = 0;
};

PackCounts packCounts(const QList<std::int64_t> &lengths)
{
    std::vector<int> document;
    for (qsizetype d = 0; d < lengths.size(); ++d)
        document.insert(document.end(), std::size_t(lengths[d]), int(d));
    PackCounts n;
    const auto size = std::int64_t(document.size());
    for (std::int64_t q = 0; q < size; ++q) {
        for (std::int64_t k = 0; k < size; ++k) {
            if (document[std::size_t(q)] == document[std::size_t(k)])
                continue;
            ++n.bothWays;
            n.causal += k <= q ? 1 : 0;
            n.farthest = std::max(n.farthest, std::abs(q - k));
        }
    }
    return n;
}

} // namespace

class TestLessonAttention : public QObject
{
    Q_OBJECT

private slots:
    void anEncoderIsNamedSoByItsPresetOrConfig();
    void noEncoderIsToldOfACausalMaskAsItsOwn();
    void packingCountsThePairsTheModelAttends();
    void aModelThatDropsNothingIsNotSaidToDropItsInput();
    void theFrequenciesAreTheModelsOwnOrCalledTheLessons();
    void aCountOfTurningPairsCountsThePairsThatTurn();
    void aModelThatAddsByColumnIsNotPlacedByIds();
    void aModelThatAddsByColumnHasNoEmbeddingsToStart();
    void anEncoderDecoderSaysWhichStackItIs();
    void aConfigSaysItsMaskInItsOwnWords();
    void aConfigOfAModelThatAddsByColumnReadsSo_data();
    void aConfigOfAModelThatAddsByColumnReadsSo();
    void aRowPastTheModelsContextIsTheLessons();
    void theFamiliesLessonSaysTheModelsWindow();
    void anEncoderHasNoKvCache();
};

// ModernBERT and the Whisper encoder were taught packing as causal models ("keys from the future"):
// only T5's, DeBERTa's and symmetric ALiBi's families said they attend both ways.
void TestLessonAttention::anEncoderIsNamedSoByItsPresetOrConfig()
{
    const Lesson &packing = *Lessons::find(u"packing"_s);
    int encoders = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const bool encoder = kEncoders.contains(preset.name);
        const auto params = preset.applyTo(Params {});
        QVERIFY(std::holds_alternative<Params>(params));
        QVERIFY2(BatchLayout::attendsBothWays(std::get<Params>(params)) == encoder, qPrintable(preset.name));
        encoders += encoder ? 1 : 0;
        const auto model = modelFor(packing, {u"--preset"_s, preset.name});
        if (model)
            QVERIFY2(LessonNumbers::attendsBothWays(*model) == encoder, qPrintable(preset.name));
    }
    QCOMPARE(encoders, kEncoders.size());
    // A config by its model_type: ModernBertModel masks only the padding, Llama causally.
    const auto modernbert = modelFor(packing, {u"--config"_s, u"modernbert-base"_s});
    QVERIFY(modernbert && LessonNumbers::attendsBothWays(*modernbert));
    QCOMPARE(modernbert->params.batch.attention, Attention::BothWays);
    const auto llama = modelFor(packing, {u"--config"_s, u"llama-4-scout"_s});
    QVERIFY(llama && !LessonNumbers::attendsBothWays(*llama));
    // The row as a flag: the preset's encoder told it is causal is causal.
    const auto told = modelFor(packing, {u"--preset"_s, u"modernbert-base"_s, u"--attention"_s, u"causal"_s});
    QVERIFY(told && !LessonNumbers::attendsBothWays(*told));
}

// left-padding gave DeBERTa a KV cache and a decode step, nope-order built Pixtral's order from the
// causal mask, packing told ModernBERT of "keys from the future": every sentence an encoder reads of
// a causal mask, a cache or generation says whose it is (a decoder's), or that the model attends
// both ways; a sentence about another family (ALiBi's causal mask in the families lesson) names it.
void TestLessonAttention::noEncoderIsToldOfACausalMaskAsItsOwn()
{
    static const QRegularExpression causal(u"causal|KV cache|decode step|from the future|generation"_s,
                                           QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression owner(u"decoder|both ways|bidirectional|ALiBi"_s);
    int read = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const QString &name : kEncoders) {
            const auto model = modelFor(lesson, {u"--preset"_s, name});
            if (!model)
                continue;
            ++read;
            QVERIFY(LessonNumbers::attendsBothWays(*model));
            for (const QString &item : itemsOf(lesson, *model)) {
                if (causal.match(item).hasMatch())
                    QVERIFY2(owner.match(item).hasMatch(), qPrintable(lesson.name + u" / "_s + name + u": "_s + item));
            }
        }
    }
    // nope-order refuses each of these encoders (every one places position: tst_lessonclasses).
    QVERIFY2(read >= 50, qPrintable(QString::number(read)));
}

// ModernBERT was drawn and counted causal: 26 cross-document pairs of 3, 4 and 2 tokens, where it
// attends 52. The counts are the model's mask's, which the figure draws too (tst_lessonfigures).
void TestLessonAttention::packingCountsThePairsTheModelAttends()
{
    const Lesson &packing = *Lessons::find(u"packing"_s);
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(packing, {u"--preset"_s, preset.name});
        if (!model)
            continue;
        ++read;
        QList<std::int64_t> lengths;
        for (const QString &n : model->params.batch.packed.split(u','))
            lengths.append(n.toLongLong());
        const PackCounts n = packCounts(lengths);
        const bool bothWays = kEncoders.contains(preset.name);
        const QString text = itemsOf(packing, *model).join(u'\n');
        const QString what = preset.name + u": "_s + text;
        if (bothWays) {
            QVERIFY2(text.contains(u"attends %1 cross-document pairs"_s.arg(n.bothWays)), qPrintable(what));
            QVERIFY2(text.contains(u"up to %1 positions apart"_s.arg(n.farthest)), qPrintable(what));
            QVERIFY2(!text.contains(u"causal training"_s), qPrintable(what));
            QVERIFY2(!text.contains(u"causal mask's"_s), qPrintable(what));
        } else {
            QVERIFY2(text.contains(u"%1 cross-document pairs"_s.arg(n.causal)), qPrintable(what));
            QVERIFY2(text.contains(u"up to %1 positions back"_s.arg(n.farthest)), qPrintable(what));
        }
    }
    QVERIFY(read >= 30);
    // ModernBERT's own unpadding finds its sequences from the mask's rows (_unpad_modernbert_input,
    // cu_seqlens from attention_mask.sum(-1)): the restarts are not said to reach it.
    const auto modernbert = modelFor(packing, {u"--preset"_s, u"modernbert-base"_s});
    QVERIFY(modernbert);
    const QString text = itemsOf(packing, *modernbert).join(u'\n');
    QVERIFY2(text.contains(u"does not read those restarts"_s), qPrintable(text));
    QVERIFY2(text.contains(u"attention_mask.sum(−1)"_s), qPrintable(text));
    QVERIFY2(!text.contains(u"The varlen attention reads where each document starts"_s), qPrintable(text));
}

// dropout-on-sum told DiT-XL/2 it "has no dropout on its input", then that it "drops the sum, as
// the Transformer paper does", and what-dropout-does counted the cells zeroed "of its input". A
// model whose preset records no input dropout is said to drop nothing, in every lesson that drops.
void TestLessonAttention::aModelThatDropsNothingIsNotSaidToDropItsInput()
{
    static const QRegularExpression zeroed(u"'s? input, L·d = \\d+ cells, [0-9.]+ ± [0-9.]+ are zeroed"_s);
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.inputDropout != u"none"_s)
            continue;
        const QString name = preset.modelName();
        for (const Lesson &lesson : Lessons::all()) {
            const auto model = modelFor(lesson, {u"--preset"_s, preset.name});
            if (!model)
                continue;
            ++read;
            for (const QString &item : itemsOf(lesson, *model)) {
                const QString what = lesson.name + u" / "_s + preset.name + u": "_s + item;
                QVERIFY2(!QRegularExpression(QRegularExpression::escape(name) + u"[^.;:]*\\band drops the sum"_s)
                              .match(item)
                              .hasMatch(),
                         qPrintable(what));
                // what-dropout-does: "Of DiT-XL/2's input, L·d = 73728 cells, 7373 ± 81.5 are zeroed".
                QVERIFY2(!zeroed.match(item).hasMatch(), qPrintable(what));
            }
        }
    }
    QVERIFY(read >= 40);
}

// frequencies gave fairseq embedding init w_i = b^-2i/k, which fairseq's get_embedding is not
// (exp(-i ln 10000 / (half_dim - 1)), fairseq/modules/sinusoidal_positional_embedding.py): a
// model whose preset names its table's base is given its own last wavelength, 2π / w of the last
// pair, w_i = b^(-i / (k/2 - s)) in float64 here; one that names none is told the table is the
// lesson's. fairseq's own form, given as flags, is fairseq's: λ = 2π·10^4 at its last pair.
void TestLessonAttention::theFrequenciesAreTheModelsOwnOrCalledTheLessons()
{
    static const QRegularExpression last(u"to λ = ([0-9.,]+) at the last pair"_s);
    const Lesson &frequencies = *Lessons::find(u"frequencies"_s);
    int own = 0, lessons = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(frequencies, {u"--preset"_s, preset.name});
        if (!model)
            continue;
        const QString first = itemsOf(frequencies, *model).value(0);
        const QString what = preset.name + u": "_s + first;
        if (!preset.params.contains(u"base"_s)) {
            ++lessons;
            QVERIFY2(first.startsWith(u"The sinusoid here is the lesson's"_s), qPrintable(what));
            continue;
        }
        ++own;
        const double b = preset.params.value(u"base"_s).toDouble();
        const double s = preset.params.value(u"freq-shift"_s, u"0"_s).toDouble();
        const double k = preset.params.value(u"d-model"_s).toDouble();
        const double lastPair = k / 2.0 - 1.0;
        const double lambda = 2.0 * std::numbers::pi / std::pow(b, -lastPair / (k / 2.0 - s));
        const auto m = last.match(first);
        QVERIFY2(m.hasMatch(), qPrintable(what));
        const double said = QString(m.captured(1)).remove(u',').toDouble();
        QVERIFY2(std::abs(said - lambda) <= 1e-4 * lambda + 0.5, qPrintable(what + u" / %1"_s.arg(lambda)));
    }
    QVERIFY(own >= 5 && lessons >= 2);
    const auto fairseq = modelFor(frequencies,
                                  {u"--preset"_s, u"fairseq-init"_s, u"--freq-shift"_s, u"1"_s, u"--layout"_s,
                                   u"split"_s, u"--d-model"_s, u"64"_s});
    QVERIFY(fairseq);
    const auto m = last.match(itemsOf(frequencies, *fairseq).value(0));
    QVERIFY(m.hasMatch());
    QCOMPARE(std::round(QString(m.captured(1)).remove(u',').toDouble()), std::round(2.0 * std::numbers::pi * 1e4));
}

// rope-layouts told Gemma 4 that "both layouts turn the same 256 pairs", where its proportional
// RoPE turns int(F · head_dim // 2) = 64 of them.
void TestLessonAttention::aCountOfTurningPairsCountsThePairsThatTurn()
{
    static const QRegularExpression turn(u"turn the same (\\d+) (?:of their (\\d+) )?pairs"_s);
    const Lesson &layouts = *Lessons::find(u"rope-layouts"_s);
    int read = 0, proportional = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(layouts, {u"--preset"_s, preset.name});
        if (!model)
            continue;
        ++read;
        const QString first = itemsOf(layouts, *model).value(0);
        const auto m = turn.match(first);
        QVERIFY2(m.hasMatch(), qPrintable(preset.name + u": "_s + first));
        const double headDim = preset.params.value(u"head-dim"_s).toDouble();
        const double factor = preset.params.value(u"partial-rotary-factor"_s, u"1"_s).toDouble();
        const double pairs = std::floor(std::floor(headDim * factor) / 2.0);
        double turning = pairs;
        if (preset.params.value(u"rope-type"_s) == u"proportional"_s) {
            ++proportional;
            turning = std::floor(factor * headDim / 2.0);
            QCOMPARE(m.captured(2).toDouble(), std::floor(headDim / 2.0));
        }
        QVERIFY2(m.captured(1).toDouble() == turning, qPrintable(preset.name + u": "_s + first));
    }
    QVERIFY(read >= 20 && proportional >= 1);
}

// left-padding told the Whisper encoder that it "adds its row at the id", packing that restarted
// ids keep its documents apart, masked-dropout that its input holds [CLS], [SEP], [MASK] and padding:
// WhisperEncoder.forward (models/whisper/modeling_whisper.py) adds embed_positions.weight by column
// and takes no position ids. A model whose preset's "positions-added" row is "by-column" is told so.
void TestLessonAttention::aModelThatAddsByColumnIsNotPlacedByIds()
{
    static const QRegularExpression byId(u"row at (?:the|its) id|pack with restarted ids|varlen attention reads"_s);
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.params.value(u"positions-added"_s) != u"by-column"_s)
            continue;
        for (const QString &name : {u"left-padding"_s, u"packing"_s, u"masked-dropout"_s}) {
            const auto model = modelFor(*Lessons::find(name), {u"--preset"_s, preset.name});
            if (!model)
                continue;
            ++read;
            QCOMPARE(model->params.batch.positions, Positions::ByColumn);
            const QString text = itemsOf(*Lessons::find(name), *model).join(u'\n');
            const QString what = name + u" / "_s + preset.name + u": "_s + text;
            QVERIFY2(!byId.match(text).hasMatch(), qPrintable(what));
            // Its input is its table's rows, the preset's max-len, which the lesson's row runs past.
            if (name == u"left-padding"_s && model->params.maxLen > preset.params.value(u"max-len"_s).toLongLong())
                QVERIFY2(text.contains(u"Its own input is %1 columns"_s.arg(
                             NumberText::count(preset.params.value(u"max-len"_s).toLongLong()))),
                         qPrintable(what));
            QVERIFY2(text.contains(u"by column"_s) || text.contains(u"to column c"_s)
                         || text.contains(u"at position p,"_s)
                         || text.contains(u"at its column"_s) || text.contains(u"patches"_s),
                     qPrintable(what));
        }
    }
    QVERIFY(read >= 4);
}

// Every lesson that takes σ as its own told the Whisper encoder that its preset "does not say how
// its embeddings start": it has none to start. WhisperEncoder.forward adds its table to
// gelu(conv2(gelu(conv1(input_features)))), MAE and DiT to their patches' projections. A model
// that adds by column is told what σ stands in for, and never of embeddings of its own.
void TestLessonAttention::aModelThatAddsByColumnHasNoEmbeddingsToStart()
{
    int read = 0, said = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.params.value(u"positions-added"_s) != u"by-column"_s)
            continue;
        for (const Lesson &lesson : Lessons::all()) {
            const auto model = modelFor(lesson, {u"--preset"_s, preset.name});
            if (!model)
                continue;
            ++read;
            const QString text = itemsOf(lesson, *model).join(u'\n');
            const QString what = lesson.name + u" / "_s + preset.name + u": "_s + text;
            QVERIFY2(!text.contains(u"how its embeddings start"_s), qPrintable(what));
            if (text.contains(u"the lesson's ("_s) && text.contains(u"σ = "_s)) {
                QVERIFY2(text.contains(u"adds its table to the features its first layers make of its input"_s),
                         qPrintable(what));
                ++said;
            }
        }
    }
    QVERIFY(read >= 20 && said >= 3);
}

// packing told the Transformer base, an encoder and a decoder, of "causal training" as the whole
// model's: a preset's "stacks": "encoder-decoder" names the stack its mask is (the decoder's, causal).
void TestLessonAttention::anEncoderDecoderSaysWhichStackItIs()
{
    const Lesson &packing = *Lessons::find(u"packing"_s);
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.stacks != u"encoder-decoder"_s)
            continue;
        const auto model = modelFor(packing, {u"--preset"_s, preset.name});
        if (!model)
            continue;
        ++read;
        QVERIFY(model->encoderDecoder);
        const QString stack = LessonNumbers::attendsBothWays(*model) ? u"encoder"_s : u"decoder"_s;
        const QString text = itemsOf(packing, *model).join(u'\n');
        const QString what = preset.name + u": "_s + text;
        QVERIFY2(text.contains(u"the numbers here are its %1's"_s.arg(stack)), qPrintable(what));
        QVERIFY2(!text.contains(u"causal training never shows a model"_s), qPrintable(what));
    }
    QVERIFY(read >= 4);
    const auto base = modelFor(packing, {u"--preset"_s, u"transformer-base"_s});
    QVERIFY(base && !LessonNumbers::attendsBothWays(*base));
    const auto encoder = modelFor(packing, {u"--preset"_s, u"transformer-base"_s, u"--attention"_s, u"both-ways"_s});
    QVERIFY(encoder && LessonNumbers::attendsBothWays(*encoder));
    QVERIFY(itemsOf(packing, *encoder).join(u'\n').contains(u"attends both ways"_s));
}

// The model_types ConfigAttention knew left EuroBERT, NomicBERT and the XLM-RoBERTa encoders causal.
// Their configs say it themselves: a masked LM's architecture (EuroBertForMaskedLM), NomicBertConfig's
// causal, is_decoder, BERT's token types (type_vocab_size); a decoder's config says none of them.
void TestLessonAttention::aConfigSaysItsMaskInItsOwnWords()
{
    const auto config = [](std::initializer_list<std::pair<QString, QJsonValue>> keys) {
        QJsonObject o;
        for (const auto &[k, v] : keys)
            o.insert(k, v);
        return o;
    };
    using posenc::ConfigAttention::bothWays;
    QVERIFY(bothWays(u"eurobert"_s, config({{u"architectures"_s, QJsonArray {u"EuroBertForMaskedLM"_s}}})));
    QVERIFY(bothWays(u"nomic_bert"_s, config({{u"causal"_s, false}, {u"type_vocab_size"_s, 2}})));
    QVERIFY(!bothWays(u"nomic_bert"_s, config({{u"causal"_s, true}, {u"type_vocab_size"_s, 2}})));
    QVERIFY(bothWays(u"xlm-roberta"_s,
                     config({{u"architectures"_s, QJsonArray {u"XLMRobertaModel"_s}}, {u"type_vocab_size"_s, 1}})));
    QVERIFY(!bothWays(u"bert"_s, config({{u"is_decoder"_s, true}, {u"type_vocab_size"_s, 2}})));
    QVERIFY(bothWays(u"bert"_s, config({})));
    QVERIFY(!bothWays(u"llama"_s, config({{u"architectures"_s, QJsonArray {u"LlamaForCausalLM"_s}}})));
    QVERIFY(!bothWays(u"gemma3_text"_s, config({{u"use_bidirectional_attention"_s, false}})));
    QVERIFY(bothWays(u"gemma3_text"_s, config({{u"use_bidirectional_attention"_s, true}})));
    QVERIFY(bothWays(u"gemma4_text"_s, config({{u"use_bidirectional_attention"_s, u"all"_s}})));
    QVERIFY(posenc::ConfigAttention::encoderDecoder(config({{u"is_encoder_decoder"_s, true}})));
}

// Whether a model adds its positions by column was keyed on model_type "whisper" alone, so MAE's
// config (ViTMAEEmbeddings.forward: embeddings + position_embeddings[:, 1:, :]) read by-id or not
// at all: the model table's row says it of each layer type. Each config as its class's keys give
// it, read as every command's --config reads it, with its mask both ways where its code has one.
void TestLessonAttention::aConfigOfAModelThatAddsByColumnReadsSo_data()
{
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<QString>("layerType");
    QTest::addColumn<bool>("byColumn");
    QTest::addColumn<bool>("bothWays");
    // WhisperConfig of whisper-large-v3: its encoder adds sinusoids(1500, 1280) by column, its
    // decoder a learned table at its position ids, causally.
    const QJsonObject whisper {{u"model_type"_s, u"whisper"_s},         {u"d_model"_s, 1280},
                               {u"encoder_layers"_s, 32},               {u"decoder_layers"_s, 32},
                               {u"max_source_positions"_s, 1500},       {u"max_target_positions"_s, 448},
                               {u"is_encoder_decoder"_s, true}};
    QTest::newRow("whisper encoder") << whisper << u"encoder"_s << true << true;
    QTest::newRow("whisper decoder") << whisper << u"decoder"_s << false << false;
    // ViTMAEConfig's defaults (facebook/vit-mae-base): 224 / 16 = 14 patches a side.
    const QJsonObject mae {{u"model_type"_s, u"vit_mae"_s},  {u"architectures"_s, QJsonArray {u"ViTMAEForPreTraining"_s}},
                           {u"hidden_size"_s, 768},          {u"num_hidden_layers"_s, 12},
                           {u"num_attention_heads"_s, 12},   {u"image_size"_s, 224},
                           {u"patch_size"_s, 16},            {u"mask_ratio"_s, 0.75}};
    QTest::newRow("vit_mae") << mae << u"input"_s << true << true;
    // BERT's and GPT-2's learned tables are read at their position ids.
    const QJsonObject bert {{u"model_type"_s, u"bert"_s}, {u"hidden_size"_s, 768}, {u"max_position_embeddings"_s, 512}};
    QTest::newRow("bert") << bert << u"input"_s << false << true;
    const QJsonObject gpt2 {{u"model_type"_s, u"gpt2"_s}, {u"n_embd"_s, 768}, {u"n_positions"_s, 1024}};
    QTest::newRow("gpt2") << gpt2 << u"input"_s << false << false;
}

void TestLessonAttention::aConfigOfAModelThatAddsByColumnReadsSo()
{
    QFETCH(QJsonObject, config);
    QFETCH(QString, layerType);
    QFETCH(bool, byColumn);
    QFETCH(bool, bothWays);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile file(dir.filePath(u"config.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(config).toJson());
    file.close();
    const auto read = ConfigOptions::choose(file.fileName(), layerType);
    const auto *refused = std::get_if<ParamOptions::Result>(&read);
    QVERIFY2(!refused, refused ? qPrintable(refused->messages().join(u"; "_s)) : "");
    const ConfigOptions::Chosen &chosen = std::get<ConfigOptions::Chosen>(read);
    QCOMPARE(chosen.layerType, layerType);
    QCOMPARE(chosen.texts.value(u"positions-added"_s) == u"by-column"_s, byColumn);
    QCOMPARE(chosen.texts.value(u"attention"_s) == u"both-ways"_s, bothWays);
    QCOMPARE(ConfigAttention::byColumn(config.value(u"model_type"_s).toString(), layerType), byColumn);
}

// left-padding laid ModernBERT's 512 positions out on rows of 32768 columns without a word: a
// model whose own context is below the lesson's length is told the row runs past it.
void TestLessonAttention::aRowPastTheModelsContextIsTheLessons()
{
    const Lesson &padding = *Lessons::find(u"left-padding"_s);
    int past = 0, within = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(padding, {u"--preset"_s, preset.name});
        if (!model || preset.params.value(u"positions-added"_s) == u"by-column"_s)
            continue;
        const std::int64_t context
            = preset.context > 0 ? preset.context : preset.params.value(u"max-len"_s, u"0"_s).toLongLong();
        const QString text = itemsOf(padding, *model).join(u'\n');
        // Within a sentence the model is named with its article ("the Annotated Transformer's").
        const bool said = text.contains(u"run past %1's context of %2 positions"_s.arg(
            LessonNumbers::nameWithin(*model), NumberText::count(context)));
        QVERIFY2(said == (context > 0 && model->params.maxLen > context), qPrintable(preset.name + u": "_s + text));
        (said ? past : within) += 1;
    }
    QVERIFY(past >= 3 && within >= 3);
}

// Mistral 7B v0.1 attends within a sliding_window of 4096 on every layer (its preset's "params", its
// config's sliding_window; masking_utils' sliding_window_overlay keeps kv_idx > q_idx − 4096), so
// the families figure's query, q = (L − 1)/2 = 16383 of L = 32768, has its keys 4096 or more back
// masked. Gemma 3 1B alternates sliding_attention layers of 512 with full_attention ones
// (sliding_window_pattern 6: every sixth layer full); Qwen2.5 7B's config sets use_sliding_window
// false, Llama 3.1 has none. The lesson says the window where the model has one, which layers
// have it where they alternate, and nothing of a window where there is none.
void TestLessonAttention::theFamiliesLessonSaysTheModelsWindow()
{
    const Lesson &lesson = *Lessons::find(u"families"_s);
    const QString configs = QStringLiteral(POSENC_CONFIGS) + u"/"_s;
    const auto said = [&](const QStringList &arguments) {
        const auto model = modelFor(lesson, arguments);
        return model ? LessonText::plain(lesson.explain(*model).html) : QString();
    };
    for (const QStringList &mistral : {QStringList {u"--preset"_s, u"mistral-7b"_s},
                                       QStringList {u"--config"_s, configs + u"Mistral-7B-v0.1.json"_s}}) {
        const auto model = modelFor(lesson, mistral);
        QVERIFY2(model, qPrintable(mistral.join(u' ')));
        QCOMPARE(model->params.batch.window, std::optional<std::int64_t>(4096));
        const QString text = said(mistral);
        QVERIFY2(text.contains(u"attends within a sliding window of 4,096: every panel masks the keys 4,096 or more "
                               "before the query"_s),
                 qPrintable(text));
        QVERIFY2(!text.contains(u"do not all attend alike"_s), qPrintable(text));
    }
    // Every layer type of Gemma 3 1B named with what it sees, the window read from its sliding layers.
    const QString gemma = said({u"--config"_s, configs + u"gemma-3-1b-it.json"_s});
    QVERIFY2(gemma.contains(u"layers do not all attend alike"_s) && gemma.contains(u"sliding_attention layers"_s)
                 && gemma.contains(u"full_attention layers"_s) && gemma.contains(u"see the whole context"_s),
             qPrintable(gemma));
    for (const QStringList &none : {QStringList {u"--config"_s, configs + u"Qwen2.5-7B-Instruct.json"_s},
                                    QStringList {u"--preset"_s, u"llama-3-1-8b"_s}, QStringList {}}) {
        const QString text = said(none);
        QVERIFY2(!text.isEmpty(), qPrintable(none.join(u' ')));
        QVERIFY2(!text.contains(u"sliding window"_s), qPrintable(none.join(u' ') + u": "_s + text));
    }
}

// left-padding told Flan-T5's encoder it has "no KV cache and no decode step of its own" while its
// position-ids figure drew "prefill 24,576" and a band of decode steps: a KV cache is a causal
// decoder's (generation/utils.py). Every preset that attends both ways gets none, and its text
// names none; a causal one keeps the lesson's cache.
void TestLessonAttention::anEncoderHasNoKvCache()
{
    const Lesson &lesson = *Lessons::find(u"left-padding"_s);
    const std::int64_t cache = lesson.session.params.value(u"cache"_s).toLongLong();
    QVERIFY(cache > 0);
    int encoders = 0, decoders = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(lesson, {u"--preset"_s, preset.name});
        if (!model)
            continue;
        const bool both = BatchLayout::attendsBothWays(model->params);
        QCOMPARE(model->params.batch.cache, both ? 0 : cache);
        QCOMPARE(BatchLayout(model->params).cache(), both ? 0 : cache);
        const QString text = itemsOf(lesson, *model).join(u'\n');
        QVERIFY2(!both || !text.contains(u"KV cache, so the first decode step"_s),
                 qPrintable(preset.name + u": "_s + text));
        (both ? encoders : decoders) += 1;
    }
    QVERIFY(encoders >= 2 && decoders >= 2);
}

POSENC_TEST_GUILESS_MAIN(TestLessonAttention)
} // namespace tst_lessonattention
#include "tst_lessonattention.moc"
