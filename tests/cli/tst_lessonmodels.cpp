// Every lesson read for every model a lecturer can pick: its own, every shipped preset and every
// real config of tests/data/configs, as posenc lessons NAME --preset P / --config FILE reads it
// (LessonOptions, in this process). Each either says in one line what it needs, naming the model,
// or its text renders whole: no item left unfilled, none repeated, no placeholder or reason in a
// sentence, the model named; and a sample of its numbers equals the quantity it states, computed
// here in float64 from the reference code's formulas (tests/support) and the config's own keys.
#include "ModelPossessive.h"

#include "check/ModelConfigCheck.h"
#include "check/models/LayerLessonNumbers.h"
#include "check/models/ModelExamples.h"
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"
#include "core/FamilySpec.h"
#include "core/ParamText.h"
#include "core/positions/PositionEffect.h"
#include "io/ModelConfigFile.h"
#include "render/data/FamilyPanel.h"
#include "support/AlibiReference.h"
#include "support/BucketTie.h"
#include "support/DebertaReference.h"
#include "support/RopeReference.h"
#include "support/TestMain.h"

#include <QCommandLineParser>
#include <QDir>
#include <QHash>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <functional>

namespace tst_lessonmodels {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A model to read the lessons for: the arguments that pick it, and its name as it must be named.
struct Pick
{
    QStringList arguments;
    QString name;
    QString configPath; // the config file it comes with, if any
};

QList<Pick> picks()
{
    QList<Pick> all {{{}, {}, {}}};
    for (const Preset &preset : Presets::shipped().presets)
        all.append({{u"--preset"_s, preset.name}, preset.modelName(), {}});
    const QDir configs(QStringLiteral(POSENC_CONFIGS));
    for (const QString &file : configs.entryList({u"*.json"_s}, QDir::Files, QDir::Name))
        all.append({{u"--config"_s, configs.filePath(file)}, {}, configs.filePath(file)});
    return all;
}

struct Read
{
    LessonOptions::Read read;
    bool ok = false;
};

Read readFor(const Lesson &lesson, const Pick &pick)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    Read out;
    out.ok = parser.parse(QStringList {u"posenc"_s} + pick.arguments);
    if (out.ok)
        out.read = LessonOptions::read(parser, lesson);
    return out;
}

