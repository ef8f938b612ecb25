// Issue 58's known defects in the lessons' and describe's code, each over the class it belongs to:
// numbers in a lesson's prose as prose writes them (never "1e6" or "1.5241e8", which a reader of a
// sentence does not expect, where the figures' log axes write 10ⁿ), a config of learned positions
// read by a lesson, critical_dimension said with its rule, and a model table's defaults as HF's
// config class gives them. Every expected number is worked out here in float64.
#include "LessonRead.h"
#include "support/TestMain.h"

#include "cli/Cli.h"

#include "check/ModelConfigCheck.h"
#include "check/models/LayerLessonNumbers.h"
#include "check/models/ModelTable.h"
#include "core/LessonNumbers.h"
#include "io/Lesson.h"
#include "io/Preset.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include <cmath>
#include <numbers>

namespace tst_lessonfollowsconfig {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A number in e-notation as a sentence shows it: "1e6", "1.235e5", "5.4e-5".
const QRegularExpression &eNotation()
{
    static const QRegularExpression pattern(u"(?<![\\w.])\\d+(\\.\\d+)?e[-+−]?\\d+(?!\\w)"_s);
    return pattern;
}

QStringList configs()
{
    QStringList files;
    for (const QString &dir : {u"%1"_s, u"%1/unseen"_s}) {
        const QDir d(dir.arg(QStringLiteral(POSENC_CONFIGS)));
        for (const QFileInfo &file : d.entryInfoList({u"*.json"_s}, QDir::Files, QDir::Name))
            files.append(file.absoluteFilePath());
    }
    return files;
}

struct CliRun
{
    int code = -1;
    QString out;
    QString err;
};

CliRun cli(const QStringList &arguments)
{
    CliRun run;
    QTextStream out(&run.out), err(&run.err);
    run.code = runCli(QStringList {u"posenc"_s} + arguments, out, err);
    out.flush();
    err.flush();
    return run;
}

// Liu et al. 2023: 2 ceil((r/2) log_theta(L0 / 2 pi)).
int liuCritical(int rotaryDim, double theta, double context)
{
    return 2 * int(std::ceil(rotaryDim / 2.0 * std::log(context / (2.0 * std::numbers::pi)) / std::log(theta)));
}

} // namespace

class TestLessonFollowsConfig : public QObject
{
    Q_OBJECT

private slots:
    void factorsInProse_data();
    void factorsInProse();
    void noLessonWritesENotation();
    void yarnsDefaultAttentionIsTheOneStated();
    void learnedPositionsConfigSaysWhatTheLessonNeeds_data();
    void learnedPositionsConfigSaysWhatTheLessonNeeds();
    void criticalDimensionSaysItsRule();
    void persimmonsDefaultsAreItsConfigClass();
    void biasCodeIsTheModelTablesWords_data();
    void biasCodeIsTheModelTablesWords();
};

void TestLessonFollowsConfig::factorsInProse_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    // Five digits, or those that tell the factor from 1, as the legends' factor() takes them.
    QTest::newRow("yarn at 40") << 0.1 * std::log(40.0) + 1.0 << u"1.3689"_s;
    QTest::newRow("near 1") << 1.0000005 << u"1.0000005"_s;
    QTest::newRow("thousands grouped") << 12345.6 << u"12,346"_s;
    QTest::newRow("a power of ten written out") << 12345.6 * 12345.6 << u"1.5241·10⁸"_s;
    QTest::newRow("small") << 5.4e-5 << u"5.4·10⁻⁵"_s;
}

void TestLessonFollowsConfig::factorsInProse()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(LessonNumbers::factor(value).text, text);
}

// Every lesson for every preset, every config of tests/data/configs and settings that are no
// round number (StarCoder2's rope_theta 999999.4420358813 read "θ = 1e6"): no number in
// e-notation in its text.
void TestLessonFollowsConfig::noLessonWritesENotation()
{
    QList<QStringList> readings;
    for (const Preset &preset : Presets::shipped().presets)
        readings.append({u"--preset"_s, preset.name});
    for (const QString &config : configs())
        readings.append({u"--config"_s, config});
    for (const QString &flag : {u"--rope-theta=123456.7"_s, u"--rope-factor=12345.67"_s,
                                u"--attention-factor=12345.6"_s, u"--base=12345.67"_s, u"--dropout=0.00005"_s}) {
        readings.append(QStringList {flag});
        readings.append(QStringList {u"--preset"_s, u"llama-3-1-8b"_s, flag});
    }
    QStringList found;
    int read = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const QStringList &arguments : readings) {
            const auto model = LessonRead::modelFor(lesson, arguments);
            if (!model)
                continue;
            ++read;
            for (const QString &item : LessonRead::itemsOf(lesson, *model)) {
                const QRegularExpressionMatch match = eNotation().match(item);
                if (match.hasMatch())
                    found.append(u"%1 %2: \"%3\" in: %4"_s.arg(lesson.name, arguments.join(u' '), match.captured(),
                                                               item.left(300)));
            }
        }
    }
    QVERIFY2(read > 500, qPrintable(u"only %1 readings applied"_s.arg(read)));
    QVERIFY2(found.isEmpty(), qPrintable(found.mid(0, 8).join(u"\n"_s)));
}

