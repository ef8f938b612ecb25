// Every lesson's code box read for every model a lecturer can pick (its own, every shipped preset,
// every real config of tests/data/configs), as posenc lessons NAME --preset P / --config FILE reads
// it (LessonOptions, in this process): the box is there wherever the lesson applies; where it cites
// a model's code (transformers' models/X/) it is the model's own code, or it opens with one line
// that names the model and says the code is another's; and the code shown computes what the
// lesson's numbers compute: the rotation's pairs (rotate_half's (i, i + d/2) or rotate_every_two's
// (2i, 2i + 1)), a partial rotary's slice, the sinusoid's layout, the layers without position.
// The model's own code is read here from the preset's source and the config's model_type, as
// written by hand in their files, not from the lesson.
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"

#include "check/ModelConfigCheck.h"
#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"
#include "core/rope/RopeFrequencies.h"
#include "io/Lesson.h"
#include "io/LessonModels.h"
#include "io/Preset.h"

#include <QCommandLineParser>
#include <QDir>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Pick
{
    QStringList arguments;
    QStringList ownFolders; // transformers' models/ folders of the model's own code; empty: unknown
};

QStringList folders(const QString &text)
{
    static const QRegularExpression folder(u"\\bmodels/([a-z0-9_]+)/"_s);
    QStringList out;
    for (auto it = folder.globalMatch(text); it.hasNext();)
        out.append(it.next().captured(1));
    return out;
}

QList<Pick> picks()
{
    QList<Pick> all {{{}, {}}};
    for (const Preset &preset : Presets::shipped().presets) {
        QStringList own = folders(preset.source);
        if (!preset.config.isEmpty()) {
            if (const auto check = LessonModels::example(preset.config))
                own += folders(check->modelFile);
        }
        all.append({{u"--preset"_s, preset.name}, own});
    }
    const QDir configs(QStringLiteral(POSENC_CONFIGS));
    for (const QString &file : configs.entryList({u"*.json"_s}, QDir::Files, QDir::Name))
        all.append({{u"--config"_s, configs.filePath(file)}, {}});
    return all;
}

struct Read
{
    LessonOptions::Read read;
    bool applies = false;
};

Read readFor(const Lesson &lesson, const Pick &pick)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    Read out;
    if (!parser.parse(QStringList {u"posenc"_s} + pick.arguments))
        return out;
    out.read = LessonOptions::read(parser, lesson);
    out.applies = out.read.result.exitCode() == 0 && out.read.result.fileError.isEmpty();
    return out;
}

// The code itself: the box without its comment lines.
QString codeOf(const QString &box)
{
    QStringList lines;
    for (const QString &line : box.split(u'\n')) {
        if (!line.trimmed().startsWith(u'#'))
            lines.append(line);
    }
    return lines.join(u'\n');
}

} // namespace

class TestLessonCode : public QObject
{
    Q_OBJECT

private slots:
    void everyBoxForEveryModel_data();
    void everyBoxForEveryModel();
    void theParametersChooseTheCode();
};

void TestLessonCode::everyBoxForEveryModel_data()
{
    QTest::addColumn<QString>("name");
    for (const Lesson &lesson : Lessons::all()) {
        if (!lesson.code.isEmpty())
            QTest::newRow(qPrintable(lesson.name)) << lesson.name;
    }
}

