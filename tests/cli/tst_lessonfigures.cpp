// What session 29 saw on a lesson's slides and figures (issue 58): the model a lecturer picks
// reaches every figure. The presets and the example configs are read here from their files
// (resources/presets, src/check/models/examples), never from posenc's output.
#include "CliRun.h"
#include "support/TestFiles.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <optional>

namespace tst_lessonfigures {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// Every preset's name and the example config it names ("" for none).
QList<std::pair<QString, QString>> presetConfigs()
{
    QList<std::pair<QString, QString>> presets;
    const QDir dir(QStringLiteral(POSENC_PRESETS));
    for (const QString &file : dir.entryList({u"*.json"_s}, QDir::Files)) {
        const QJsonObject preset = TestFiles::jsonObject(dir.filePath(file));
        // "22-bloom-560m.json": the order, then the name.
        const QString name = file.section(u'-', 1).chopped(5);
        presets.append({name, preset.value(u"config"_s).toString()});
    }
    return presets;
}

// The model an example config names itself ("_model").
QString exampleModel(const QString &example)
{
    return TestFiles::jsonObject(QStringLiteral(POSENC_EXAMPLES) + u"/"_s + example + u".json"_s)
        .value(u"_model"_s)
        .toString();
}

// The SVG's title, as a reader of the file sees it.
QString svgTitle(const QByteArray &svg)
{
    static const QRegularExpression title(u"<title>([^<]*)</title>"_s);
    return title.match(QString::fromUtf8(svg)).captured(1);
}

// A preset's parameter as a number; nothing where unset.
std::optional<double> presetNumber(const QJsonObject &params, const QString &key)
{
    bool ok = false;
    const double v = params.value(key).toString().toDouble(&ok);
    return ok ? std::optional(v) : std::nullopt;
}

// How a model type's attention scales q·k (ModelSchemes.json's "softmax": "mla" is DeepSeek's,
// qk_head_dim^-0.5 times yarn's get_mscale(f, mscale_all_dim)²).
QString softmaxRule(const QString &modelType)
{
    const QJsonObject table = TestFiles::jsonObject(QStringLiteral(POSENC_SCHEMES));
    for (const QJsonValue &row : table.value(u"rows"_s).toArray())
        if (row.toObject().value(u"type"_s).toString() == modelType)
            return row.toObject().value(u"softmax"_s).toString();
    return {};
}

// The example config's model type: its text model's where it has one.
QString textModelType(const QString &example)
{
    const QJsonObject config = TestFiles::jsonObject(QStringLiteral(POSENC_EXAMPLES) + u"/"_s + example + u".json"_s);
    const QJsonObject text = config.value(u"text_config"_s).toObject();
    return text.contains(u"model_type"_s) ? text.value(u"model_type"_s).toString()
                                          : config.value(u"model_type"_s).toString();
}

double getMscale(double factor, double mscale)
{
    return factor <= 1.0 ? 1.0 : 0.1 * mscale * std::log(factor) + 1.0;
}

} // namespace

class TestLessonFigures : public QObject
{
    Q_OBJECT

private slots:
    void aModelFigureDrawsThePresetsConfig_data();
    void aModelFigureDrawsThePresetsConfig();
    void aLessonsModelFigureDrawsTheModelsConfig();
    void yarnsLogitScaleIsTheModelsAttentions_data();
    void yarnsLogitScaleIsTheModelsAttentions();
    void describeSaysTheModelsLogitScale_data() { yarnsLogitScaleIsTheModelsAttentions_data(); }
    void describeSaysTheModelsLogitScale();
    void aPresetsNameIsItsExamplesName();
    void aLessonsExportDrawsThePanelsItsTextPointsAt_data();
    void aLessonsExportDrawsThePanelsItsTextPointsAt();
    void thePackingFigureCountsThePairsTheModelAttends_data();
    void thePackingFigureCountsThePairsTheModelAttends();
    void aLessonsExportDrawsTheViewsItsTextNames();
    void aNarrowLessonExportIsItsMainFigure();
    void bothTitlesOfTheSlideNameTheModel_data();
    void bothTitlesOfTheSlideNameTheModel();
};