bool close(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

// The stretch of the rope-scalings figure, written again: the model's factor, else how far
// max_len stretches a given L0, else 4; L0, else max_len.
Params stretchedAs(const Params &p, RopeType type)
{
    const bool stretched = p.rope.originalMaxLen && p.maxLen > *p.rope.originalMaxLen;
    const double original = double(p.rope.originalMaxLen.value_or(p.maxLen));
    Params q = p;
    q.rope.type = type;
    if (type == p.rope.type)
        return q;
    q.rope.factor = p.rope.factor.value_or(stretched ? double(p.maxLen) / original : 4.0);
    q.rope.originalMaxLen = std::int64_t(original);
    if (type != RopeType::Yarn && type != RopeType::LongRope)
        q.rope.attentionFactor.reset();
    return q;
}

// llama3's and yarn's bands of the pairs, counted: band 0 kept, 1 blended, 2 divided.
std::array<double, 3> bands(const Params &q)
{
    std::array<double, 3> counts {0, 0, 0};
    const std::int64_t r = roperef::rotaryDim(q);
    if (q.rope.type == RopeType::Llama3) {
        for (const double band : roperef::llama3(q.rope.theta, r, *q.rope.factor, double(*q.rope.originalMaxLen),
                                                 q.rope.lowFreqFactor, q.rope.highFreqFactor)
                                     .band)
            counts[std::size_t(band)] += 1;
    } else {
        for (const double ramp : roperef::yarn(q.rope.theta, r, *q.rope.factor, double(*q.rope.originalMaxLen),
                                               q.rope.betaFast, q.rope.betaSlow, q.rope.yarnTruncate, q.rope.mscale,
                                               q.rope.mscaleAllDim, q.rope.attentionFactor)
                                     .ramp)
            counts[ramp == 0.0 ? 0 : ramp == 1.0 ? 2 : 1] += 1;
    }
    return counts;
}

// The slowest rotary pair of the config's layers: 2π over the least inverse frequency that turns.
double slowestOf(const ConfigCheck &check)
{
    double slowest = 0.0;
    for (const ConfigLayer &l : check.layers) {
        // M-RoPE's pairs turn at RoPE's frequencies, each by its axis's id.
        if (l.layers.empty() || !(l.params.encoding == Encoding::Rope || l.params.encoding == Encoding::Mrope)
            || !l.params.isValid())
            continue;
        for (const double inv : roperef::inv(l.params)) {
            if (inv > 0.0)
                slowest = std::max(slowest, roperef::kTwoPi / inv);
        }
    }
    return slowest;
}

// The query scale the config's keys give at 0-based position p: Llama 4's temperature
// (modeling_llama4.py: log1p(floor((p + 1) / floor_scale)) · attn_scale + 1), Mistral 3's beta
// (1 + beta · ln(1 + floor(p / L0))); none without either.
std::optional<double> queryScale(const QJsonObject &config, double p)
{
    const QJsonObject text
        = config.value(u"text_config"_s).isObject() ? config.value(u"text_config"_s).toObject() : config;
    if (text.value(u"attn_temperature_tuning"_s).toDouble() != 0.0) {
        const double floorScale = text.value(u"floor_scale"_s).toDouble(8192.0);
        return std::log1p(std::floor((p + 1.0) / floorScale)) * text.value(u"attn_scale"_s).toDouble(0.1) + 1.0;
    }
    const QJsonObject rope = text.value(u"rope_parameters"_s).isObject() ? text.value(u"rope_parameters"_s).toObject()
                                                                         : text.value(u"rope_scaling"_s).toObject();
    if (rope.contains(u"llama_4_scaling_beta"_s)) {
        const double original = rope.value(u"original_max_position_embeddings"_s).toDouble();
        return 1.0 + rope.value(u"llama_4_scaling_beta"_s).toDouble() * std::log(1.0 + std::floor(p / original));
    }
    return std::nullopt;
}

// The quantity a key states, computed here; none for keys outside the sample.
std::optional<double> expected(const QString &key, const LessonModel &m, const QJsonObject &config)
{
    const Params &p = m.params;
    const double d = double(p.dModel), k = double(p.peColumns());
    const QHash<QString, std::function<std::optional<double>()>> sample {
        {u"d"_s, [&] { return d; }},
        {u"L"_s, [&] { return double(p.maxLen); }},
        // The model's context, as its config gives it where it comes with one.
        {u"model_context"_s,
         [&]() -> std::optional<double> {
             if (m.name.isEmpty())
                 return double(p.maxLen);
             const QJsonObject text = config.value(u"text_config"_s).toObject();
             const QJsonValue given = text.contains(u"max_position_embeddings"_s)
                 ? text.value(u"max_position_embeddings"_s)
                 : config.value(u"max_position_embeddings"_s);
             return given.isDouble() ? std::optional(given.toDouble()) : std::nullopt;
         }},
        {u"keep_factor"_s, [&] { return 1.0 / (1.0 - p.dropout); }},
        {u"row_intact"_s, [&] { return std::pow(1.0 - p.dropout, d); }},
        {u"pe_dropped_mean"_s, [&] { return p.dropout * k; }},
        {u"pe_norm"_s, [&] { return std::sqrt(k / 2.0); }},
        {u"ratio"_s,
         [&] { return p.scale() * p.sigma() * std::sqrt(double(p.embeddingColumns())) / std::sqrt(k / 2.0); }},
        {u"rope_pairs"_s, [&] { return double(roperef::rotaryDim(p) / 2); }},
        {u"rope_attention"_s, [&] { return roperef::attentionFactor(p); }},
        {u"as_llama3_kept"_s, [&] { return bands(stretchedAs(p, RopeType::Llama3))[0]; }},
        {u"as_llama3_blended"_s, [&] { return bands(stretchedAs(p, RopeType::Llama3))[1]; }},
        {u"as_llama3_divided"_s, [&] { return bands(stretchedAs(p, RopeType::Llama3))[2]; }},
        {u"as_yarn_kept"_s, [&] { return bands(stretchedAs(p, RopeType::Yarn))[0]; }},
        {u"as_yarn_blended"_s, [&] { return bands(stretchedAs(p, RopeType::Yarn))[1]; }},
        {u"as_yarn_divided"_s, [&] { return bands(stretchedAs(p, RopeType::Yarn))[2]; }},
        {u"as_yarn_attention"_s, [&] { return roperef::attentionFactor(stretchedAs(p, RopeType::Yarn)); }},
        {u"alibi_slope_1"_s, [&] { return alibiref::slopes(p.alibi.heads).front(); }},
        {u"fam_alibi_1_100"_s, [&] { return -100.0 * alibiref::slopes(p.alibi.heads).front(); }},
        {u"sim_1"_s,
         [&] {
             // Σ cos(w_i) over the whole pairs, w_i = c b^(−i/(k/2 − s)) (diffusers' scale c and shift s)
             double sum = 0.0;
             const double half = double(k) / 2.0 - p.sinusoidal.freqShift;
             for (std::int64_t i = 0; 2 * i + 1 < p.peColumns(); ++i)
                 sum += std::cos(p.sinusoidal.timestepScale * std::pow(p.sinusoidal.base, -double(i) / half));
             return sum;
         }},
        {u"f32_bound"_s, [&] { return double(p.maxLen - 1) * std::ldexp(1.0, -23) + std::ldexp(1.0, -25); }},
        // Half a step of the checkpoint's format below 1: float16's steps on [½, 1) are 2⁻¹¹, bfloat16's 2⁻⁸.
        {u"stored_error"_s,
         [&]() -> std::optional<double> {
             if (!m.source.contains(u"checkpoint stores the table in "_s))
                 return std::nullopt;
             return std::ldexp(1.0, m.source.contains(u"table in float16"_s) ? -12 : -9);
         }},
        {u"mrope_image_tokens"_s,
         [&]() -> std::optional<double> {
             // T · (H/m) · (W/m) of the first image:TxHxW segment of the prompt.
             static const QRegularExpression image(u"image:(\\d+)x(\\d+)x(\\d+)"_s);
             const QRegularExpressionMatch match = image.match(p.mrope.prompt);
             if (!match.hasMatch())
                 return std::nullopt;
             const double m = double(p.mrope.spatialMergeSize);
             return match.captured(1).toDouble() * (match.captured(2).toDouble() / m)
                 * (match.captured(3).toDouble() / m);
         }},
        {u"mrope_video_grids"_s,
         [&]() -> std::optional<double> {
             // T of the first video:TxHxW segment of the prompt, however the model lays its frames out.
             static const QRegularExpression video(u"video:(\\d+)x\\d+x\\d+"_s);
             const QRegularExpressionMatch match = video.match(p.mrope.prompt);
             return match.hasMatch() ? std::optional(match.captured(1).toDouble()) : std::nullopt;
         }},
        {u"deberta_c2p_row_10"_s,
         [&] {
             const std::int64_t b = debertaref::deberta(10, p.deberta.buckets, p.deberta.maxPosition).value;
             return double(std::clamp(b + p.deberta.buckets, std::int64_t(0), 2 * p.deberta.buckets - 1));
         }},
        {u"deberta_paper_p2c_row_10"_s,
         [&] {
             const std::int64_t b = debertaref::deberta(10, p.deberta.buckets, p.deberta.maxPosition).value;
             return double(std::clamp(p.deberta.buckets - b, std::int64_t(0), 2 * p.deberta.buckets - 1));
         }},
        {u"nope_weight_99"_s, [&] { return 1.0 / 100.0; }},
        {u"nope_weight_all"_s, [&] { return 1.0 / double(p.maxLen); }},
        {u"nope_norm_99"_s, [&] { return p.scale() * p.sigma() * std::sqrt(double(p.embeddingColumns()) / 100.0); }},
        {u"slowest"_s,
         [&]() -> std::optional<double> { return m.config ? std::optional(slowestOf(*m.config)) : std::nullopt; }},
        {u"query_scale_8000"_s, [&] { return queryScale(config, 8000.0); }},
        {u"query_scale_1m"_s, [&] { return queryScale(config, 1e6); }},
    };
    const auto found = sample.find(key);
    return found == sample.end() ? std::nullopt : (*found)();
}

// Sentences that hold of some models only, each with what the model must be for it: a lesson says
// one only of a model it is true of (docs/ARCHITECTURE.md, Lessons).
struct Claim
{
    QString words; // a piece of the sentence, as plain text
    std::function<bool(const Params &)> holds;
    QString why;
};

QList<Claim> claims()
{
    return {
        {u"the panel of "_s, [](const Params &p) { return FamilyPanels::of(p.encoding) != nullptr; },
         u"tints a panel the families figure does not draw"_s},
        // The left-padding lesson said FLUX.1, whose 2-D RoPE turns a patch by its row and column,
        // "places no position in its scores or its input".
        {u"places no position"_s, [](const Params &p) { return !Families::spec(p.encoding).placesPosition(); },
         u"says a model that places positions places none"_s},
        // The packing lesson said MAE and DiT, whose 2-D sin-cos rows are made of a patch's row and
        // column, add "each token's 2-D sin-cos row at its id".
        {u" row at its id"_s, [](const Params &p) { return PositionEffect::reads(Families::spec(p.encoding)); },
         u"says a model that places a patch by its row and column places it by one id"_s},
        {u"turns at w_i = b^−2i/k ("_s,
         [](const Params &p) { return p.sinusoidal.freqShift == 0.0 && p.sinusoidal.timestepScale == 1.0; },
         u"states the paper's w_i of a shifted or scaled sinusoid"_s},
        {u"whose w_0 = b^0 = 1"_s, [](const Params &p) { return p.sinusoidal.timestepScale == 1.0; },
         u"gives pair 0 w = 1 where the scale c moves it"_s},
        {u" on)."_s, [](const Params &p) { return p.sinusoidal.layout == Layout::Interleaved; },
         u"puts the slow pairs' columns together where the split layout parts sines from cosines"_s},
    };
}

// Whether a lesson's text says what the model's input dropout is: its keys name p or a condition
// on whose p it is.
bool dropsInput(const QStringList &keys)
{
    static const QStringList dropping {u"p"_s, u"keep_factor"_s, u"model_dropout"_s, u"no_model_dropout"_s,
                                       u"dropout_unsaid"_s};
    return std::any_of(keys.cbegin(), keys.cend(), [](const QString &k) { return dropping.contains(k); });
}

// Exactly one sentence on whose p the figures show, the one the model's record makes true: its
// texts' "dropout" (a p, stated as its value), its preset's "input-dropout": "none" (a config's
// model_type whose code has none, ConfigDropout), or nothing.
bool saysWhoseDropout(const QString &plain, const LessonModel &model, const ModelChoice &choice)
{
    // "{Model}'s", on the name before what qualifies it (ModelPossessive).
    const QString possessive = ModelPossessive::of(model.name);
    static const QRegularExpression own(u"input dropout is p = ([0-9.]+)"_s);
    const QRegularExpressionMatch stated = own.match(plain);
    const bool none = plain.contains(model.name + u" has no dropout on its input"_s);
    const bool unsaid = plain.contains(possessive + u" preset or config does not say what dropout its input has"_s);
    if (int(stated.hasMatch()) + int(none) + int(unsaid) != 1)
        return false;
    const Preset *preset = choice.preset.isEmpty() ? nullptr : Presets::find(choice.preset);
    if (const auto given = choice.texts.find(u"dropout"_s); given != choice.texts.cend()) {
        Params set;
        return !ParamText::set(set, u"dropout"_s, *given) && model.params.dropout == set.dropout && stated.hasMatch()
            && plain.contains(possessive + u' ' + stated.captured(0)) && stated.captured(1).toDouble() == set.dropout;
    }
    return (preset ? preset->inputDropout == u"none"_s : choice.noInputDropout) ? none : unsaid;
}

// Whether the lesson's numbers use the embedding scale: some key's value moves when s does.
bool showsScale(const QStringList &keys, const LessonModel &model)
{
    LessonModel other = model;
    other.params.scaleKind = ScaleKind::Custom;
    other.params.customScale = model.params.scale() * 1.5 + 0.25;
    for (const QString &key : keys) {
        const auto at = LessonNumbers::number(key, model, LayerLessonNumbers::entries());
        const auto moved = LessonNumbers::number(key, other, LayerLessonNumbers::entries());
        if (at && moved && at->value && moved->value && *at->value != *moved->value)
            return true;
    }
    return false;
}

// Whose s the numbers use, said where true: the model's own where its texts name "scale" (s = 1 said
// of a model only where its code has no multiplier, Preset::embeddingScale or ConfigScale), and the
// lesson's, said so, where they do not. nope-order said "Here is Qwen2-VL 7B Instruct ... X = s·E" at
// s = √3584, whose code multiplies by nothing.
bool saysWhoseScale(const QString &plain, const LessonModel &model, const ModelChoice &choice)
{
    const QString possessive = ModelPossessive::of(model.name);
    const bool unsaid
        = plain.contains(possessive + u" preset or config does not say what its code multiplies its embeddings by"_s);
    const bool none = plain.contains(possessive + u" code multiplies its embeddings by nothing"_s);
    if (none && !(choice.noEmbeddingScale && model.params.scale() == 1.0))
        return false;
    return choice.texts.contains(u"scale"_s) ? !unsaid : unsaid;
}

// The example config a preset names, or the config file given, as JSON.
QJsonObject configJson(const Pick &pick, const LessonModel &model)
{
    if (!pick.configPath.isEmpty()) {
        const auto read = ModelConfigFile::read(pick.configPath);
        return read ? read.value() : QJsonObject();
    }
    const ModelExamples::Example *example = ModelExamples::find(model.configName);
    return example ? example->config : QJsonObject();
}

} // namespace

