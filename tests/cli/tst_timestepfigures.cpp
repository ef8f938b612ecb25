// The figures of a diffusion model's timestep embedding name its rows as its code does, timesteps t,
// not positions p (TitleText::rowIndex): every figure that draws the table's rows, alone and on the
// lessons' pages, read back from the SVG. Which presets are timestep embeddings is read from the
// presets' own titles ("SD 1.5 UNet timestep embedding (diffusers)"), not from the rule under test;
// the sinusoidal presets of text and audio models (Whisper's sines-first table of shift 1 is
// diffusers' default order too) keep "position p".
#include "CliRun.h"
#include "support/SvgTexts.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

namespace tst_timestepfigures {
using namespace Qt::StringLiterals;

namespace {

struct PresetFile
{
    QString name; // "sd-1-5-timestep", from "47-sd-1-5-timestep.json"
    bool timesteps = false; // its title calls it a timestep embedding
};

// Every sinusoidal preset, and whether its title names a timestep embedding.
QList<PresetFile> sinusoidalPresets()
{
    QList<PresetFile> presets;
    const QDir dir(QStringLiteral(POSENC_PRESETS));
    for (const QString &file : dir.entryList({u"*.json"_s}, QDir::Files, QDir::Name)) {
        QFile f(dir.filePath(file));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject preset = QJsonDocument::fromJson(f.readAll()).object();
        if (preset[u"params"_s][u"encoding"_s].toString() != u"sinusoidal"_s)
            continue;
        presets.append({file.section(u'-', 1).chopped(5),
                        preset[u"title"_s].toString().contains(u"timestep"_s, Qt::CaseInsensitive)});
    }
    return presets;
}

// The texts of the SVG `arguments` export to standard output, joined by newlines.
QString exportedTexts(const QStringList &arguments, QString *error)
{
    const CliRun::BinaryRun run
        = CliRun::posencBytes(arguments + QStringList {u"-o"_s, u"-"_s, u"--format"_s, u"svg"_s});
    if (run.exitCode != 0) {
        *error = run.err;
        return {};
    }
    const SvgTexts::Page page = SvgTexts::read(run.out);
    *error = page.error;
    QStringList texts;
    for (const SvgTexts::Text &text : page.texts)
        texts.append(text.text);
    return texts.join(u'\n');
}

} // namespace

class TestTimestepFigures : public QObject
{
    Q_OBJECT

private slots:
    void rowsNamedAsTheModelIndexesThem_data();
    void rowsNamedAsTheModelIndexesThem();
};

void TestTimestepFigures::rowsNamedAsTheModelIndexesThem_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("timesteps");
    // The figures that draw the table's rows, and the lessons whose pages such a table opens.
    const QStringList figures {u"heatmap"_s,         u"magnitudes"_s,     u"curves"_s,          u"similarity"_s,
                               u"precision"_s,       u"scale-compare"_s,  u"compose-compare"_s, u"dropout"_s,
                               u"dropout-compare"_s, u"dropout-anatomy"_s};
    const QStringList lessons {u"frequencies"_s, u"relative-position"_s, u"float32-precision"_s};
    const QList<PresetFile> presets = sinusoidalPresets();
    QVERIFY(std::count_if(presets.begin(), presets.end(), [](const PresetFile &p) { return p.timesteps; }) >= 4);
    for (const PresetFile &preset : presets) {
        // Every timestep preset; of the others, Whisper's (diffusers' default order) and the paper's.
        if (!preset.timesteps && preset.name != u"whisper-large-v3"_s && preset.name != u"transformer-base"_s)
            continue;
        for (const QString &figure : figures)
            QTest::addRow("%s %s", qPrintable(preset.name), qPrintable(figure))
                << QStringList {u"export"_s, figure, u"--preset"_s, preset.name} << preset.timesteps;
        for (const QString &lesson : lessons)
            QTest::addRow("%s lesson %s", qPrintable(preset.name), qPrintable(lesson))
                << QStringList {u"export"_s, u"--lesson"_s, lesson, u"--preset"_s, preset.name, u"--size"_s, u"slide"_s}
                << preset.timesteps;
    }
}

// A timestep preset's figures say "timestep" and never "position" (its axis "timestep t", its
// titles' counts "1,000 timesteps"); another sinusoid's keep "position p".
void TestTimestepFigures::rowsNamedAsTheModelIndexesThem()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, timesteps);
    QString error;
    const QString texts = exportedTexts(arguments, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(!texts.isEmpty());
    static const QRegularExpression position(u"\\bpositions?\\b"_s);
    if (timesteps) {
        const QRegularExpressionMatch said = position.match(texts);
        QVERIFY2(!said.hasMatch(), qPrintable(texts.mid(std::max<qsizetype>(0, said.capturedStart() - 60), 120)));
        QVERIFY2(texts.contains(u"timestep"_s), qPrintable(texts));
    } else {
        QVERIFY2(texts.contains(u"position"_s), qPrintable(texts));
        QVERIFY2(!texts.contains(u"timestep"_s), qPrintable(texts));
    }
}

POSENC_TEST_MAIN(TestTimestepFigures)
} // namespace tst_timestepfigures
#include "tst_timestepfigures.moc"
