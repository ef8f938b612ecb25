// A model config drives every command as a preset does (--config FILE [--layer-type T]): for every
// real config of tests/data/configs, `export layer-stack` draws it and `table rope-cos --layer-type
// full_attention` writes the layer type's cos table (checked against float64 cos(p theta^(-2i/r)) for the default
// rope_type) or is refused naming why, `describe` prints the numbers `check --config` prints for the same layer type,
// and the window opens on a config given as its file.
#include "ConfigCheckRun.h"
#include "support/TestMain.h"

#include <QDir>
#include <QImage>
#include <QTest>

namespace tst_cliconfigdrives {
using namespace CliRun;
using namespace ConfigCheckRun;

namespace {

QStringList configNames()
{
    QStringList names;
    for (const QString &file : QDir(QStringLiteral(POSENC_CONFIGS)).entryList({u"*.json"_s}, QDir::Files))
        names.append(file.chopped(5));
    return names;
}

// The CSV table's rows, without its header: the first line, which names the columns.
QList<QList<double>> csvRows(const QString &text)
{
    QList<QList<double>> rows;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts).mid(1)) {
        QList<double> row;
        for (const QString &cell : line.split(u','))
            row.append(cell.toDouble());
        rows.append(row);
    }
    return rows;
}

} // namespace

class TestCliConfigDrives : public QObject
{
    Q_OBJECT

private slots:
    void tableOfEveryConfig_data();
    void tableOfEveryConfig();
    void layerStackOfEveryConfig_data();
    void layerStackOfEveryConfig();
    void describeIsTheCheckOfTheLayer_data();
    void describeIsTheCheckOfTheLayer();
    void flagsOverrideTheConfig();
    void refusals_data();
    void refusals();
    void windowOpensAConfigFile();
    void aTailTurnsTheHeadsLastColumns();
};

void TestCliConfigDrives::tableOfEveryConfig_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : configNames())
        QTest::newRow(qPrintable(name)) << name;
}

void TestCliConfigDrives::tableOfEveryConfig()
{
    QFETCH(QString, name);
    const Checked c = checkJson(fixture(name));
    const QJsonObject full = c.layer(u"full_attention"_s);
    const Run run = posenc({u"table"_s, u"rope-cos"_s, u"--config"_s, fixture(name), u"--layer-type"_s,
                            u"full_attention"_s, u"--max-len"_s, u"6"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s});
    if (full.isEmpty()) {
        // A config without full_attention layers names its own layer types.
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--layer-type: must be one of the config's layer types ("_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(c.layerTypes().constFirst()), qPrintable(run.err));
        return;
    }
    if (full.value(u"encoding"_s).toString() != u"rope"_s) {
        // NoPE full layers (Cohere2, EXAONE 4, Llama 4) and ALiBi's have no cos table: the message names them.
        QCOMPARE(run.exitCode, 2);
        const QString expected = u"rope-cos is not defined for the config's full_attention layers (encoding %1)"_s.arg(
            full.value(u"encoding"_s).toString());
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
        return;
    }
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QList<QList<double>> rows = csvRows(run.out);
    // HF's cos is rotary_dim wide (the columns that turn), whatever the head.
    const int rotary = full.value(u"rotary_dim"_s).toInt();
    QCOMPARE(rows.size(), 6);
    QCOMPARE(rows.first().size(), rotary);
    if (full.value(u"rope_type"_s).toString() != u"default"_s)
        return; // the scaled types' frequencies are tst_ropefrequencies'
    const double theta = full.value(u"rope_theta"_s).toDouble();
    const bool half = full.value(u"rope_layout"_s).toString() == u"half"_s;
    for (int p = 0; p < 6; ++p) {
        for (int j = 0; j < rotary; ++j) {
            // The pair of column j, as rotate_half or the interleaved layout pairs them.
            const int pair = half ? j % (rotary / 2) : j / 2;
            const double expected = std::cos(p * std::pow(theta, -2.0 * pair / rotary));
            QVERIFY2(std::abs(rows[p][j] - expected) < 1e-6, qPrintable(u"%1 p %2 j %3"_s.arg(name).arg(p).arg(j)));
        }
    }
}

void TestCliConfigDrives::layerStackOfEveryConfig_data()
{
    tableOfEveryConfig_data();
}