class TestLessonModels : public QObject
{
    Q_OBJECT

private slots:
    void everyLessonForEveryModel_data();
    void everyLessonForEveryModel();
    void theAcceptanceNumbers();
    void pZeroIsTheCaseOfAModelWithoutInputDropout();
    void aSentenceSaysWhatTheModelsCodeDoes();
};

void TestLessonModels::everyLessonForEveryModel_data()
{
    QTest::addColumn<QString>("name");
    for (const Lesson &lesson : Lessons::all())
        QTest::newRow(qPrintable(lesson.name)) << lesson.name;
}

void TestLessonModels::everyLessonForEveryModel()
{
    QFETCH(QString, name);
    const Lesson &lesson = *Lessons::find(name);
    int applied = 0, compared = 0, dropping = 0;
    for (const Pick &pick : picks()) {
        const QString what
            = name + u" for "_s + (pick.arguments.isEmpty() ? u"its own model"_s : pick.arguments.join(u' '));
        const Read r = readFor(lesson, pick);
        QVERIFY2(r.ok, qPrintable(what));
        const ParamOptions::Result &result = r.read.result;
        // A config the program cannot compute (none of its layers places position) is refused as
        // posenc check --config says; a model the lesson does not apply to, in one line.
        if (!result.fileError.isEmpty()
            || (!pick.configPath.isEmpty() && result.exitCode() != 0 && result.usage.isEmpty()))
            continue;
        const QString name = pick.name.isEmpty() ? r.read.model.name : pick.name;
        if (result.exitCode() != 0) {
            const QString line = result.messages().join(u'\n');
            QVERIFY2(!line.contains(u'\n'), qPrintable(what + u": "_s + line));
            QVERIFY2(line.startsWith(u"the lesson %1 needs "_s.arg(lesson.name)) || line.startsWith(u"--"_s),
                     qPrintable(what + u": "_s + line));
            // Not the lesson's own parameters refused over the model: left-padding told MAE
            // "--grid: ... set max_len (in the lesson left-padding for MAE ViT-B/16)".
            QVERIFY2(!line.contains(u"(in the lesson "_s), qPrintable(what + u": "_s + line));
            QVERIFY2(name.isEmpty() || line.contains(name), qPrintable(what + u": "_s + line));
            continue;
        }
        ++applied;
        const LessonModel &model = r.read.model;
        if (!pick.name.isEmpty())
            QCOMPARE(model.name, pick.name);
        const LessonText::Rendered text = lesson.explain(model);
        QVERIFY2(text.unfilled.isEmpty(), qPrintable(what + u": "_s + text.unfilled.join(u"; "_s)));
        QVERIFY2(!text.html.contains(u'{') && !text.html.contains(u'}'), qPrintable(what + u": "_s + text.html));
        static const QRegularExpression reason(u"\\bnot here\\b|\\bno such\\b|\\bnone \\("_s);
        QVERIFY2(!reason.match(text.html).hasMatch(), qPrintable(what + u": "_s + text.html));
        for (qsizetype i = 0; i < text.items.size(); ++i) {
            QVERIFY2(!text.items[i].trimmed().isEmpty(), qPrintable(what));
            QVERIFY2(text.items.indexOf(text.items[i]) == i, qPrintable(what + u": repeated: "_s + text.items[i]));
        }
        // The model it was given is named, wherever it has a name (its possessive the name's).
        if (!model.name.isEmpty())
            QVERIFY2(ModelPossessive::namedIn(text.html, model.name),
                     qPrintable(what + u": names not "_s + model.name));
        const QString plain = LessonText::plain(text.html);
        for (const Claim &claim : claims())
            QVERIFY2(!plain.contains(claim.words) || claim.holds(model.params),
                     qPrintable(what + u": "_s + claim.why + u": "_s + plain));
        // A model's s is the one its preset sets: Whisper's encoder scales nothing, and the lesson's √d
        // was called Whisper's.
        if (!model.name.isEmpty() && plain.contains(model.name + u"'s s = "_s))
            QVERIFY2(r.read.choice && r.read.choice->texts.contains(u"scale"_s),
                     qPrintable(what + u": calls the lesson's s the model's: "_s + plain));
        // A model's σ is the one its preset sets ("init"): Whisper was told "At Whisper large-v3's
        // s = 1 and σ = 0.028", the lesson's d^-1/2, where its code draws at init_std 0.02.
        static const QRegularExpression modelSigma(u"'s σ = |'s s = [0-9.]+ and σ = [0-9.]++(?!, the lesson's)"_s);
        if (!model.name.isEmpty() && modelSigma.match(plain).hasMatch())
            QVERIFY2(r.read.choice && r.read.choice->texts.contains(u"init"_s),
                     qPrintable(what + u": calls the lesson's σ the model's: "_s + plain));
        // Whose p the figures show is said only where it is true (docs/ARCHITECTURE.md, Lessons):
        // the model's own where its preset or config names it, "no dropout on its input" only where
        // its preset records that its code has none, and otherwise that its preset or config does
        // not say. The lessons said "names no dropout on its input" of GPT-J (embd_pdrop 0.0).
        if (!model.name.isEmpty() && r.read.choice && dropsInput(text.keys)) {
            QVERIFY2(saysWhoseDropout(plain, model, *r.read.choice), qPrintable(what + u": "_s + plain));
            ++dropping;
        }
        if (!model.name.isEmpty() && r.read.choice && showsScale(text.keys, model))
            QVERIFY2(saysWhoseScale(plain, model, *r.read.choice), qPrintable(what + u": whose s: "_s + plain));
        // "x, where y" contrasts: the height offset's score reads lower than the width's.
        static const QRegularExpression contrast(u"scores ([0-9.]+), where the same height offset scores ([0-9.]+)"_s);
        if (const QRegularExpressionMatch m = contrast.match(plain); m.hasMatch())
            QVERIFY2(m.captured(2).toDouble() < m.captured(1).toDouble(), qPrintable(what + u": "_s + m.captured(0)));
        const QJsonObject config = configJson(pick, model);
        for (const QString &key : text.keys) {
            const auto number = LessonNumbers::number(key, model, LayerLessonNumbers::entries());
            QVERIFY2(number && number->present(), qPrintable(what + u": "_s + key));
            const auto reference = expected(key, model, config);
            if (!reference || !number->value)
                continue;
            ++compared;
            QVERIFY2(
                close(*number->value, *reference),
                qPrintable(u"%1: %2 is %3, the reference %4"_s.arg(what, key).arg(*number->value).arg(*reference)));
        }
    }
    QVERIFY2(applied > 0, qPrintable(name + u": applies to no model"_s));
    // The dropout lessons say whose p it is for every named model they apply to.
    if (name.contains(u"dropout"_s))
        QVERIFY2(dropping >= applied - 1, qPrintable(u"%1: %2 of %3 models"_s.arg(name).arg(dropping).arg(applied)));
    qInfo("%s: %d models, %d numbers compared", qPrintable(name), applied, compared);
}

