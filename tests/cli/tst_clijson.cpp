// Every --json output is strict JSON (RFC 8259): no NaN, Infinity or inf literal, which Python's
// json.loads takes unless told not to and Qt's parser, used here, refuses. A value that is not a
// finite number is null, and --help says when a key is null. Each command that prints JSON is run
// on what its users give it: every family and preset for describe, every model config of
// tests/data/configs for check --config, tables of each kind for check, and the bench.
//
// Before: describe --json printed "band_high": -inf for --beta-slow 1e308, and check --config
// --json "band_low": inf for a yarn config with beta_fast 1e-308; both exited 0.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QTemporaryDir>

#include <cmath>

namespace tst_clijson {
using namespace Qt::StringLiterals;

namespace {

// The object `text` holds, or why it is not strict JSON.
QString strictJsonProblem(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return u"%1 at %2: ...%3..."_s.arg(error.errorString()).arg(error.offset).arg(text.mid(error.offset - 30, 60));
    if (!document.isObject())
        return u"not one object"_s;
    if (text.count(u'\n') != 1 || !text.endsWith(u'\n'))
        return u"not one line"_s;
    return {};
}

// A table of `rows` x `cols` float32 as a .npy file.
bool writeTable(const QString &path, qint64 rows, qint64 cols, double (*cell)(qint64, qint64))
{
    std::vector<float> values(std::size_t(rows * cols));
    for (qint64 p = 0; p < rows; ++p)
        for (qint64 j = 0; j < cols; ++j)
            values[std::size_t(p * cols + j)] = float(cell(p, j));
    return CliRun::writeNpy(path, rows, cols, values);
}

double paper(qint64 p, qint64 j)
{
    const double angle = double(p) * std::pow(10000.0, -2.0 * double(j / 2) / 64.0);
    return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

double noise(qint64 p, qint64 j)
{
    return std::sin(double(p * 7919 + j * 104729) * 1.618033988749895);
}

} // namespace

class TestCliJson : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void everyJsonOutputIsStrict_data();
    void everyJsonOutputIsStrict();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

void TestCliJson::everyJsonOutputIsStrict_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode"); // the JSON's, or 2 for a refusal (nothing printed)
    for (const QString &family : {u"rope"_s, u"alibi"_s, u"t5"_s, u"deberta"_s})
        QTest::newRow(qPrintable(u"describe "_s + family))
            << QStringList {u"describe"_s, u"--json"_s, u"--encoding"_s, family} << 0;
    const CliRun::Run presets = CliRun::posenc({u"presets"_s});
    for (const QString &line : presets.out.split(u'\n', Qt::SkipEmptyParts)) {
        const QString name = line.section(u'\t', 0, 0);
        QTest::newRow(qPrintable(u"describe --preset "_s + name))
            << QStringList {u"describe"_s, u"--json"_s, u"--preset"_s, name} << -1; // 0, or 2 for a sinusoid's
    }
    const QStringList yarn {u"describe"_s,           u"--json"_s, u"--encoding"_s,    u"rope"_s,
                            u"--rope-type"_s,        u"yarn"_s,   u"--rope-factor"_s, u"4"_s,
                            u"--original-max-len"_s, u"4096"_s};
    QTest::newRow("describe yarn, beta_slow 1e308") << yarn + QStringList {u"--beta-slow"_s, u"1e308"_s} << 2;
    QTest::newRow("describe yarn, beta_fast 1e-308") << yarn + QStringList {u"--beta-fast"_s, u"1e-308"_s} << 2;
    QTest::newRow("describe proportional, a frequency of 0") << QStringList {u"describe"_s,
                                                                             u"--json"_s,
                                                                             u"--encoding"_s,
                                                                             u"rope"_s,
                                                                             u"--rope-type"_s,
                                                                             u"proportional"_s,
                                                                             u"--head-dim"_s,
                                                                             u"64"_s,
                                                                             u"--d-model"_s,
                                                                             u"64"_s,
                                                                             u"--partial-rotary-factor"_s,
                                                                             u"0.07"_s}
                                                             << 0;
    QTest::newRow("describe longrope, original 1")
        << QStringList {u"describe"_s,      u"--json"_s,   u"--encoding"_s,         u"rope"_s,
                        u"--rope-type"_s,   u"longrope"_s, u"--head-dim"_s,         u"4"_s,
                        u"--rope-factor"_s, u"2"_s,        u"--original-max-len"_s, u"1"_s,
                        u"--max-len"_s,     u"8"_s,        u"--short-factor"_s,     u"1,1"_s,
                        u"--long-factor"_s, u"1,1"_s}
        << 2;
    QDir configs(QStringLiteral(POSENC_CONFIGS));
    for (const QString &name : configs.entryList({u"*.json"_s}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(u"check --config "_s + name))
            << QStringList {u"check"_s, u"--config"_s, configs.filePath(name), u"--json"_s} << -1; // 0 or 1
    QTest::newRow("check --config, yarn's beta_fast 1e-308")
        << QStringList {u"check"_s, u"--config"_s, u"yarn-beta.json"_s, u"--json"_s} << 2;
    QTest::newRow("check, a correct table") << QStringList {u"check"_s, u"pe.npy"_s, u"--json"_s} << 0;
    QTest::newRow("check, no table of positions") << QStringList {u"check"_s, u"noise.npy"_s, u"--json"_s} << 7;
    QTest::newRow("bench") << QStringList {u"bench"_s,     u"--json"_s, u"--kernels-only"_s, u"--repeats"_s, u"1"_s,
                                           u"--max-len"_s, u"256"_s,    u"--d-model"_s,      u"64"_s}
                           << 0;
}

void TestCliJson::everyJsonOutputIsStrict()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    // The files the rows name, written here.
    for (QString &argument : arguments) {
        if (argument == u"pe.npy"_s || argument == u"noise.npy"_s || argument == u"yarn-beta.json"_s)
            argument = path(argument);
    }
    if (!QFile::exists(path(u"pe.npy"_s))) {
        QVERIFY(writeTable(path(u"pe.npy"_s), 512, 64, paper));
        QVERIFY(writeTable(path(u"noise.npy"_s), 512, 64, noise));
        QFile config(path(u"yarn-beta.json"_s));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
            "max_position_embeddings": 16384, "rope_theta": 10000, "rope_scaling": {"rope_type": "yarn",
            "factor": 4, "original_max_position_embeddings": 4096, "beta_fast": 1e-308}})");
    }
    const CliRun::Run run = CliRun::posenc(arguments);
    if (exitCode == 2 || (exitCode < 0 && run.exitCode == 2)) {
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
        QCOMPARE(run.err.count(u'\n'), 1);
        return;
    }
    if (exitCode >= 0)
        QCOMPARE(run.exitCode, exitCode);
    else
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(run.err));
    const QString problem = strictJsonProblem(run.out);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

POSENC_TEST_GUILESS_MAIN(TestCliJson)
} // namespace tst_clijson
#include "tst_clijson.moc"
