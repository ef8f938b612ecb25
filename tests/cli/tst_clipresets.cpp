// The presets on the command line, as users and scripts meet them: `posenc presets` lists each
// shipped preset, NAME<TAB>TITLE<TAB>SOURCE, NAME its file's name without the order; `--preset
// NAME` gives the window, `posenc export` and `posenc table` the same parameters as the preset's
// values typed out as flags (read here from the preset's file), every parameter flag given
// overriding them wherever it stands; a name that is not a preset exits 2 naming --preset and the
// presets, and --preset beside --session or --lesson exits 2.
#include "CliRun.h"
#include "support/TestFamily.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace tst_clipresets {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// The shipped preset files, in their order: ORDER-NAME.json, by the number ORDER (2 before 10).
QStringList presetFiles()
{
    QStringList files = QDir(QStringLiteral(POSENC_PRESETS)).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    std::stable_sort(files.begin(), files.end(), [](const QString &a, const QString &b) {
        return a.section(u'-', 0, 0).toInt() < b.section(u'-', 0, 0).toInt();
    });
    return files;
}

QString nameOf(const QString &file)
{
    static const QRegularExpression order(u"^[0-9]+-"_s);
    return QString(file).remove(order).chopped(5);
}

QJsonObject presetFile(const QString &file)
{
    QFile json(QStringLiteral(POSENC_PRESETS) + u"/"_s + file);
    if (!json.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(json.readAll()).object();
}

QByteArray bytesOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestCliPresets : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void listsEveryPreset();
    void aPresetGivesTheTableItsValues_data();
    void aPresetGivesTheTableItsValues();
    void flagsOverrideThePresetWhereverTheyStand();
    void aPresetGivesAFigureItsValues();
    void aPresetOpensTheWindowWithItsValues();
    void aValueThePresetGaveIsNamedWithIt();
    void aNameThatIsNotAPresetExitsTwoNamingThem();
    void aNameAsAModelCardWritesItIsThePreset();
    void aPresetGoesAloneWithASession();
    void theEncodingFlagOverridesThePresetsFamily();

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCliPresets::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestCliPresets::listsEveryPreset()
{
    const Run run = CliRun::posenc({u"presets"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
    const QStringList files = presetFiles();
    QCOMPARE(files.size(), 50);
    QCOMPARE(lines.size(), files.size());
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QStringList fields = lines[i].split(u'\t');
        QCOMPARE(fields.size(), 3);
        QCOMPARE(fields[0], nameOf(files[i]));
        const QJsonObject preset = presetFile(files[i]);
        QCOMPARE(fields[1], preset.value(u"title"_s).toString());
        QCOMPARE(fields[2], preset.value(u"cite"_s).toString());
    }
    QCOMPARE(lines.first().section(u'\t', 0, 0), u"transformer-base"_s);
    QCOMPARE(CliRun::posenc({u"presets"_s, u"--help"_s}).exitCode, 0);
    QCOMPARE(CliRun::posenc({u"presets"_s, u"extra"_s}).exitCode, 2);
    const QString help = CliRun::posenc({u"--help"_s}).out;
    QVERIFY(help.contains(u"posenc presets"_s) && help.contains(u"--preset NAME"_s));
    for (const QString &command : {u"export"_s, u"table"_s})
        QVERIFY2(CliRun::posenc({command, u"--help"_s}).out.contains(u"--preset NAME"_s), qPrintable(command));
}

void TestCliPresets::aPresetGivesTheTableItsValues_data()
{
    QTest::addColumn<QString>("file");
    for (const QString &file : presetFiles())
        QTest::newRow(qPrintable(nameOf(file))) << file;
}

void TestCliPresets::aPresetGivesTheTableItsValues()
{
    QFETCH(QString, file);
    // Small sizes keep the tables quick: the flags override the preset's.
    const QStringList small {u"--max-len"_s, u"40"_s, u"--seed"_s, u"11"_s};
    const QString byPreset = path(u"preset.npy"_s);
    const QString byFlags = path(u"flags.npy"_s);
    const Run run
        = CliRun::posenc(QStringList {u"table"_s, u"output"_s, u"-o"_s, byPreset, u"--preset"_s, nameOf(file)} + small);
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"output"_s, u"-o"_s, byFlags} + parameterFlags(presetFile(file))
                            + small)
                 .exitCode,
             0);
    QVERIFY(!bytesOf(byPreset).isEmpty());
    QCOMPARE(bytesOf(byPreset), bytesOf(byFlags));
}

