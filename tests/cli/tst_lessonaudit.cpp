// What session 28's audit of every lesson for every preset found said falsely, each class tested
// over every preset it can meet (docs/ARCHITECTURE.md, Lessons): the numbers are worked out here
// from the presets' own values (resources/presets), never read back from posenc's output.
#include "LessonRead.h"
#include "ModelPossessive.h"
#include "support/TestMain.h"

#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"

#include "io/Lesson.h"
#include "io/LessonText.h"
#include "io/Preset.h"

#include "check/models/LayerLessonNumbers.h"
#include "check/models/ModelExamples.h"
#include "core/LessonNumbers.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tst_lessonaudit {
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

// The model's own context as its preset records it: "context" where its max_len is capped below
// it, else its max_len.
std::int64_t ownContext(const Preset &preset)
{
    return preset.context > 0 ? preset.context : preset.params.value(u"max-len"_s).toLongLong();
}

// The lesson read for a preset, or nothing where it does not apply (it says so in one line).
std::optional<LessonModel> modelFor(const Lesson &lesson, const Preset &preset, const QStringList &more = {})
{
    bool ok = false;
    const LessonOptions::Read r = readFor(lesson, QStringList {u"--preset"_s, preset.name} + more, &ok);
    if (!ok || r.result.exitCode() != 0 || !r.result.usage.isEmpty())
        return std::nullopt;
    return r.model;
}

using LessonRead::itemsOf;

// A real model's config.json of tests/data/configs (their sources in its README), as JSON.
QJsonObject realConfig(const QString &file)
{
    QFile f(QStringLiteral(POSENC_CONFIGS) + u"/"_s + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file));
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString possessive(const QString &name)
{
    return ModelPossessive::of(name);
}

// A whole number as the lessons write it, its thousands grouped: "1,000,000".
QString grouped(std::int64_t n)
{
    return QLocale(QLocale::English).toString(static_cast<qlonglong>(n));
}

// "1,000,000" as a number.
std::int64_t counted(const QString &text)
{
    return QString(text).remove(u',').toLongLong();
}

} // namespace

class TestLessonAudit : public QObject
{
    Q_OBJECT

private slots:
    void aModelsContextIsItsOwnWhateverTheViewsLength_data();
    void aModelsContextIsItsOwnWhateverTheViewsLength();
    void onlyAnAlibiModelIsToldAHeadsSlope();
    void aQueryScaleIsStatedOnlyWithinTheContext();
    void theBandsCountTheTurningPairsTheySayTheyCount();
    void aWidthOrLengthNoModelGaveIsCalledTheLessons();
    void aModelsPossessiveFallsOnItsName();
    void aMixedStackIsCountedFromItsConfigsFields();
    void aModelWithoutAConfigIsToldWhichToGive();
    void aViewTheTextNamesIsOnScreenOrFound();
    void aWholeNumberIsGroupedAsTheOthers();
};

void TestLessonAudit::aModelsContextIsItsOwnWhateverTheViewsLength_data()
{
    QTest::addColumn<bool>("halved");
    QTest::newRow("the preset's max_len") << false;
    QTest::newRow("--max-len half the preset's") << true;
}

// rope-scaling told Llama 3.1 8B at --max-len 16384 that it "runs to 16384", and Llama 4 Scout at
// --max-len 65536 that its figure stops at 65536 "where posenc's views stop": the context a
// sentence calls the model's is its preset's (Scout's 10485760, Llama 3.1's 131072), and where
// the views stop short of it the sentence says they stop at their L, not who stopped them. Every
// RoPE preset, at its own max_len and at half of it.
void TestLessonAudit::aModelsContextIsItsOwnWhateverTheViewsLength()
{
    QFETCH(bool, halved);
    const Lesson &scaling = *Lessons::find(u"rope-scaling"_s);
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const std::int64_t presetLength = preset.params.value(u"max-len"_s).toLongLong();
        const std::int64_t views = halved ? presetLength / 2 : presetLength;
        const auto model = modelFor(scaling, preset, {u"--max-len"_s, QString::number(views)});
        if (!model)
            continue; // the lesson needs RoPE: said in one line, tst_lessonmodels
        ++read;
        QCOMPARE(model->params.maxLen, views);
        const QString first = itemsOf(scaling, *model).value(0);
        const QString what = preset.name + u": "_s + first;
        const std::int64_t own = ownContext(preset);
        QVERIFY2(first.contains(u"runs to %1 "_s.arg(grouped(own)))
                     || first.contains(u"runs on the %1 positions"_s.arg(grouped(own))),
                 qPrintable(what));
        QVERIFY2(!first.contains(u"posenc's views stop"_s), qPrintable(what));
        if (own != views) {
            QVERIFY2(!first.contains(u"runs to %1 "_s.arg(grouped(views))), qPrintable(what));
            // Where it names a stretch, it is the views': L0 stretched to their L.
            if (first.contains(u"trained on L_0"_s))
                QVERIFY2(first.contains(u"stretched only to %1, the views' length L"_s.arg(grouped(views))),
                         qPrintable(what));
        }
    }
    QVERIFY(read >= 20);
}