// The sentence "YaRN would multiply cos and sin by 0.1·ln f + 1 = X" states YaRN's default: a
// model's own attention_factor (12345.6 here) is not what 0.1·ln f + 1 gives.
void TestLessonFollowsConfig::yarnsDefaultAttentionIsTheOneStated()
{
    const Lesson *lesson = Lessons::find(u"rope-scaling"_s);
    QVERIFY(lesson);
    const auto r = LessonRead::readFor(*lesson, {u"--preset"_s, u"llama-3-1-8b"_s, u"--attention-factor=12345.6"_s});
    QCOMPARE(r.result.exitCode(), 0);
    QVERIFY(r.model.params.rope.factor);
    const double f = *r.model.params.rope.factor;
    const double attention = 0.1 * std::log(f) + 1.0;
    const QString text = LessonRead::textOf(*lesson, r);
    const QString stated = u"0.1·ln f + 1 = %1 at f = %2, every q·k by %3"_s.arg(
        QString::number(attention, 'f', 4), QString::number(f), QString::number(attention * attention, 'f', 4));
    QVERIFY2(text.contains(stated), qPrintable(u"expected \"%1\" in: %2"_s.arg(stated, text)));
}

void TestLessonFollowsConfig::learnedPositionsConfigSaysWhatTheLessonNeeds_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("needs");
    // Lessons of the sum, its dropout, √d and the batch's positions apply to a model of learned
    // positions, and read its table's rows; the others need another scheme.
    for (const char *name : {"dropout-on-sum", "masked-dropout", "left-padding", "packing", "what-dropout-does"})
        QTest::newRow(name) << QString::fromLatin1(name) << u"--position-table"_s;
    QTest::newRow("why-sqrt-d") << u"why-sqrt-d"_s << u"closed form"_s;
    QTest::newRow("rope-scaling") << u"rope-scaling"_s << u"RoPE"_s;
    QTest::newRow("alibi") << u"alibi"_s << u"ALiBi"_s;
}

void TestLessonFollowsConfig::learnedPositionsConfigSaysWhatTheLessonNeeds()
{
    QFETCH(QString, lesson);
    QFETCH(QString, needs);
    const Lesson *found = Lessons::find(lesson);
    QVERIFY(found);
    for (const QString &config : {u"gpt2.json"_s, u"bert-base-uncased.json"_s, u"unseen/opt-125m.json"_s}) {
        const auto r = LessonRead::readFor(*found, {u"--config"_s, QStringLiteral(POSENC_CONFIGS) + u'/' + config});
        const QStringList messages = r.result.messages();
        if (r.result.exitCode() == 0 && r.result.usage.isEmpty())
            continue; // it applies, and reads
        QCOMPARE(messages.size(), 1);
        QVERIFY2(!messages.first().contains(u'\n'), qPrintable(messages.first()));
        QVERIFY2(messages.first().contains(u"the lesson %1"_s.arg(lesson)), qPrintable(messages.first()));
        QVERIFY2(messages.first().contains(needs), qPrintable(messages.first()));
    }
}

// Vicuna 7B v1.5 16k: linear x4 over max_position_embeddings 4096, no original context. Its count is
// of the pairs as the model runs them (the first whose wavelength 4·2π·θ^(2i/r) passes 4096), and
// the line beside it says so, with Liu et al.'s count of the unscaled pairs at 4096.
void TestLessonFollowsConfig::criticalDimensionSaysItsRule()
{
    const CliRun run
        = cli({u"describe"_s, u"--config"_s, QStringLiteral(POSENC_CONFIGS) + u"/unseen/vicuna-7b-v1.5-16k.json"_s});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const double theta = 10000.0, context = 4096.0, factor = 4.0;
    const int r = 128;
    int pair = 0;
    while (pair < r / 2 && factor * 2.0 * std::numbers::pi * std::pow(theta, 2.0 * pair / r) <= context)
        ++pair;
    QVERIFY2(run.out.contains(u"critical_dimension: %1\n"_s.arg(2 * pair)), qPrintable(run.out));
    const QRegularExpression rule(u"critical_dimension_rule: ([^\n]*)"_s);
    const QRegularExpressionMatch match = rule.match(run.out);
    QVERIFY2(match.hasMatch(), qPrintable(run.out));
    QVERIFY2(match.captured(1).contains(u"max_len 4096"_s), qPrintable(match.captured(1)));
    QVERIFY2(match.captured(1).endsWith(u": %1"_s.arg(liuCritical(r, theta, context))), qPrintable(match.captured(1)));

    // A model that names its original context: Liu's count there, and the rule says so.
    const CliRun llama
        = cli({u"describe"_s, u"--config"_s, QStringLiteral(POSENC_CONFIGS) + u"/Meta-Llama-3.1-8B.json"_s});
    QVERIFY2(llama.code == 0, qPrintable(llama.err));
    QVERIFY2(llama.out.contains(u"critical_dimension: %1\n"_s.arg(liuCritical(128, 500000.0, 8192.0))),
             qPrintable(llama.out));
    QVERIFY2(llama.out.contains(u"at L0 = original_max_position_embeddings 8192"_s), qPrintable(llama.out));

    // As JSON, the rule is a string.
    const CliRun json = cli({u"describe"_s, u"--json"_s, u"--config"_s,
                             QStringLiteral(POSENC_CONFIGS) + u"/unseen/vicuna-7b-v1.5-16k.json"_s});
    QVERIFY2(json.code == 0, qPrintable(json.err));
    const QJsonObject object = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QVERIFY2(object.value(u"critical_dimension_rule"_s).isString(), qPrintable(json.out));
}