void TestLessonCode::everyBoxForEveryModel()
{
    QFETCH(QString, name);
    const Lesson &lesson = *Lessons::find(name);
    // An alternative needs numbers that exist: a misspelt fact would never be had.
    const QStringList keys = LessonNumbers::keys(LayerLessonNumbers::entries());
    for (const LessonCode::Alternative &alternative : lesson.code.alternatives) {
        for (const QString &need : alternative.needs)
            QVERIFY2(keys.contains(need), qPrintable(name + u": "_s + need));
    }
    int applied = 0, own = 0, others = 0;
    for (const Pick &pick : picks()) {
        const QString what
            = name + u" for "_s + (pick.arguments.isEmpty() ? u"its own model"_s : pick.arguments.join(u' '));
        const Read r = readFor(lesson, pick);
        if (!r.applies)
            continue;
        ++applied;
        const LessonModel &model = r.read.model;
        const QString box = lesson.code.forModel(model);
        QVERIFY2(!box.isEmpty(), qPrintable(what + u": no code"_s));
        QVERIFY2(!box.contains(u'{') && !box.contains(u'}'), qPrintable(what + u":\n"_s + box));
        // The line before the citation, its comment lines joined.
        const qsizetype citation = box.indexOf(u"# transformers, "_s);
        QString firstLine = (citation > 0 ? box.left(citation - 1) : box.section(u'\n', 0, 0));
        firstLine.replace(u"\n#  "_s, u" "_s);
        const QStringList cited = folders(box);
        QStringList mine = pick.ownFolders;
        if (model.config)
            mine += folders(model.config->modelFile);
        if (!cited.isEmpty()) {
            // The model's own code, cited on the box's first line; or another family's, said so.
            if (mine.contains(cited.first()) || (model.name.isEmpty() && !model.config)) {
                // The model's own code, or parameters of no one's: the citation first.
                QVERIFY2(firstLine.contains(u"models/%1/"_s.arg(cited.first())), qPrintable(what + u":\n"_s + box));
                own += mine.contains(cited.first()) ? 1 : 0;
            } else {
                const QString named = model.name.isEmpty() ? u"this model"_s : model.name;
                const QString configNamed = model.configTitle.section(u" ("_s, 0, 0);
                QVERIFY2(firstLine.startsWith(u"# "_s) && firstLine.contains(u"'s code"_s)
                             && (firstLine.contains(u"not %1's"_s.arg(named))
                                 || (!configNamed.isEmpty() && firstLine.contains(u"not %1's"_s.arg(configNamed)))),
                         qPrintable(what + u":\n"_s + box));
                QVERIFY2(!firstLine.contains(u"models/"_s), qPrintable(what + u":\n"_s + box));
                ++others;
            }
        }
        const QString code = codeOf(box);
        const Params &p = model.params;
        // A rotation shown is the one the numbers turn: its pairs and how much of a head.
        if (code.contains(u"rotate_"_s)) {
            QVERIFY(p.encoding == Encoding::Rope);
            const bool interleaved = p.rope.layout == RopeLayout::Interleaved;
            QVERIFY2(code.contains(u"rotate_every_two("_s) == interleaved, qPrintable(what + u":\n"_s + box));
            QVERIFY2(code.contains(u"rotate_half("_s) == !interleaved, qPrintable(what + u":\n"_s + box));
            const bool partial = RopeFrequencies::rotaryDim(p.rope) < p.rope.headDim;
            QVERIFY2(code.contains(u"rotary_dim"_s) == partial, qPrintable(what + u":\n"_s + box));
        }
        // A sinusoid shown is laid out as the numbers' PE.
        if (code.contains(u"pe[:, 0::2]"_s))
            QVERIFY2(p.sinusoidal.layout == Layout::Interleaved, qPrintable(what));
        if (code.contains(u"torch.cat([scaled_time.sin(), scaled_time.cos()]"_s))
            QVERIFY2(p.sinusoidal.layout == Layout::Split && !p.sinusoidal.flipSinToCos, qPrintable(what));
        // Layers shown are the config's: layers without position where it has them.
        if (model.config && lesson.needs.contains(u"layers"_s)) {
            bool nope = false, scaled = false;
            int kinds = 0;
            for (const ConfigLayer &l : model.config->layers) {
                if (l.layers.empty())
                    continue;
                ++kinds;
                nope = nope || l.scheme.encoding == u"none"_s;
                scaled = scaled || !l.scheme.query.isNone();
            }
            QVERIFY2(code.contains(u"no_rope_layers"_s) == nope, qPrintable(what + u":\n"_s + box));
            QVERIFY2(code.contains(u"query_states * "_s) == scaled, qPrintable(what + u":\n"_s + box));
            // Several kinds of layer are never shown as one rotation for all; one kind, never as kinds.
            if (kinds > 1)
                QVERIFY2(!box.contains(u"one rotation for every layer"_s), qPrintable(what + u":\n"_s + box));
            else
                QVERIFY2(!code.contains(u"layer_types"_s), qPrintable(what + u":\n"_s + box));
        }
    }
    QVERIFY2(applied > 0, qPrintable(name));
    qInfo("%s: %d models, %d own code, %d another's with its line", qPrintable(name), applied, own, others);
}

// Parameters edited away from any preset are no one's model: the box is chosen by their facts and
// cites its source, with no line; GPT-J itself gets its own code, with none either.
void TestLessonCode::theParametersChooseTheCode()
{
    const Lesson &lesson = *Lessons::find(u"rope-relative"_s);
    QCommandLineParser parser;
    ParamOptions::add(parser);
    QVERIFY(parser.parse({u"posenc"_s, u"--preset"_s, u"gpt-j-6b"_s, u"--rope-layout"_s, u"half"_s}));
    const LessonOptions::Read read = LessonOptions::read(parser, lesson);
    QCOMPARE(read.result.exitCode(), 0);
    QVERIFY(read.model.name.isEmpty());
    const QString box = lesson.code.forModel(read.model);
    // Half layout, 64 of 256 columns: GPT-NeoX's slice of rotate_half's pairs.
    QVERIFY2(box.startsWith(u"# transformers, models/gpt_neox/modeling_gpt_neox.py"_s), qPrintable(box));
    QVERIFY2(box.contains(u"q[..., :rotary_dim]"_s) && !box.contains(u"rotate_every_two"_s), qPrintable(box));
    QCommandLineParser gptj;
    ParamOptions::add(gptj);
    QVERIFY(gptj.parse({u"posenc"_s, u"--preset"_s, u"gpt-j-6b"_s}));
    const QString own = lesson.code.forModel(LessonOptions::read(gptj, lesson).model);
    QVERIFY2(own.startsWith(u"# transformers, models/gptj/modeling_gptj.py"_s), qPrintable(own));
    // Mistral 7B turns rotate_half's pairs over its whole head, as Llama's code does, which is not
    // its own (models/mistral): the box says so first, within the code's width.
    QCommandLineParser mistral;
    ParamOptions::add(mistral);
    QVERIFY(mistral.parse({u"posenc"_s, u"--preset"_s, u"mistral-7b"_s}));
    const QString other = lesson.code.forModel(LessonOptions::read(mistral, lesson).model);
    QVERIFY2(other.startsWith(u"# Llama's code, not Mistral 7B v0.1's own"_s), qPrintable(other));
    QVERIFY2(other.contains(u"\n# transformers, models/llama/modeling_llama.py"_s), qPrintable(other));
    const QStringList lines = other.split(u'\n');
    const qsizetype widest = std::max_element(lines.cbegin() + 1, lines.cend(), [](const QString &a, const QString &b) {
                                 return a.size() < b.size();
                             })->size();
    QVERIFY2(lines.first().size() <= widest, qPrintable(other));
}

QTEST_GUILESS_MAIN(TestLessonCode)
#include "tst_lessoncode.moc"