// left-padding told T5-base, Flan-T5-base and DeBERTa-v3-base, which bias by buckets shared by
// every head, that their bias is "in head 1 (slope 0.5)": ALiBi's default head and slope, read
// for a model without ALiBi. A slope is said only to a model whose preset has ALiBi, and there it is
// head K's 2^(−8K/H) (H a power of two in every ALiBi preset; BLOOM's build_alibi_tensor).
void TestLessonAudit::onlyAnAlibiModelIsToldAHeadsSlope()
{
    static const QRegularExpression slope(u"in head (\\d+) \\(slope ([0-9.]+)\\)"_s);
    int alibi = 0;
    for (const QString &name : {u"left-padding"_s, u"alibi"_s}) {
        const Lesson &lesson = *Lessons::find(name);
        for (const Preset &preset : Presets::shipped().presets) {
            const auto model = modelFor(lesson, preset);
            if (!model)
                continue;
            const bool hasAlibi = preset.params.value(u"encoding"_s) == u"alibi"_s;
            for (const QString &item : itemsOf(lesson, *model)) {
                const auto match = slope.match(item);
                if (!match.hasMatch())
                    continue;
                QVERIFY2(hasAlibi, qPrintable(name + u", "_s + preset.name + u": "_s + item));
                ++alibi;
                const double heads = model->params.alibi.heads;
                QCOMPARE(std::exp2(std::log2(heads)), heads);
                const double expected = std::exp2(-8.0 * match.captured(1).toDouble() / heads);
                QVERIFY2(std::abs(match.captured(2).toDouble() - expected) <= 5e-4 * expected, qPrintable(item));
            }
        }
    }
    QVERIFY(alibi >= 2); // BLOOM's and MPT's left-padding
}

// many-layers told Devstral Small 2 its query scale "at 1,000,000" and then "at 393,215, the end of
// its context": every position the query-scale sentence names lies within the model's context,
// max_position_embeddings of its config.json (text_config's where it has one).
void TestLessonAudit::aQueryScaleIsStatedOnlyWithinTheContext()
{
    static const QRegularExpression at(u"\\bat (?:position )?([0-9][0-9,]*)"_s);
    const Lesson &layers = *Lessons::find(u"many-layers"_s);
    int scaled = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(layers, preset);
        if (!model || preset.config.isEmpty())
            continue;
        QJsonObject config = ModelExamples::find(preset.config)->config;
        if (config.contains(u"text_config"_s))
            config = config.value(u"text_config"_s).toObject();
        const std::int64_t context = config.value(u"max_position_embeddings"_s).toInteger();
        QVERIFY2(context > 0, qPrintable(preset.name));
        for (const QString &item : itemsOf(layers, *model)) {
            if (!item.contains(u"multiplies the queries"_s))
                continue;
            ++scaled;
            QVERIFY2(
                item.contains(u"at %1, the end of its context"_s.arg(QLocale(QLocale::English).toString(context - 1))),
                qPrintable(preset.name + u": "_s + item));
            for (auto it = at.globalMatch(item); it.hasNext();) {
                const std::int64_t position = counted(it.next().captured(1));
                QVERIFY2(position < context, qPrintable(preset.name + u": "_s + item));
            }
        }
    }
    QVERIFY(scaled >= 2); // Llama 4 Scout's and Devstral Small 2's
}