void TestCliPresets::flagsOverrideThePresetWhereverTheyStand()
{
    const QJsonObject big = presetFile(presetFiles().at(1));
    QCOMPARE(big.value(u"params"_s).toObject().value(u"d-model"_s).toString(), u"1024"_s);
    const QString before = path(u"before.npy"_s);
    const QString after = path(u"after.npy"_s);
    const QString byFlags = path(u"flags.npy"_s);
    QCOMPARE(CliRun::posenc({u"table"_s, u"input"_s, u"-o"_s, before, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"30"_s,
                             u"--preset"_s, u"transformer-big"_s})
                 .exitCode,
             0);
    QCOMPARE(CliRun::posenc({u"table"_s, u"input"_s, u"--preset"_s, u"transformer-big"_s, u"-o"_s, after,
                             u"--max-len"_s, u"30"_s, u"--d-model"_s, u"64"_s})
                 .exitCode,
             0);
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, byFlags} + parameterFlags(big)
                            + QStringList {u"--d-model"_s, u"64"_s, u"--max-len"_s, u"30"_s})
                 .exitCode,
             0);
    const Table table = readNpy(before);
    QCOMPARE(table.rows, 30);
    QCOMPARE(table.cols, 64);
    QCOMPARE(bytesOf(before), bytesOf(byFlags));
    QCOMPARE(bytesOf(after), bytesOf(byFlags));
}

void TestCliPresets::aPresetGivesAFigureItsValues()
{
    const QString file = presetFiles().at(3); // the TensorFlow tutorial: the split layout
    QCOMPARE(nameOf(file), u"tensorflow-tutorial"_s);
    const QString byPreset = path(u"preset.png"_s);
    const QString byFlags = path(u"flags.png"_s);
    const QString plain = path(u"plain.png"_s);
    const QStringList figure {u"export"_s, u"heatmap"_s, u"--width"_s, u"640"_s, u"--height"_s, u"420"_s};
    const Run run = CliRun::posenc(figure + QStringList {u"--preset"_s, nameOf(file), u"-o"_s, byPreset});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    QCOMPARE(CliRun::posenc(figure + parameterFlags(presetFile(file)) + QStringList {u"-o"_s, byFlags}).exitCode, 0);
    QCOMPARE(CliRun::posenc(figure + QStringList {u"-o"_s, plain}).exitCode, 0);
    const QImage image(byPreset);
    QCOMPARE(image.size(), QSize(640, 420));
    QVERIFY(image == QImage(byFlags));
    QVERIFY(image != QImage(plain));
}

void TestCliPresets::aPresetOpensTheWindowWithItsValues()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    environment.insert(u"XDG_CONFIG_HOME"_s, path(u"config"_s));
    const QString file = presetFiles().at(2); // the Annotated Transformer: float32 angles, max_len 5000
    const QString byPreset = path(u"preset.png"_s);
    const QString byFlags = path(u"flags.png"_s);
    const QString plain = path(u"plain.png"_s);
    // A first start, whose window the next two remember.
    QCOMPARE(CliRun::posenc({u"--screenshot"_s, plain}, environment).exitCode, 0);
    QCOMPARE(CliRun::posenc({u"--preset"_s, nameOf(file), u"--screenshot"_s, byPreset}, environment).exitCode, 0);
    QCOMPARE(CliRun::posenc(parameterFlags(presetFile(file)) + QStringList {u"--screenshot"_s, byFlags}, environment)
                 .exitCode,
             0);
    const QImage image(byPreset);
    QVERIFY(!image.isNull());
    QVERIFY(image == QImage(byFlags));
    QVERIFY(image != QImage(plain));
}