// The issue's acceptance: Qwen2.5-7B's YaRN and Llama 3.1's llama3 in the rope-scaling lesson, Llama
// 4 Scout's slowest pair and query scale in many-layers, each as the lesson's words.
void TestLessonModels::theAcceptanceNumbers()
{
    const auto plain = [](const Lesson &lesson, const QStringList &arguments) {
        const Read r = readFor(lesson, {arguments, {}, {}});
        return std::pair {LessonText::plain(lesson.explain(r.read.model).html), r.read.model.params};
    };
    const Lesson &scaling = *Lessons::find(u"rope-scaling"_s);
    const auto [qwen, qwenParams] = plain(scaling, {u"--preset"_s, u"qwen2-5-7b"_s});
    // θ 10^6, head 128, factor 4 over 32768: yarn's ramp edges floor(23.6) = 23 and ceil(39.65) = 40;
    // get_mscale(4) = 0.1 ln 4 + 1.
    QCOMPARE(bands(qwenParams), (std::array<double, 3> {24, 16, 24}));
    QVERIFY(close(roperef::attentionFactor(qwenParams), 0.1 * std::log(4.0) + 1.0));
    QVERIFY2(qwen.contains(u"Qwen2.5 7B Instruct's YaRN keeps 24, blends 16 and divides 24 of its 64 turning pairs"_s),
             qPrintable(qwen));
    QVERIFY2(qwen.contains(u"attention factor 1.1386"_s), qPrintable(qwen));
    const auto [llama, llamaParams] = plain(scaling, {u"--preset"_s, u"llama-3-1-8b"_s});
    // θ 500000, factor 8, low 1, high 4 over 8192: wavelengths below 2048 kept, above 8192 divided.
    QCOMPARE(bands(llamaParams), (std::array<double, 3> {29, 6, 29}));
    QVERIFY2(llama.contains(u"Llama 3.1 8B's llama3 keeps 29, blends 6 and divides 29 of its 64 turning pairs"_s),
             qPrintable(llama));
    QVERIFY2(llama.contains(u"llama3 scaling has an attention factor of 1."_s), qPrintable(llama));
    const QString scout = plain(*Lessons::find(u"many-layers"_s), {u"--preset"_s, u"llama-4-scout"_s}).first;
    // 2π θ^(126/128) · 16, and log1p(floor(1000001/8192)) · 0.1 + 1 = 1 + 0.1 ln 123.
    QCOMPARE(std::llround(roperef::kTwoPi * std::pow(500000.0, 126.0 / 128.0) * 16.0), 40947128LL);
    QCOMPARE(QString::number(1.0 + 0.1 * std::log(123.0), 'f', 4), u"1.4812"_s);
    QVERIFY2(scout.contains(u"turns once in 40,947,128 positions"_s), qPrintable(scout));
    QVERIFY2(scout.contains(u"1 at position 8,000, 1.4812 at 1,000,000"_s), qPrintable(scout));
}