// rope-scaling counted Gemma 4's llama3 and YaRN bands, 40 + 7 + 17 = 64, "of its 256 pairs": its
// proportional RoPE turns only the first int(F · head_dim / 2) = 64 of them. Each triple of counts
// sums to the pairs the sentence names, and those are the pairs that turn, worked out here from
// the preset's head_dim, partial_rotary_factor and rope_type.
void TestLessonAudit::theBandsCountTheTurningPairsTheySayTheyCount()
{
    static const QRegularExpression counts(u"(\\d+), (?:blends? )?(\\d+) and (?:divides? )?(\\d+)"_s);
    static const QRegularExpression named(u"(\\d+) turning pairs"_s);
    const Lesson &scaling = *Lessons::find(u"rope-scaling"_s);
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(scaling, preset);
        if (!model)
            continue;
        const double headDim = preset.params.value(u"head-dim"_s).toDouble();
        const double partial = preset.params.value(u"partial-rotary-factor"_s, u"1"_s).toDouble();
        const double turning = preset.params.value(u"rope-type"_s) == u"proportional"_s
            ? std::floor(partial * headDim / 2.0)
            : std::floor(headDim * partial) / 2.0;
        for (const QString &item : itemsOf(scaling, *model)) {
            if (!item.startsWith(u"YaRN and llama3 sort"_s))
                continue;
            ++read;
            const auto pairs = named.match(item);
            QVERIFY2(pairs.hasMatch(), qPrintable(preset.name + u": "_s + item));
            QCOMPARE(pairs.captured(1).toDouble(), turning);
            int triples = 0;
            for (auto it = counts.globalMatch(item); it.hasNext(); ++triples) {
                const auto m = it.next();
                QCOMPARE(m.captured(1).toDouble() + m.captured(2).toDouble() + m.captured(3).toDouble(), turning);
            }
            QVERIFY2(triples == 2, qPrintable(preset.name + u": "_s + item));
        }
    }
    QVERIFY(read >= 20);
    // rope-decay summed "over the turning pairs, 256 of them" and rope-relative had Gemma 4 "turn
    // each pair": where some pairs do not turn, the first sentence says how many do.
    for (const QString &name : {u"rope-decay"_s, u"rope-relative"_s}) {
        const Lesson &lesson = *Lessons::find(name);
        for (const Preset &preset : Presets::shipped().presets) {
            const auto model = modelFor(lesson, preset);
            if (!model)
                continue;
            const double headDim = preset.params.value(u"head-dim"_s).toDouble();
            const double partial = preset.params.value(u"partial-rotary-factor"_s, u"1"_s).toDouble();
            const bool proportional = preset.params.value(u"rope-type"_s) == u"proportional"_s;
            const QString first = itemsOf(lesson, *model).value(0);
            if (proportional)
                QVERIFY2(first.contains(u"first %1 "_s.arg(std::floor(partial * headDim / 2.0)))
                             && first.contains(u" %1 "_s.arg(headDim / 2.0)),
                         qPrintable(name + u", "_s + preset.name + u": "_s + first));
            else
                QVERIFY2(!first.contains(u"only the first"_s),
                         qPrintable(name + u", "_s + preset.name + u": "_s + first));
        }
    }
}