void TestCliPresets::aValueThePresetGaveIsNamedWithIt()
{
    // A matrix of 64 columns fixes d_model at 64; the paper's preset says 512.
    const QString matrix = path(u"e.npy"_s);
    QCOMPARE(
        CliRun::posenc({u"table"_s, u"embedding"_s, u"-o"_s, matrix, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"20"_s})
            .exitCode,
        0);
    const Run fromPreset = CliRun::posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"x.npy"_s), u"--preset"_s,
                                           u"transformer-base"_s, u"--embeddings"_s, matrix});
    QCOMPARE(fromPreset.exitCode, 2);
    QVERIFY2(fromPreset.err.contains(u"--d-model"_s) && fromPreset.err.contains(u"(in the preset transformer-base)"_s),
             qPrintable(fromPreset.err));
    // The same value given as a flag is the user's: no preset is named.
    const Run fromFlag = CliRun::posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"x.npy"_s), u"--preset"_s,
                                         u"transformer-base"_s, u"--embeddings"_s, matrix, u"--d-model"_s, u"512"_s});
    QCOMPARE(fromFlag.exitCode, 2);
    QVERIFY2(fromFlag.err.contains(u"--d-model"_s) && !fromFlag.err.contains(u"(in the preset"_s),
             qPrintable(fromFlag.err));
    QVERIFY(!QFile::exists(path(u"x.npy"_s)));
}

void TestCliPresets::aNameThatIsNotAPresetExitsTwoNamingThem()
{
    // Refused before any screen is needed.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"QT_QPA_PLATFORM"_s);
    environment.remove(u"DISPLAY"_s);
    for (const QStringList &arguments :
         {QStringList {u"--preset"_s, u"no-such-preset"_s},
          QStringList {u"export"_s, u"heatmap"_s, u"--preset"_s, u"no-such-preset"_s, u"-o"_s, path(u"x.png"_s)},
          QStringList {u"table"_s, u"pe"_s, u"--preset"_s, u"no-such-preset"_s, u"-o"_s, path(u"x.npy"_s)}}) {
        const Run run = CliRun::posenc(arguments, environment);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--preset"_s) && run.err.contains(u"no-such-preset"_s), qPrintable(run.err));
        for (const QString &file : presetFiles())
            QVERIFY2(run.err.contains(nameOf(file)), qPrintable(run.err));
    }
    QVERIFY(!QFile::exists(path(u"x.png"_s)));
    QVERIFY(!QFile::exists(path(u"x.npy"_s)));
}

// "llama-3.1-8b" was refused beside the list holding llama-3-1-8b: a name as a model card writes it
// (case, dots, underscores, spaces) is the preset it names, and its table is that preset's, byte
// for byte; a name that differs in a letter or a digit is still refused.
void TestCliPresets::aNameAsAModelCardWritesItIsThePreset()
{
    const auto tableOf = [&](const QString &name, const QString &file) {
        const Run run = CliRun::posenc(
            {u"table"_s, u"rope-cos"_s, u"--preset"_s, name, u"--max-len"_s, u"16"_s, u"-o"_s, path(file)});
        QFile written(path(file));
        return std::pair {run, written.open(QIODevice::ReadOnly) ? written.readAll() : QByteArray()};
    };
    const auto [canonical, bytes] = tableOf(u"llama-3-1-8b"_s, u"canonical.npy"_s);
    QVERIFY2(canonical.exitCode == 0 && !bytes.isEmpty(), qPrintable(canonical.err));
    int i = 0;
    for (const QString &name : {u"Llama-3.1-8B"_s, u"llama_3_1_8b"_s, u"LLAMA 3.1 8b"_s, u"llama-3.1-8b"_s}) {
        const auto [run, written] = tableOf(name, u"written%1.npy"_s.arg(i++));
        QVERIFY2(run.exitCode == 0, qPrintable(name + u": "_s + run.err));
        QVERIFY2(written == bytes, qPrintable(name));
    }
    for (const QString &name : {u"llama-3-1-7b"_s, u"llama-31-8b"_s, u"..."_s}) {
        const auto [run, written] = tableOf(name, u"refused.npy"_s);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--preset"_s) && written.isEmpty(), qPrintable(name + u": "_s + run.err));
    }
}