void TestCliConfigDrives::layerStackOfEveryConfig()
{
    // The layer stack draws the config itself, whatever its layers' families (a learned table
    // needs no file there).
    QFETCH(QString, name);
    QTemporaryDir dir;
    const QString png = dir.filePath(u"stack.png"_s);
    const Run run = posenc({u"export"_s, u"layer-stack"_s, u"--config"_s, fixture(name), u"-o"_s, png, u"--width"_s,
                            u"900"_s, u"--height"_s, u"600"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(QImage(png).size(), QSize(900, 600));
}

void TestCliConfigDrives::describeIsTheCheckOfTheLayer_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("layerType");
    QTest::newRow("Gemma 4 full") << u"gemma-4-31B-it"_s << u"full_attention"_s;
    QTest::newRow("Gemma 4 sliding") << u"gemma-4-31B-it"_s << u"sliding_attention"_s;
    QTest::newRow("Devstral") << u"Devstral-Small-2-24B-Instruct"_s << u"full_attention"_s;
    QTest::newRow("DeepSeek-V3") << u"DeepSeek-V3"_s << u"full_attention"_s;
    QTest::newRow("Qwen3-Next") << u"Qwen3-Next-80B-A3B-Instruct"_s << u"full_attention"_s;
    QTest::newRow("bloom") << u"bloom-560m"_s << u"full_attention"_s;
    QTest::newRow("T5 decoder") << u"t5-base"_s << u"decoder"_s;
    // Layers without position: their layers and scheme, no family's numbers.
    QTest::newRow("Llama 4 NoPE") << u"Llama-4-Scout-17B-16E"_s << u"full_attention"_s;
    QTest::newRow("Qwen3-Next linear") << u"Qwen3-Next-80B-A3B-Instruct"_s << u"linear_attention"_s;
}

void TestCliConfigDrives::describeIsTheCheckOfTheLayer()
{
    QFETCH(QString, name);
    QFETCH(QString, layerType);
    const Run run = posenc({u"describe"_s, u"--json"_s, u"--config"_s, fixture(name), u"--layer-type"_s, layerType});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject described = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonObject layer = checkJson(fixture(name)).layer(layerType);
    QVERIFY(!described.isEmpty());
    for (auto it = described.begin(); it != described.end(); ++it) {
        // The model's own softmax factor is the check's (Ministral 3 keeps head_dim^-0.5); describe
        // reads the parameters alone.
        if (it.key() == u"softmax_scale_factor"_s || it.key() == u"logit_scale"_s)
            continue;
        if (it.key() == u"format"_s || it.key() == u"version"_s) // describe's own envelope
            continue;
        QVERIFY2(layer.value(it.key()) == it.value(), qPrintable(name + u": "_s + it.key()));
    }
    // Every key check prints for the layer, in the same order: the layer type, its layers, the
    // config's values, the scheme (window, chunk, query scale) and the family's numbers.
    QStringList checked;
    for (const QString &line :
         posenc({u"check"_s, u"--config"_s, fixture(name), u"--layer-type"_s, layerType, u"--verbose"_s})
             .out.split(u'\n')) {
        const qsizetype colon = line.indexOf(u": "_s);
        if (colon > 0 && !line.startsWith(u' ') && !line.startsWith(u"findings"_s) && !line.startsWith(u"config"_s)
            && !line.startsWith(u"model_type"_s) && !line.startsWith(u"text model"_s) && !line.startsWith(u"? "_s))
            checked.append(line.left(colon));
    }
    checked.removeAll(u"described"_s);
    QStringList printed;
    for (const QString &line : posenc({u"describe"_s, u"--config"_s, fixture(name), u"--layer-type"_s, layerType})
                                   .out.split(u'\n', Qt::SkipEmptyParts))
        printed.append(line.left(line.indexOf(u": "_s)));
    QCOMPARE(printed, checked);
}

void TestCliConfigDrives::flagsOverrideTheConfig()
{
    // A parameter flag wins over the config's value, as over a preset's.
    const Run run
        = posenc({u"describe"_s, u"--json"_s, u"--config"_s, u"llama-4-scout"_s, u"--rope-theta"_s, u"10000"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject described = QJsonDocument::fromJson(run.out.toUtf8()).object();
    // Its llama3 scaling divides the slowest pair (wavelength past L0 / low = 8192) by 16.
    QCOMPARE(described.value(u"wavelength_max"_s).toDouble(), 2.0 * kPi * std::pow(10000.0, 126.0 / 128.0) * 16.0);
}

void TestCliConfigDrives::refusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString gpt2 = fixture(u"gpt2"_s);
    QTest::newRow("no such file") << QStringList {u"describe"_s, u"--config"_s, u"/nonexistent/config.json"_s} << 3
                                  << u"--config: /nonexistent/config.json"_s;
    QTest::newRow("no such layer type") << QStringList {u"describe"_s, u"--config"_s, gpt2, u"--layer-type"_s, u"x"_s}
                                        << 2 << u"--layer-type: must be one of the config's layer types (input)"_s;
    QTest::newRow("layer type alone") << QStringList {u"describe"_s, u"--layer-type"_s, u"x"_s} << 2
                                      << u"--layer-type: chooses a layer type of --config"_s;
    QTest::newRow("with a preset") << QStringList {u"table"_s, u"pe"_s,       u"--config"_s,
                                                   gpt2,       u"--preset"_s, u"transformer-base"_s,
                                                   u"-o"_s,    u"x.npy"_s}
                                   << 2 << u"--config, --preset: give one of them"_s;
}

void TestCliConfigDrives::refusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run run = posenc(arguments);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    QCOMPARE(run.err.count(u'\n'), 1);
}

void TestCliConfigDrives::windowOpensAConfigFile()
{
    QTemporaryDir dir;
    const QString png = dir.filePath(u"window.png"_s);
    const Run run
        = posenc({fixture(u"gemma-4-31B-it"_s), u"--screenshot"_s, png}, windowEnvironment(dir.filePath(u"c"_s)));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(!QImage(png).isNull());
}

// DeepSeek-V4 turns the last rope_dim columns of its 512-wide head (transformers'
// models/deepseek_v4/modular_deepseek_v4.py, apply_rotary_pos_emb: `nope, rope = x[..., :-rope_dim],
// x[..., -rope_dim:]`, rope turned by the interleaved rotate_half, cat([nope, rotated])): rope-input
// of its sliding layers (theta 10000, 64 of 512) against that formula on the embedding's rows.
void TestCliConfigDrives::aTailTurnsTheHeadsLastColumns()
{
    const QString v4 = QStringLiteral(POSENC_CONFIGS) + u"/heldin/DeepSeek-V4-Flash.json"_s;
    const auto table = [&](const QString &quantity) {
        const Run run = posenc({u"table"_s, quantity, u"--config"_s, v4, u"--layer-type"_s, u"sliding_attention"_s,
                                u"--max-len"_s, u"5"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s});
        if (run.exitCode != 0)
            qWarning("%s", qPrintable(run.err));
        return csvRows(run.out);
    };
    const QList<QList<double>> x = table(u"embedding"_s);
    const QList<QList<double>> out = table(u"rope-input"_s);
    QCOMPARE(out.size(), 5);
    QCOMPARE(out.first().size(), 512);
    constexpr int kHead = 512, kRotary = 64, kFirst = kHead - kRotary;
    for (int p = 0; p < 5; ++p) {
        for (int j = 0; j < kFirst; ++j)
            QCOMPARE(out[p][j], x[p][j]);
        for (int i = 0; i < kRotary / 2; ++i) {
            const double angle = p * std::pow(10000.0, -2.0 * i / kRotary);
            const double x1 = x[p][kFirst + 2 * i], x2 = x[p][kFirst + 2 * i + 1];
            const double tolerance = 1e-5 * (std::abs(x1) + std::abs(x2) + 1.0);
            QVERIFY(std::abs(out[p][kFirst + 2 * i] - (x1 * std::cos(angle) - x2 * std::sin(angle))) <= tolerance);
            QVERIFY(std::abs(out[p][kFirst + 2 * i + 1] - (x2 * std::cos(angle) + x1 * std::sin(angle))) <= tolerance);
        }
    }
}

POSENC_TEST_GUILESS_MAIN(TestCliConfigDrives)
} // namespace tst_cliconfigdrives
#include "tst_cliconfigdrives.moc"