// fairseq embedding init and PyTorch nn.Embedding init are init schemes: their presets name no
// d_model and no max_len. masked-dropout told them "at fairseq embedding init's d = 32", sum-vs-concat
// "Over fairseq embedding init's L = 1024 positions", why-sqrt-d "its PE has ... k = 512 its
// columns": the lesson's width and the views' length, said to be the model's. For every preset and
// lesson: a width or a length said to be a model's is one its preset names, with the preset's
// value; a sentence naming a model without a width that states one says it is the lesson's.
void TestLessonAudit::aWidthOrLengthNoModelGaveIsCalledTheLessons()
{
    static const QRegularExpression stated(u"(?<![·\\w])[dk] = (\\d+)"_s);
    int unsaid = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const Preset &preset : Presets::shipped().presets) {
            const auto model = modelFor(lesson, preset);
            if (!model)
                continue;
            const QString name = preset.modelName();
            const QString whose = possessive(name);
            const bool width = preset.params.contains(u"d-model"_s);
            const bool length = preset.params.contains(u"max-len"_s) && preset.context == 0;
            for (const QString &item : itemsOf(lesson, *model)) {
                const QString what = lesson.name + u", "_s + preset.name + u": "_s + item;
                for (const QString &claim : {whose + u" d = "_s, whose + u" PE has"_s, u"For "_s + name + u", S(0)"_s})
                    QVERIFY2(width || !item.contains(claim), qPrintable(what));
                if (width && item.contains(whose + u" d = "_s))
                    QVERIFY2(
                        item.contains(whose + u" d = "_s + grouped(preset.params.value(u"d-model"_s).toLongLong())),
                        qPrintable(what));
                QVERIFY2(length || !item.contains(whose + u" L = "_s), qPrintable(what));
                if (length && item.contains(whose + u" L = "_s))
                    QVERIFY2(
                        item.contains(whose + u" L = "_s + grouped(preset.params.value(u"max-len"_s).toLongLong())),
                        qPrintable(what));
                if (!width && item.contains(name) && stated.match(item).hasMatch()) {
                    ++unsaid;
                    QVERIFY2(item.contains(u"the lesson's"_s), qPrintable(what));
                }
            }
        }
    }
    QVERIFY(unsaid >= 8); // both init presets in masked-dropout, relative-position, frequencies, nope-order
}

// masked-dropout told DiT-XL/2 "the p of the figures, 0.1, is not DiT-XL/2 at 256 pixels'" and
// "at DiT-XL/2 at 256 pixels' d = 1152": the possessive of a name whose last words qualify it fell
// on them. For every lesson and preset, a model's possessive falls on its name.
void TestLessonAudit::aModelsPossessiveFallsOnItsName()
{
    int qualified = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const Preset &preset : Presets::shipped().presets) {
            const auto model = modelFor(lesson, preset);
            if (!model)
                continue;
            const QString name = preset.modelName();
            const bool hasQualifier = !possessive(name).startsWith(name);
            for (const QString &item : itemsOf(lesson, *model)) {
                const QString what = lesson.name + u", "_s + preset.name + u": "_s + item;
                QVERIFY2(!item.contains(name + u"'"_s) || possessive(name).startsWith(name + u"'"_s), qPrintable(what));
                if (hasQualifier && item.contains(possessive(name)))
                    ++qualified;
            }
        }
    }
    QVERIFY(qualified >= 2); // DiT-XL/2 in masked-dropout, twice in one item and in others
    const auto dit = modelFor(*Lessons::find(u"masked-dropout"_s), *Presets::find(u"dit-xl-2"_s));
    QVERIFY(dit);
    const QString d = grouped(Presets::find(u"dit-xl-2"_s)->params.value(u"d-model"_s).toLongLong());
    QVERIFY(itemsOf(*Lessons::find(u"masked-dropout"_s), *dit).join(u' ').contains(u"DiT-XL/2's d = "_s + d));
}