// A preset beside a session is refused; beside a lesson it is the model the lesson is read for
// (tst_lessonmodels).
void TestCliPresets::aPresetGoesAloneWithASession()
{
    QFile session(path(u"s.json"_s));
    QVERIFY(session.open(QIODevice::WriteOnly));
    session.write(R"({"format": "posenc-session", "version": 1, "params": {"d-model": "32"}})");
    session.close();
    for (const QStringList &arguments :
         {QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"x.npy"_s), u"--session"_s, session.fileName(),
                       u"--preset"_s, u"transformer-base"_s},
          QStringList {u"--preset"_s, u"transformer-base"_s, u"--session"_s, session.fileName()}}) {
        const Run run = CliRun::posenc(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--preset"_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"--session"_s), qPrintable(run.err));
    }
    QVERIFY(!QFile::exists(path(u"x.npy"_s)));
    QVERIFY(!QFile::exists(path(u"x.png"_s)));
}

// Every preset names its family (the papers' sinusoidal, the models' rope); --encoding none over
// one leaves X = s·E, so the input table equals the embedding table cell for cell, and the PE is
// refused with exit 2.
void TestCliPresets::theEncodingFlagOverridesThePresetsFamily()
{
    QStringList listed;
    for (const QString &file : presetFiles()) {
        const QString family = presetFile(file).value(u"params"_s).toObject().value(u"encoding"_s).toString();
        // Each preset is its family's, as the family's record lists it (tests/families/<family>/),
        // and every record's preset is shipped.
        const QString name = nameOf(file);
        const TestFamily *owner = TestFamilies::ofPreset(name);
        QVERIFY2(owner, qPrintable(file + u": no family's record lists it"_s));
        QCOMPARE(family, owner->word);
        listed.append(name);
        // A model's config (read on huggingface.co or in a repository at a commit) is rotary, one of
        // the attention biases or a vision model's 2-D encoding, or a sinusoid of an audio encoder
        // (Whisper's) or of a diffusion model's timesteps (diffusers' get_timestep_embedding); the
        // papers' and libraries' presets are sinusoidal.
        const QString source = presetFile(file).value(u"source"_s).toString();
        const QString title = presetFile(file).value(u"title"_s).toString();
        const bool encoder = title.endsWith(u", encoder"_s) || title.contains(u"timestep embedding"_s);
        if (source.contains(u"huggingface.co"_s) || source.contains(u" @ "_s))
            QVERIFY2(encoder || family != u"sinusoidal"_s, qPrintable(file));
        else
            QVERIFY2(family == u"sinusoidal"_s, qPrintable(file));
    }
    for (const TestFamily &family : TestFamilies::all())
        for (const QString &name : family.presets)
            QVERIFY2(listed.contains(name), qPrintable(family.word + u"'s preset "_s + name + u" is not shipped"_s));
    // The bias families' presets give their tables: BLOOM's first head has the slope 2^-0.5.
    const Run bloom = CliRun::posenc({u"table"_s, u"alibi-slopes"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s,
                                      u"--preset"_s, u"bloom-560m"_s, u"--positions"_s, u"0:1"_s});
    QVERIFY2(bloom.exitCode == 0, qPrintable(bloom.err));
    QCOMPARE(bloom.out.split(u'\n', Qt::SkipEmptyParts).value(1), u"1,0.70710677,-0.5,0"_s);
    const QStringList small {u"--preset"_s, u"transformer-base"_s, u"--max-len"_s, u"30"_s, u"--d-model"_s,
                             u"32"_s,       u"--seed"_s,           u"4"_s};
    const QString input = path(u"input.npy"_s);
    const QString embedding = path(u"embedding.npy"_s);
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, input, u"--encoding"_s, u"none"_s} + small)
                 .exitCode,
             0);
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, embedding} + small).exitCode, 0);
    const Table x = readNpy(input);
    QCOMPARE(x.rows, 30);
    QCOMPARE(x.cols, 32);
    QCOMPARE(bytesOf(input), bytesOf(embedding));
    const Run pe = CliRun::posenc(
        QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"pe.npy"_s), u"--encoding"_s, u"none"_s} + small);
    QCOMPARE(pe.exitCode, 2);
    QVERIFY2(pe.err.contains(u"pe"_s) && pe.err.contains(u"none"_s), qPrintable(pe.err));
    QVERIFY(!QFile::exists(path(u"pe.npy"_s)));
}

POSENC_TEST_GUILESS_MAIN(TestCliPresets)
} // namespace tst_clipresets
#include "tst_clipresets.moc"