// adept/persimmon-8b-base's config.json (Hub SHA 94dc4e0b) names no partial_rotary_factor, and
// a config may name no rope_theta: PersimmonConfig's defaults are 0.5 and 25000.0
// (transformers models/persimmon/configuration_persimmon.py, PersimmonConfig.__init__).
void TestLessonFollowsConfig::persimmonsDefaultsAreItsConfigClass()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"config.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"architectures": ["PersimmonForCausalLM"], "model_type": "persimmon", "hidden_size": 4096,
        "num_attention_heads": 64, "num_hidden_layers": 36, "max_position_embeddings": 16384,
        "qk_layernorm": true, "rope_scaling": null})");
    file.close();
    const CliRun run = cli({u"check"_s, u"--config"_s, path, u"--json"_s});
    const QJsonObject object = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonObject layer = object.value(u"layers"_s).toArray().first().toObject();
    QCOMPARE(layer.value(u"rope_theta"_s).toDouble(), 25000.0);
    QCOMPARE(layer.value(u"head_dim"_s).toInt(), 4096 / 64);
    QCOMPARE(layer.value(u"rotary_dim"_s).toInt(), int(0.5 * 4096 / 64));
    // Where the rotary dim comes from: the class's share, not "the whole head".
    const QString source = layer.value(u"sources"_s).toObject().value(u"rotary_dim"_s).toString();
    QVERIFY2(source.contains(u"PersimmonConfig's partial_rotary_factor 0.5"_s), qPrintable(source));
    QVERIFY2(!source.contains(u"whole head"_s), qPrintable(source));
}

void TestLessonFollowsConfig::biasCodeIsTheModelTablesWords_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("type");
    QTest::newRow("bloom") << u"bloom-560m.json"_s << u"bloom"_s;
    QTest::newRow("mpt") << u"mpt-7b.json"_s << u"mpt"_s;
    QTest::newRow("t5") << u"t5-base.json"_s << u"t5"_s;
    QTest::newRow("deberta") << u"deberta-v3-base.json"_s << u"deberta-v2"_s;
}

// The ALiBi lesson's bias code is the model's row's "bias_code" (ModelSchemes.json), for a config and
// for the preset of the same model, and the row's "bias_flash" likewise: a new model needs a row.
void TestLessonFollowsConfig::biasCodeIsTheModelTablesWords()
{
    QFETCH(QString, config);
    QFETCH(QString, type);
    const ModelRow *row = ModelTable::find(type);
    QVERIFY(row);
    const QString code = row->raw.value(u"bias_code"_s).toString();
    QVERIFY2(!code.isEmpty(), qPrintable(type));
    const Lesson *lesson = Lessons::find(u"left-padding"_s);
    QVERIFY(lesson);
    QStringList readings {QStringLiteral(POSENC_CONFIGS) + u'/' + config};
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.source.contains(row->file))
            readings.append(preset.name);
    }
    for (const QString &reading : readings) {
        const bool isConfig = reading.endsWith(u".json"_s);
        const auto model = LessonRead::modelFor(*lesson, {isConfig ? u"--config"_s : u"--preset"_s, reading});
        QVERIFY2(model, qPrintable(reading));
        const auto number = LessonNumbers::number(u"bias_code"_s, *model, LayerLessonNumbers::entries());
        QVERIFY(number);
        QCOMPARE(number->text, code);
        if (const QString flash = row->raw.value(u"bias_flash"_s).toString(); !flash.isEmpty()) {
            const auto why = LessonNumbers::number(u"bias_flash"_s, *model, LayerLessonNumbers::entries());
            QVERIFY(why);
            QCOMPARE(why->text, flash);
        }
    }
}

POSENC_TEST_GUILESS_MAIN(TestLessonFollowsConfig)
} // namespace tst_lessonfollowsconfig
#include "tst_lessonfollowsconfig.moc"