// many-layers refused EXAONE 4.0 32B and ModernBERT base, each preset one layer type of a mixed
// stack, for want of a config.json: they name their example configs now, and the lesson counts each
// layer type as the model's own config.json gives it, counted here from its fields: EXAONE's
// layer_types with its sliding_window (its full-attention layers without RoPE: Exaone4Attention turns
// only where the layer slides, models/exaone4/modeling_exaone4.py); ModernBERT's layer i global
// where i % global_attn_every_n_layers == 0, the others within local_attention / 2 each side
// (ModernBertAttention, models/modernbert/modeling_modernbert.py).
void TestLessonAudit::aMixedStackIsCountedFromItsConfigsFields()
{
    const Lesson &layers = *Lessons::find(u"many-layers"_s);
    const QLocale english(QLocale::English);
    const auto firstItem = [&](const QString &preset) {
        const auto model = modelFor(layers, *Presets::find(preset));
        return model ? itemsOf(layers, *model).value(0) : QString();
    };
    // EXAONE 4.0 32B
    const QJsonObject exaone = realConfig(u"EXAONE-4.0-32B.json"_s);
    std::int64_t sliding = 0, full = 0;
    for (const QJsonValue &type : exaone.value(u"layer_types"_s).toArray())
        (type.toString() == u"sliding_attention"_s ? sliding : full) += 1;
    QCOMPARE(sliding + full, exaone.value(u"num_hidden_layers"_s).toInteger());
    const QString e = firstItem(u"exaone-4-32b"_s);
    QVERIFY2(e.contains(u"has %1 layers of 2 kinds"_s.arg(sliding + full)), qPrintable(e));
    QVERIFY2(e.contains(u"%1 sliding_attention layers turn with RoPE"_s.arg(sliding)), qPrintable(e));
    QVERIFY2(
        e.contains(u"window of %1 positions"_s.arg(english.toString(exaone.value(u"sliding_window"_s).toInteger()))),
        qPrintable(e));
    QVERIFY2(e.contains(u"%1 full_attention layers have no position"_s.arg(full)), qPrintable(e));
    // ModernBERT base
    const QJsonObject bert = realConfig(u"ModernBERT-base.json"_s);
    const std::int64_t n = bert.value(u"num_hidden_layers"_s).toInteger();
    const std::int64_t every = bert.value(u"global_attn_every_n_layers"_s).toInteger();
    std::int64_t global = 0;
    for (std::int64_t i = 0; i < n; ++i)
        global += i % every == 0;
    const QString m = firstItem(u"modernbert-base"_s);
    QVERIFY2(m.contains(u"has %1 layers of 2 kinds"_s.arg(n)), qPrintable(m));
    QVERIFY2(m.contains(u"%1 full_attention layers turn with RoPE θ = %2"_s.arg(global).arg(
                 english.toString(bert.value(u"global_rope_theta"_s).toInteger()))),
             qPrintable(m));
    QVERIFY2(m.contains(u"%1 sliding_attention layers turn with RoPE θ = %2"_s.arg(n - global)
                            .arg(english.toString(bert.value(u"local_rope_theta"_s).toInteger()))),
             qPrintable(m));
    QVERIFY2(m.contains(u"window of %1 positions"_s.arg(bert.value(u"local_attention"_s).toInteger() / 2)),
             qPrintable(m));
}

// A preset of one layer type whose model posenc has no config of (Gemma 4 26B A4B) is refused in one
// line that says which config to give: --config, and the example of a model whose layer type has
// the preset's position scheme, Gemma 4 31B's full-attention layers (its config's text_config:
// global_head_dim and rope_parameters.full_attention, compared here with the preset's values).
void TestLessonAudit::aModelWithoutAConfigIsToldWhichToGive()
{
    const Lesson &layers = *Lessons::find(u"many-layers"_s);
    const Preset &gemma = *Presets::find(u"gemma-4"_s);
    QVERIFY(gemma.config.isEmpty());
    const QJsonObject text = ModelExamples::find(u"gemma-4-31b"_s)->config.value(u"text_config"_s).toObject();
    const QJsonObject full = text.value(u"rope_parameters"_s).toObject().value(u"full_attention"_s).toObject();
    QCOMPARE(full.value(u"rope_type"_s).toString(), gemma.params.value(u"rope-type"_s));
    QCOMPARE(full.value(u"rope_theta"_s).toDouble(), gemma.params.value(u"rope-theta"_s).toDouble());
    QCOMPARE(full.value(u"partial_rotary_factor"_s).toDouble(),
             gemma.params.value(u"partial-rotary-factor"_s).toDouble());
    QCOMPARE(text.value(u"global_head_dim"_s).toInteger(), gemma.params.value(u"head-dim"_s).toLongLong());
    // The refusal is the reading's usage line (exit 2).
    bool ok = false;
    const QString refusal = readFor(layers, {u"--preset"_s, u"gemma-4"_s}, &ok).result.usage;
    QVERIFY(ok);
    QVERIFY2(!refusal.isEmpty() && !refusal.contains(u'\n'), qPrintable(refusal));
    QVERIFY2(refusal.contains(u"--config FILE"_s), qPrintable(refusal));
    QVERIFY2(refusal.contains(u"--config gemma-4-31b"_s), qPrintable(refusal));
    // Every refusal of the lesson names the way out; the presets of one layer type of a mixed
    // stack whose model has an example (their titles: "…, sliding-window layers") are not refused.
    int refused = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const QString why = readFor(layers, {u"--preset"_s, preset.name}, &ok).result.usage;
        QVERIFY(ok);
        QVERIFY2(why.isEmpty() || why.contains(u"--config"_s), qPrintable(preset.name + u": "_s + why));
        QVERIFY2(why.isEmpty() || preset.config.isEmpty(), qPrintable(preset.name + u": "_s + why));
        refused += !why.isEmpty();
    }
    QVERIFY(refused > 0);
}