// At p = 0 the figures show a model without input dropout exactly: the dropout lessons said "the p
// of the figures, 0, is not Llama 3.1 8B's". Each still says whose p it is, and that nothing drops.
void TestLessonModels::pZeroIsTheCaseOfAModelWithoutInputDropout()
{
    for (const QString &name : {u"what-dropout-does"_s, u"masked-dropout"_s, u"dropout-on-sum"_s}) {
        const Lesson &lesson = *Lessons::find(name);
        for (const QString &preset : {u"llama-3-1-8b"_s, u"pytorch-embedding"_s}) {
            const Read r = readFor(lesson, {{u"--preset"_s, preset, u"--dropout"_s, u"0"_s}, {}, {}});
            QVERIFY(r.read.choice);
            const QString plain = LessonText::plain(lesson.explain(r.read.model).html);
            const QString what = name + u" for "_s + preset + u" at p = 0: "_s + plain;
            QVERIFY2(!plain.contains(u"is not "_s + r.read.model.name), qPrintable(what));
            QVERIFY2(plain.contains(u"zeroes nothing"_s) || plain.contains(u"zeroes no cell"_s)
                         || plain.contains(u"comes through whole;"_s),
                     qPrintable(what));
            QVERIFY2(saysWhoseDropout(plain, r.read.model, *r.read.choice), qPrintable(what));
        }
    }
}