void TestLessonFigures::aModelFigureDrawsThePresetsConfig_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("config");
    const auto presets = presetConfigs();
    QVERIFY(presets.size() > 40);
    for (const auto &[preset, config] : presets)
        QTest::addRow("layer-stack %s", qPrintable(preset)) << u"layer-stack"_s << preset << config;
    // The other model figures, for a preset of each kind.
    for (const QString &figure : {u"query-scale"_s, u"head-map"_s})
        for (const QString &preset : {u"gemma-3-4b"_s, u"deepseek-v3"_s, u"bloom-560m"_s}) {
            const auto it
                = std::find_if(presets.begin(), presets.end(), [&preset](const auto &p) { return p.first == preset; });
            QVERIFY(it != presets.end());
            QTest::addRow("%s %s", qPrintable(figure), qPrintable(preset)) << figure << preset << it->second;
        }
}

// `posenc export layer-stack --preset bloom-560m` drew Llama 4 Scout, the figure's default,
// whatever the preset: a model figure draws the preset's example config, or says in one line that
// the preset has none.
void TestLessonFigures::aModelFigureDrawsThePresetsConfig()
{
    QFETCH(QString, figure);
    QFETCH(QString, preset);
    QFETCH(QString, config);
    const BinaryRun run = posencBytes({u"export"_s, figure, u"--preset"_s, preset, u"-o"_s, u"-"_s, u"--format"_s,
                                       u"svg"_s, u"--size"_s, u"slide"_s});
    if (config.isEmpty()) {
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.trimmed().count(u'\n') == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(u"the preset %1 has none"_s.arg(preset)), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"--config"_s), qPrintable(run.err));
        return;
    }
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString model = exampleModel(config);
    QVERIFY(!model.isEmpty());
    // The model's name, and its note in parentheses ("(text part)") where it has one: the layer
    // stack's title gives the note after its layer count, so that a title short of room keeps
    // the name.
    const qsizetype noteAt = model.indexOf(u" ("_s);
    for (const QString &part : {model.left(noteAt), noteAt < 0 ? QString() : model.mid(noteAt + 1)})
        QVERIFY2(svgTitle(run.out).contains(part), qPrintable(svgTitle(run.out) + u" lacks "_s + part));
}

// left-padding's query-scale view named no config, so it drew the figure's examples whatever the
// model: a lesson's view of a model figure draws "{model}", the model's config, or names the one it
// contrasts; read for a preset, "{model}" is the preset's config.
void TestLessonFigures::aLessonsModelFigureDrawsTheModelsConfig()
{
    const QStringList modelFigures {u"layer-stack"_s, u"query-scale"_s, u"head-map"_s};
    const QDir dir(QStringLiteral(POSENC_LESSONS));
    int checked = 0;
    for (const QString &file : dir.entryList({u"*.json"_s}, QDir::Files)) {
        const QJsonObject lesson = TestFiles::jsonObject(dir.filePath(file));
        for (const QJsonValue &v : lesson.value(u"view"_s).toObject().value(u"views"_s).toArray()) {
            const QJsonObject view = v.toObject();
            if (!modelFigures.contains(view.value(u"figure"_s).toString()))
                continue;
            QVERIFY2(!view.value(u"config"_s).toString().isEmpty(),
                     qPrintable(file + u": a "_s + view.value(u"figure"_s).toString() + u" view of no config"_s));
            ++checked;
        }
    }
    QVERIFY(checked >= 5);
    const Run run = posenc({u"lessons"_s, u"left-padding"_s, u"--preset"_s, u"gemma-3-4b"_s, u"--json"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject view = QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"view"_s).toObject();
    bool seen = false;
    for (const QJsonValue &v : view.value(u"views"_s).toArray())
        if (v.toObject().value(u"figure"_s).toString() == u"query-scale"_s) {
            QCOMPARE(v.toObject().value(u"config"_s).toString(), u"gemma-3-4b"_s);
            seen = true;
        }
    QVERIFY(seen);
}

void TestLessonFigures::yarnsLogitScaleIsTheModelsAttentions_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("attention");
    QTest::addColumn<double>("softmax");
    const QDir dir(QStringLiteral(POSENC_PRESETS));
    for (const QString &file : dir.entryList({u"*.json"_s}, QDir::Files)) {
        const QJsonObject preset = TestFiles::jsonObject(dir.filePath(file));
        const QJsonObject params = preset.value(u"params"_s).toObject();
        if (params.value(u"rope-type"_s).toString() != u"yarn"_s)
            continue;
        // transformers' _compute_yarn_parameters: attention_factor, else get_mscale(f, mscale) /
        // get_mscale(f, mscale_all_dim) where both are set, else get_mscale(f).
        const double f = presetNumber(params, u"rope-factor"_s).value_or(1.0);
        const auto given = presetNumber(params, u"attention-factor"_s);
        const auto m = presetNumber(params, u"mscale"_s);
        const auto all = presetNumber(params, u"mscale-all-dim"_s);
        const double attention = given               ? *given
            : (m && all && *m != 0.0 && *all != 0.0) ? getMscale(f, *m) / getMscale(f, *all)
                                                     : getMscale(f, 1.0);
        // The softmax scale: DeepseekV3Attention.__init__ multiplies it by get_mscale(f,
        // mscale_all_dim)² (modeling_deepseek_v3.py); Ministral3Attention keeps head_dim^-0.5.
        const QString config = preset.value(u"config"_s).toString();
        const bool mla = config.isEmpty() ? all.has_value() : softmaxRule(textModelType(config)) == u"mla"_s;
        const double softmax = mla && all && *all != 0.0 ? std::pow(getMscale(f, *all), 2.0) : 1.0;
        QTest::addRow("%s", qPrintable(file)) << file.section(u'-', 1).chopped(5) << attention << softmax;
    }
}