// The views a lesson's window shows: the maximised one, or the first rows x columns of its layout.
static QStringList shownViews(const Lesson &lesson, const LessonModel &model)
{
    const SessionView view = lesson.view(model.configName);
    const QList<SessionView::Figure> views = view.views.value_or(QList<SessionView::Figure>());
    if (view.maximized >= 0 && view.maximized < views.size())
        return {views[view.maximized].name};
    static const QRegularExpression grid(u"^([1-9])x([1-9])$"_s);
    const auto match = grid.match(view.layout.value_or(QString()));
    const qsizetype count = match.hasMatch() ? match.captured(1).toInt() * match.captured(2).toInt() : 4;
    QStringList shown;
    for (qsizetype i = 0; i < std::min(count, views.size()); ++i)
        shown.append(views[i].name);
    return shown;
}

// dropout-on-sum told MAE ViT-B/16 that "the magnitudes view" measures ‖s·E‖ against ‖PE‖, in a
// window of one view, the dropout-modes figure: the magnitudes view is the lesson's third, seen only
// in four. For every lesson and preset, a view of the lesson its text names is on screen, or its
// sentence says how to show it (View > Layout).
void TestLessonAudit::aViewTheTextNamesIsOnScreenOrFound()
{
    static const QRegularExpression named(u"([a-z0-9]+(?:-[a-z0-9]+)*) view\\b"_s);
    int hidden = 0;
    for (const Lesson &lesson : Lessons::all()) {
        QStringList views;
        for (const SessionView::Figure &f : lesson.view().views.value_or(QList<SessionView::Figure>()))
            views.append(f.name);
        for (const Preset &preset : Presets::shipped().presets) {
            const auto model = modelFor(lesson, preset);
            if (!model)
                continue;
            const QStringList shown = shownViews(lesson, *model);
            for (const QString &item : itemsOf(lesson, *model)) {
                for (auto it = named.globalMatch(item); it.hasNext();) {
                    const QString name = it.next().captured(1);
                    if (!views.contains(name) || shown.contains(name))
                        continue;
                    ++hidden;
                    QVERIFY2(item.contains(u"View > Layout > "_s),
                             qPrintable(lesson.name + u", "_s + preset.name + u": "_s + item));
                }
            }
        }
    }
    QVERIFY(hidden >= 1); // dropout-on-sum for a table whose norm has no closed form here
}

// Every number a lesson fills in for a model reads as the others do, its thousands grouped
// (docs/ARCHITECTURE.md, Numbers in text): what-dropout-does said "L·d = 229376 cells" of Qwen2.5 7B
// beside "position 16,384" and "θ = 160,000" in the lessons. A run of four digits or more, not the
// decimals of a number, is a number ungrouped.
void TestLessonAudit::aWholeNumberIsGroupedAsTheOthers()
{
    static const QRegularExpression ungrouped(u"(?<![0-9.,])[0-9]{4,}"_s);
    int whole = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const Preset &preset : Presets::shipped().presets) {
            const auto model = modelFor(lesson, preset);
            if (!model)
                continue;
            for (const QString &key : lesson.explain(*model).keys) {
                const auto number = LessonNumbers::number(key, *model, LayerLessonNumbers::entries());
                if (!number || !number->value || !number->present())
                    continue;
                QVERIFY2(!ungrouped.match(number->text).hasMatch(),
                         qPrintable(u"%1, %2: {%3} reads %4"_s.arg(lesson.name, preset.name, key, number->text)));
                whole += std::abs(*number->value) >= 1000.0 && number->text.contains(u',') ? 1 : 0;
            }
        }
    }
    QVERIFY(whole > 100);
    const auto qwen = modelFor(*Lessons::find(u"what-dropout-does"_s), *Presets::find(u"qwen2-5-7b"_s));
    QVERIFY(qwen);
    QVERIFY(itemsOf(*Lessons::find(u"what-dropout-does"_s), *qwen).join(u' ').contains(u"L·d = 229,376 cells"_s));
}

POSENC_TEST_GUILESS_MAIN(TestLessonAudit)
} // namespace tst_lessonaudit
#include "tst_lessonaudit.moc"