// A sentence says what the model's own code does, for every shipped preset the lesson applies to.
// Packing and left padding follow one record, bias_from_columns (PositionsLessonNumbers.cpp): the
// models whose transformers code builds the score bias from the columns or the mask, never from the
// ids, and has no varlen path: MPT (MptModel.forward: position_ids a NOOP kwarg,
// build_mpt_alibi_tensor over max_seq_len), BLOOM (BloomModel.forward: build_alibi_tensor from the
// 2-D attention_mask's cumsum), T5 and Flan-T5 (T5Attention.compute_bias from arange of the lengths),
// DeBERTa-v3 (DebertaV2 build_relative_position from the sizes). The lessons said they bias each
// pair by the ids' distance, and that the varlen attention keeps their documents apart. NeMo's
// Sandwich code is unread: its sentences say so. Relative position: a table of float32 angles is
// only nearly a function of q − p, as the figure's title says. Float32 precision: the sentence
// follows the preset's record of its angles. Left padding: two float32 numbers, each said to be which.
void TestLessonModels::aSentenceSaysWhatTheModelsCodeDoes()
{
    const QStringList fromColumns {u"mpt-7b"_s, u"bloom-560m"_s, u"t5-base"_s, u"flan-t5-base"_s, u"deberta-v3-base"_s};
    const Lesson &packing = *Lessons::find(u"packing"_s);
    const Lesson &relative = *Lessons::find(u"relative-position"_s);
    const Lesson &padding = *Lessons::find(u"left-padding"_s);
    const Lesson &precision = *Lessons::find(u"float32-precision"_s);
    int columns = 0, unchecked = 0, float32 = 0, exact = 0, rounded = 0;
    const auto holds = [](const QString &key, const LessonModel &model) {
        const auto n = LessonNumbers::number(key, model);
        return n && n->present();
    };
    for (const Preset &preset : Presets::shipped().presets) {
        const Pick pick {{u"--preset"_s, preset.name}, preset.modelName(), {}};
        if (const Read r = readFor(packing, pick); r.ok && r.read.result.exitCode() == 0) {
            const QString plain = LessonText::plain(packing.explain(r.read.model).html);
            const QString what = preset.name + u": "_s + plain;
            const bool byColumns = holds(u"bias_from_columns"_s, r.read.model);
            const bool byUnread = holds(u"bias_unchecked"_s, r.read.model);
            QCOMPARE(byColumns, fromColumns.contains(preset.name));
            columns += byColumns;
            unchecked += byUnread;
            // A model that adds its table by column (WhisperEncoder.forward) reads none either.
            QVERIFY2(plain.contains(u"reads no position ids"_s)
                         == (byColumns || r.read.model.params.batch.positions == Positions::ByColumn),
                     qPrintable(what));
            QVERIFY2(plain.contains(u"has no varlen path"_s) == byColumns, qPrintable(what));
            QVERIFY2(!plain.contains(u"The varlen attention reads"_s) || !(byColumns || byUnread), qPrintable(what));
            QVERIFY2(!byColumns || !plain.contains(u"a negative distance"_s), qPrintable(what));
            QVERIFY2(plain.contains(u"is not checked here"_s) == byUnread, qPrintable(what));
            QVERIFY2(!byColumns || !plain.contains(u"biases each such pair by that distance"_s), qPrintable(what));
        }
        if (const Read r = readFor(relative, pick); r.ok && r.read.result.exitCode() == 0) {
            const QString plain = LessonText::plain(relative.explain(r.read.model).html);
            const bool inFloat32 = r.read.model.params.sinusoidal.angles == Angles::Float32;
            float32 += inFloat32;
            QVERIFY2(plain.contains(u"only nearly so"_s) == inFloat32, qPrintable(preset.name + u": "_s + plain));
            QVERIFY2(plain.contains(u"So S is constant along every line"_s) == !inFloat32, qPrintable(plain));
        }
        // The preset's record of its angles (TensorFlow's tutorial: NumPy's float64, angles exact; the
        // Annotated Transformer: float32), not the family, says which sentence a sinusoid is given.
        if (const Read r = readFor(precision, pick);
            r.ok && r.read.result.exitCode() == 0 && r.read.model.params.encoding == Encoding::Sinusoidal) {
            const QString plain = LessonText::plain(precision.explain(r.read.model).html);
            const Angles angles = r.read.model.params.sinusoidal.angles;
            exact += angles == Angles::Exact;
            QVERIFY2(plain.contains(u"forms it exactly, in double, as its record says"_s) == (angles == Angles::Exact),
                     qPrintable(preset.name + u": "_s + plain));
            QVERIFY2(plain.contains(u"in float32, as common code does"_s) == (angles == Angles::Float32),
                     qPrintable(plain));
        }
        if (const Read r = readFor(padding, pick); r.ok && r.read.result.exitCode() == 0) {
            const QString plain = LessonText::plain(padding.explain(r.read.model).html);
            const bool byColumns = holds(u"bias_from_columns"_s, r.read.model);
            QVERIFY2(plain.contains(u"not from the ids it is given"_s) == byColumns,
                     qPrintable(preset.name + u": "_s + plain));
            QVERIFY2(!byColumns || !plain.contains(u"by the difference of two ids"_s), qPrintable(plain));
            if (plain.contains(u"float32's rounding of the larger angles"_s)) {
                ++rounded;
                static const QRegularExpression moves(u"moves this last token's score by|would move that score by"_s);
                QVERIFY2(plain.contains(moves) && plain.contains(u"the row's largest"_s), qPrintable(plain));
            }
        }
    }
    // MPT-7B, BLOOM, the T5s, DeBERTa; NeMo's Sandwich; Whisper; the Transformers; the RoPE models
    QVERIFY(columns == fromColumns.size() && unchecked >= 1 && float32 >= 1 && exact >= 2 && rounded >= 2);
}

POSENC_TEST_GUILESS_MAIN(TestLessonModels)
} // namespace tst_lessonmodels
#include "tst_lessonmodels.moc"