// rope-scaling told DeepSeek-V3 "attention factor 1, every q·k by 1.8739" without saying where
// 1.8739 comes from, and told Devstral Small 2, whose Ministral3Attention keeps head_dim^-0.5,
// that every q·k grows by 1.9241: the logit scale is the attention factor squared times the
// softmax's mscale² where the model's attention code applies it, and that code is named.
void TestLessonFigures::yarnsLogitScaleIsTheModelsAttentions()
{
    QFETCH(QString, preset);
    QFETCH(double, attention);
    QFETCH(double, softmax);
    const Run run = posenc({u"lessons"_s, u"rope-scaling"_s, u"--preset"_s, preset, u"--json"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject lesson = QJsonDocument::fromJson(run.out.toUtf8()).object();
    double qk = -1.0;
    for (const QJsonValue &n : lesson.value(u"numbers"_s).toArray())
        if (n.toObject().value(u"key"_s).toString() == u"rope_qk_scale"_s)
            qk = n.toObject().value(u"value"_s).toDouble();
    QVERIFY(std::abs(qk - attention * attention * softmax) < 1e-9);
    QString said;
    for (const QJsonValue &item : lesson.value(u"items"_s).toArray())
        if (item.toString().contains(u"sharpening the attention logits"_s))
            said = item.toString();
    QVERIFY(!said.isEmpty());
    QVERIFY2(said.contains(u"every q·k by %1."_s.arg(
                 QString::number(attention * attention * softmax, 'f', 4).remove(QRegularExpression(u"\\.?0+$"_s)))),
             qPrintable(said));
    QCOMPARE(said.contains(u"DeepseekV3Attention.__init__"_s), softmax != 1.0);
}

// `posenc describe --preset devstral-small-2` printed softmax_scale_factor 1.9241 and logit_scale
// 1.9241 (core's reading of mscale_all_dim as DeepSeek's) where Ministral3Attention.__init__
// (transformers, models/ministral3/modeling_ministral3.py) keeps self.scaling = head_dim**-0.5:
// describe with a preset gives the factors its model's attention applies, as the lesson does.
void TestLessonFigures::describeSaysTheModelsLogitScale()
{
    QFETCH(QString, preset);
    QFETCH(double, attention);
    QFETCH(double, softmax);
    const Run run = posenc({u"describe"_s, u"--preset"_s, preset, u"--json"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject numbers = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QVERIFY2(std::abs(numbers.value(u"attention_factor"_s).toDouble(-1.0) - attention) < 1e-9, qPrintable(run.out));
    QVERIFY2(std::abs(numbers.value(u"softmax_scale_factor"_s).toDouble(-1.0) - softmax) < 1e-9, qPrintable(run.out));
    QVERIFY2(std::abs(numbers.value(u"logit_scale"_s).toDouble(-1.0) - attention * attention * softmax) < 1e-9,
             qPrintable(run.out));
}

// `posenc check --config glm-4-5` answered "no such file": the example was glm-4.5, the preset
// glm-4-5. An example is named as its model's preset, and check and describe take that name; the
// former names still read; a name that is neither says which names are.
void TestLessonFigures::aPresetsNameIsItsExamplesName()
{
    int examples = 0;
    for (const auto &[preset, config] : presetConfigs()) {
        if (config.isEmpty())
            continue;
        ++examples;
        QCOMPARE(config, preset);
        const Run check = posenc({u"check"_s, u"--config"_s, preset, u"--json"_s});
        QVERIFY2(check.out.contains(u"\"model_type\""_s) && !check.err.contains(u"no such file"_s),
                 qPrintable(preset + u": "_s + check.err));
        const Run describe = posenc({u"describe"_s, u"--config"_s, preset});
        QVERIFY2(describe.exitCode == 0, qPrintable(preset + u": "_s + describe.err));
    }
    QVERIFY(examples >= 12);
    for (const QString &former : {u"glm-4.5"_s, u"deepseek-v3.2-exp"_s, u"qwen3-next"_s}) {
        const Run describe = posenc({u"describe"_s, u"--config"_s, former});
        QVERIFY2(describe.exitCode == 0, qPrintable(former + u": "_s + describe.err));
    }
    for (const QString &command : {u"check"_s, u"describe"_s}) {
        const Run refused = posenc({command, u"--config"_s, u"glm-45"_s});
        QVERIFY(refused.exitCode != 0);
        QVERIFY2(refused.err.trimmed().count(u'\n') == 0, qPrintable(refused.err));
        QVERIFY2(refused.err.contains(u"no such file"_s) && refused.err.contains(u"glm-4-5"_s)
                     && refused.err.contains(u"deepseek-v3-2-exp"_s),
                 qPrintable(refused.err));
    }
}

void TestLessonFigures::aLessonsExportDrawsThePanelsItsTextPointsAt_data()
{
    QTest::addColumn<QStringList>("model");
    QTest::addColumn<bool>("rotary");
    QTest::addColumn<QString>("quoted");
    QTest::newRow("left-padding, its own") << QStringList() << true << u"scores"_s;
    QTest::newRow("left-padding, Qwen2.5 7B") << QStringList {u"--preset"_s, u"qwen2-5-7b"_s} << true << u"scores"_s;
    QTest::newRow("left-padding, BLOOM") << QStringList {u"--preset"_s, u"bloom-560m"_s} << false
                                         << u"ALiBi bias in head 1 (slope 0.707) is −6,499"_s;
}

// left-padding's text points a rotary model at "the position-effect view's difference panel",
// and its slide (`export --lesson left-padding`) drew the position ids alone: the lesson's own
// export draws its main figure beside the figures whose panels its text refers to. For BLOOM the
// text quotes the last token's ALiBi bias against the first (−m·Δ: m = 2^-0.5 for head 1 of 16,
// get_slopes, times the 9191 columns between them), which the slide left out though the window
// showed it: the slide draws the figures of the numbers the text quotes, too.
void TestLessonFigures::aLessonsExportDrawsThePanelsItsTextPointsAt()
{
    QFETCH(QStringList, model);
    QFETCH(bool, rotary);
    QFETCH(QString, quoted);
    const Run text = posenc(QStringList {u"lessons"_s, u"left-padding"_s} + model);
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QCOMPARE(text.out.contains(u"position-effect view's difference panel"_s), rotary);
    QVERIFY2(text.out.contains(quoted), qPrintable(text.out));
    if (!rotary)
        QCOMPARE(std::lround(-std::pow(2.0, -0.5) * 9191.0), -6499L);
    const BinaryRun run = posencBytes(QStringList {u"export"_s, u"--lesson"_s, u"left-padding"_s, u"--size"_s,
                                                   u"slide"_s, u"-o"_s, u"-"_s, u"--format"_s, u"svg"_s}
                                      + model);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString title = svgTitle(run.out);
    QVERIFY2(title.startsWith(u"Position ids"_s), qPrintable(title));
    QVERIFY2(title.contains(u"; Position effect"_s), qPrintable(title));
}

void TestLessonFigures::thePackingFigureCountsThePairsTheModelAttends_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("flags");
    const QDir dir(QStringLiteral(POSENC_PRESETS));
    for (const QString &file : dir.entryList({u"*.json"_s}, QDir::Files)) {
        const QJsonObject params = TestFiles::jsonObject(dir.filePath(file)).value(u"params"_s).toObject();
        const QString encoding = params.value(u"encoding"_s).toString();
        const bool oneId = encoding == u"rope"_s || encoding == u"sinusoidal"_s || encoding == u"learned"_s;
        if (encoding == u"t5"_s || encoding == u"deberta"_s || encoding == u"alibi"_s || file.contains(u"llama-3-1"_s)
            || (oneId && params.contains(u"attention"_s)))
            QTest::newRow(qPrintable(file)) << file.section(u'-', 1).chopped(5) << QStringList();
    }
    // The same encoder told its mask is causal: the figure and the text follow the row.
    QTest::newRow("modernbert-base --attention causal")
        << u"modernbert-base"_s << QStringList {u"--attention"_s, u"causal"_s};
    QTest::newRow("llama-3-1-8b --attention both-ways")
        << u"llama-3-1-8b"_s << QStringList {u"--attention"_s, u"both-ways"_s};
}

// packing told T5-base, then ModernBERT and the Whisper encoder, that they attend both ways and see
// T² − Σnᵢ² cross-document pairs while their figure drew the causal triangle and counted 26: the
// figure draws the pairs the model attends, and its counts are the text's. Which models attend both
// ways is read here from their presets and flags: T5's encoder (no t5-causal; transformers' T5Stack
// masks causally only as a decoder), DeBERTa (an encoder) and ALiBi's symmetric mask by their
// families; a RoPE or sinusoid model by its "attention" (ModernBertModel's padding-only mask,
// WhisperEncoder's none); the others are causal, Σ_{a>b} nₐ·n_b pairs.
void TestLessonFigures::thePackingFigureCountsThePairsTheModelAttends()
{
    QFETCH(QString, preset);
    QFETCH(QStringList, flags);
    const QDir dir(QStringLiteral(POSENC_PRESETS));
    const QString file = dir.entryList({u"*-"_s + preset + u".json"_s}, QDir::Files).value(0);
    const QJsonObject params = TestFiles::jsonObject(dir.filePath(file)).value(u"params"_s).toObject();
    const QString encoding = params.value(u"encoding"_s).toString();
    const QString attention = flags.isEmpty() ? params.value(u"attention"_s).toString() : flags.last();
    const bool familyMask = encoding == u"t5"_s || encoding == u"deberta"_s || encoding == u"alibi"_s;
    const bool bothWays = (encoding == u"t5"_s && params.value(u"t5-causal"_s).toString() != u"true"_s)
        || encoding == u"deberta"_s || (encoding == u"alibi"_s && params.value(u"alibi"_s).toString() == u"symmetric"_s)
        || (!familyMask && attention == u"both-ways"_s);
    const QJsonObject lesson = TestFiles::jsonObject(QStringLiteral(POSENC_LESSONS) + u"/packing.json"_s);
    std::vector<std::int64_t> n;
    for (const QString &length : lesson.value(u"params"_s).toObject().value(u"packed"_s).toString().split(u','))
        n.push_back(length.toLongLong());
    std::int64_t tokens = 0, own = 0, causal = 0;
    for (std::size_t a = 0; a < n.size(); ++a) {
        tokens += n[a];
        own += n[a] * n[a];
        for (std::size_t b = 0; b < a; ++b)
            causal += n[a] * n[b];
    }
    const std::int64_t cross = bothWays ? tokens * tokens - own : causal;
    const Run text = posenc(QStringList {u"lessons"_s, u"packing"_s, u"--preset"_s, preset} + flags);
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QVERIFY2(text.out.contains(u" %1 cross-document pairs"_s.arg(cross)), qPrintable(text.out));
    QCOMPARE(text.out.contains(u"attends both ways"_s), bothWays);
    const BinaryRun run = posencBytes(QStringList {u"export"_s, u"--lesson"_s, u"packing"_s, u"--preset"_s, preset,
                                                   u"--size"_s, u"slide"_s, u"-o"_s, u"-"_s, u"--format"_s, u"svg"_s}
                                      + flags);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(svgTitle(run.out).contains(bothWays ? u"both ways"_s : u"causal"_s), qPrintable(svgTitle(run.out)));
    // The compared panel's title: "restarted-without-block-mask: 52 cross-document pairs, …".
    const QRegularExpression counted(u"[> ]%1 cross"_s.arg(cross));
    QVERIFY2(QString::fromUtf8(run.out).contains(counted), qPrintable(svgTitle(run.out)));
}

// many-layers' text sends the reader to "the query-scale view" (Llama 4 Scout's 1.4812 at
// 1,000,000), and its slide drew the layer stack alone: the views a text names are on its export.
void TestLessonFigures::aLessonsExportDrawsTheViewsItsTextNames()
{
    const Run text = posenc({u"lessons"_s, u"many-layers"_s});
    QVERIFY2(text.out.contains(u"the query-scale view"_s), qPrintable(text.out));
    const BinaryRun run = posencBytes({u"export"_s, u"--lesson"_s, u"many-layers"_s, u"--size"_s, u"slide"_s, u"-o"_s,
                                       u"-"_s, u"--format"_s, u"svg"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString title = svgTitle(run.out);
    QVERIFY2(title.startsWith(u"Layer stack"_s) && title.contains(u"; Query scale"_s), qPrintable(title));
}

// At a paper's column the two figures' keys and titles were cut to "slidi…" and "spa…": a lesson's
// own export on a page narrower than 16 cm is its main figure alone; at --size double, both.
void TestLessonFigures::aNarrowLessonExportIsItsMainFigure()
{
    for (const QString &size : {u"column"_s, u"double"_s}) {
        const BinaryRun run = posencBytes({u"export"_s, u"--lesson"_s, u"many-layers"_s, u"--size"_s, size, u"-o"_s,
                                           u"-"_s, u"--format"_s, u"svg"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString title = svgTitle(run.out);
        QVERIFY2(title.startsWith(u"Layer stack"_s), qPrintable(title));
        QCOMPARE(title.contains(u"; Query scale"_s), size == u"double"_s);
    }
}

void TestLessonFigures::bothTitlesOfTheSlideNameTheModel_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("name");
    // The names as the example configs' "_model" spell them (meta-llama/..., google/...).
    QTest::newRow("default") << QString() << u"Llama-4-Scout-17B-16E"_s;
    QTest::newRow("gemma-3-4b") << u"gemma-3-4b"_s << u"gemma-3-4b-it"_s;
}

// On many-layers' 14-pt slide the layer stack's title, beside the query scale's, kept "Layer stack"
// alone: it dropped the model's name, which the query scale's title beside it kept. The page's
// visible texts hold the model's name in both titles.
void TestLessonFigures::bothTitlesOfTheSlideNameTheModel()
{
    QFETCH(QString, preset);
    QFETCH(QString, name);
    QStringList arguments {u"export"_s, u"--lesson"_s, u"many-layers"_s, u"--size"_s,   u"slide"_s, u"--font-size"_s,
                           u"14"_s,     u"-o"_s,       u"-"_s,           u"--format"_s, u"svg"_s};
    if (!preset.isEmpty())
        arguments += {u"--preset"_s, preset};
    const BinaryRun run = posencBytes(arguments);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    static const QRegularExpression text(u"<text[^>]*>([^<]*)</text>"_s);
    QStringList shown;
    for (const QRegularExpressionMatch &m : text.globalMatch(QString::fromUtf8(run.out)))
        shown.append(m.captured(1));
    // (QStringList::indexOf matches the whole text.)
    const qsizetype layerStack = shown.indexOf(QRegularExpression(u"Layer stack.*"_s));
    const qsizetype queryScale = shown.indexOf(QRegularExpression(u"Query scale.*"_s));
    QVERIFY2(layerStack >= 0 && queryScale > layerStack, qPrintable(shown.join(u" | "_s)));
    // The layer stack's title lines come before its axes' ticks; the first tick is "position".
    const qsizetype lanes = shown.indexOf(u"position"_s, layerStack);
    QVERIFY2(lanes > layerStack, qPrintable(shown.join(u" | "_s)));
    const QString title = shown.mid(layerStack, lanes - layerStack).join(u' ');
    QVERIFY2(title.contains(name), qPrintable(title));
    QVERIFY2(shown.mid(queryScale, 3).join(u' ').contains(name), qPrintable(shown.mid(queryScale, 3).join(u' ')));
}

POSENC_TEST_GUILESS_MAIN(TestLessonFigures)
} // namespace tst_lessonfigures
#include "tst_lessonfigures.moc"
