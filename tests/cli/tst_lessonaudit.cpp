// What session 28's audit of every lesson for every preset found said falsely, each class tested
// over every preset it can meet (docs/ARCHITECTURE.md, Lessons): the numbers are worked out here
// from the presets' own values (resources/presets), never read back from posenc's output.
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"

#include "io/Lesson.h"
#include "io/LessonText.h"
#include "io/Preset.h"

#include "check/models/ModelExamples.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <cstdint>

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

QStringList itemsOf(const Lesson &lesson, const LessonModel &model)
{
    QStringList items;
    for (const QString &item : lesson.explain(model).items)
        items.append(LessonText::plain(item));
    return items;
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
        QVERIFY2(first.contains(u"runs to %1 "_s.arg(own)) || first.contains(u"runs on the %1 positions"_s.arg(own)),
                 qPrintable(what));
        QVERIFY2(!first.contains(u"posenc's views stop"_s), qPrintable(what));
        if (own != views) {
            QVERIFY2(!first.contains(u"runs to %1 "_s.arg(views)), qPrintable(what));
            // Where it names a stretch, it is the views': L0 stretched to their L.
            if (first.contains(u"trained on L_0"_s))
                QVERIFY2(first.contains(u"stretched only to %1, the views' length L"_s.arg(views)), qPrintable(what));
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

// fairseq embedding init and PyTorch nn.Embedding defaults are init schemes: their presets name no
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
            const QString whose = name + (name.endsWith(u's') ? u"'"_s : u"'s"_s);
            const bool width = preset.params.contains(u"d-model"_s);
            const bool length = preset.params.contains(u"max-len"_s) && preset.context == 0;
            for (const QString &item : itemsOf(lesson, *model)) {
                const QString what = lesson.name + u", "_s + preset.name + u": "_s + item;
                for (const QString &claim : {whose + u" d = "_s, whose + u" PE has"_s, u"For "_s + name + u", S(0)"_s})
                    QVERIFY2(width || !item.contains(claim), qPrintable(what));
                if (width && item.contains(whose + u" d = "_s))
                    QVERIFY2(item.contains(whose + u" d = "_s + preset.params.value(u"d-model"_s)), qPrintable(what));
                QVERIFY2(length || !item.contains(whose + u" L = "_s), qPrintable(what));
                if (length && item.contains(whose + u" L = "_s))
                    QVERIFY2(item.contains(whose + u" L = "_s + preset.params.value(u"max-len"_s)), qPrintable(what));
                if (!width && item.contains(name) && stated.match(item).hasMatch()) {
                    ++unsaid;
                    QVERIFY2(item.contains(u"the lesson's"_s), qPrintable(what));
                }
            }
        }
    }
    QVERIFY(unsaid >= 8); // both init presets in masked-dropout, relative-position, frequencies, nope-order
}

QTEST_GUILESS_MAIN(TestLessonAudit)
#include "tst_lessonaudit.moc"
