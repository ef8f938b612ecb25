// posenc table, then posenc check, as a user runs them: every shipped preset's position tables, as
// its family's test record gives them (tests/families/<family>/: the PE, RoPE's cos and sin,
// ALiBi's and Sandwich's bias, T5's and DeBERTa's buckets, a vision model's 2-D sin-cos PE and 2-D
// RoPE cos and sin, a Qwen-VL model's M-RoPE cos and sin against its preset's prompt declared)
// written as .npy, and a causal ALiBi bias and T5's buckets as .csv, each identified as its
// preset's family with the verdict correct; a RoPE preset's table named as its model's. max_len is
// capped at 4096 in CI; POSENC_ROUNDTRIP_LONG=1 takes each preset's own, by hand.
#include "CliRun.h"
#include "support/Sanitizer.h"
#include "support/TestFamily.h"
#include "support/TestMain.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace tst_clicheckroundtrip {
using namespace Qt::StringLiterals;

namespace {

QJsonObject jsonOf(const CliRun::Run &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace

class TestCliCheckRoundTrip : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void presetTablesAreIdentified_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("quantity");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QStringList>("checkFlags");
        QTest::addColumn<bool>("positionRows");
        const QDir folder(QStringLiteral(POSENC_PRESETS));
        const QStringList files = folder.entryList({u"*.json"_s}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 20);
        for (const QString &file : files) {
            QFile f(folder.filePath(file));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
            const QString name = file.section(u'-', 1).chopped(5);
            const QJsonObject params = o[u"params"_s].toObject();
            const QString encoding = params[u"encoding"_s].toString(u"sinusoidal"_s);
            // The family's tables, by the quantity `posenc table` writes (its record's).
            const TestFamily *family = nullptr;
            for (const TestFamily &f : TestFamilies::all())
                if (f.word == encoding)
                    family = &f;
            QVERIFY2(family, qPrintable(file));
            const TestPresetTables &tables = family->presetTables;
            const QStringList quantities = TestFamilies::presetQuantities(*family);
            QVERIFY2(!quantities.isEmpty(), qPrintable(file + u": its family's record gives no tables"_s));
            for (const QString &quantity : quantities)
                QTest::addRow("%s %s", qPrintable(name), qPrintable(quantity))
                    << name << encoding << quantity << o[u"title"_s].toString()
                    << (tables.checkFlags ? tables.checkFlags(name, params) : QStringList {}) << tables.positionRows;
        }
    }
    void presetTablesAreIdentified()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(QString, preset);
        QFETCH(QString, encoding);
        QFETCH(QString, quantity);
        QFETCH(QStringList, checkFlags);
        QFETCH(bool, positionRows);
        const QString file = m_dir.filePath(u"%1-%2.npy"_s.arg(preset, quantity));
        QStringList table {u"table"_s, quantity, u"--preset"_s, preset, u"-o"_s, file, u"--quiet"_s};
        // A patch grid's tables have the grid's rows, whatever max_len.
        if (!qEnvironmentVariableIsSet("POSENC_ROUNDTRIP_LONG") && positionRows)
            table += {u"--max-len"_s, u"4096"_s};
        const CliRun::Run written = CliRun::posenc(table);
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
        // What the family's record says the check is told (RoPE's layout, M-RoPE's prompt).
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s, u"--quiet"_s} + checkFlags);
        const QJsonObject o = jsonOf(run);
        // Every preset's table is a published form, LongRoPE's factor lists included.
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(o[u"verdict"_s].toString(), u"correct"_s);
        QCOMPARE(o[u"family"_s].toString(), encoding);
        QCOMPARE(o[u"encoding"_s].toString(), quantity == u"pe"_s ? encoding : quantity);
        QVERIFY(QFile::remove(file));
    }

    // A model's RoPE, as its published form: the text names it.
    void ropePresetsAreNamed_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("length");
        QTest::newRow("DeepSeek-V3, yarn of amplitude 1") << u"deepseek-v3"_s << u"DeepSeek-V3"_s << u"2048"_s;
        QTest::newRow("Llama 4 Scout") << u"llama-4-scout"_s << u"Llama 4 Scout"_s << u"2048"_s;
        QTest::newRow("Gemma 3, linear at theta 1e6") << u"gemma-3-4b"_s << u"Gemma 3 4B"_s << u"2048"_s;
        QTest::newRow("Llama 3.2 1B") << u"llama-3-2-1b"_s << u"Llama 3.2 1B"_s << u"2048"_s;
        // LongRoPE: the short factors within the original 4096 positions, the long past them.
        QTest::newRow("Phi-3 mini 128k, short factors") << u"phi-3-mini-128k"_s << u"Phi-3 mini 128k"_s << u"2048"_s;
        QTest::newRow("Phi-3 mini 128k, long factors") << u"phi-3-mini-128k"_s << u"Phi-3 mini 128k"_s << u"8192"_s;
        // Phi-4 mini's short factors are all 1: the default type's frequencies at its amplitude.
        QTest::newRow("Phi-4 mini, short factors") << u"phi-4-mini"_s << u"Phi-4 mini"_s << u"2048"_s;
        QTest::newRow("Phi-4 mini, long factors") << u"phi-4-mini"_s << u"Phi-4 mini"_s << u"8192"_s;
        // Kimi K2's yarn has beta_fast = beta_slow = 1 and amplitude 1; Devstral Small 2's amplitude 1
        // although factor 48; DeepSeek-V3.2-Exp turns as DeepSeek-V3 does.
        QTest::newRow("Kimi K2, yarn without a blend") << u"kimi-k2"_s << u"Kimi K2"_s << u"2048"_s;
        QTest::newRow("Devstral Small 2, yarn of amplitude 1")
            << u"devstral-small-2"_s << u"Devstral Small 2"_s << u"2048"_s;
        QTest::newRow("DeepSeek-V3.2-Exp") << u"deepseek-v3-2-exp"_s << u"DeepSeek-V3.2-Exp"_s << u"2048"_s;
        QTest::newRow("Command R7B, interleaved at theta 50000") << u"command-r7b"_s << u"Command R7B"_s << u"2048"_s;
        QTest::newRow("GLM-4.5, half the head") << u"glm-4-5"_s << u"GLM-4.5"_s << u"2048"_s;
    }
    void ropePresetsAreNamed()
    {
        QFETCH(QString, preset);
        QFETCH(QString, model);
        QFETCH(QString, length);
        const QString file = m_dir.filePath(preset + u".npy"_s);
        QCOMPARE(CliRun::posenc({u"table"_s, u"rope-cos"_s, u"--preset"_s, preset, u"--max-len"_s, length, u"-o"_s,
                                 file, u"--quiet"_s})
                     .exitCode,
                 0);
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--quiet"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(u"verdict: correct"_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"note: the table of "_s) && run.out.contains(model), qPrintable(run.out));
        QVERIFY(!run.out.contains(u"attention-factor-missing"_s));
        QVERIFY(QFile::remove(file));
    }

    // A CSV holds a causal mask's -inf as "-inf": read and compared as the mask.
    void csvTablesAreIdentified_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("quantity");
        QTest::newRow("alibi causal") << QStringList {u"alibi-bias"_s, u"--encoding"_s, u"alibi"_s,
                                                      u"--max-len"_s,  u"200"_s,        u"--heads"_s,
                                                      u"12"_s,         u"--head"_s,     u"10"_s}
                                      << u"alibi-bias"_s;
        QTest::newRow("t5 causal") << QStringList {u"t5-bucket"_s,   u"--encoding"_s, u"t5"_s,
                                                   u"--t5-causal"_s, u"--max-len"_s,  u"300"_s}
                                   << u"t5-bucket"_s;
    }
    void csvTablesAreIdentified()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, quantity);
        const QString file = m_dir.filePath(quantity + u".csv"_s);
        QCOMPARE(
            CliRun::posenc(QStringList {u"table"_s} + arguments + QStringList {u"-o"_s, file, u"--quiet"_s}).exitCode,
            0);
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--json"_s, u"--quiet"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(jsonOf(run)[u"encoding"_s].toString(), quantity);
        QVERIFY(QFile::remove(file));
    }

private:
    QTemporaryDir m_dir;
};

POSENC_TEST_GUILESS_MAIN(TestCliCheckRoundTrip)
} // namespace tst_clicheckroundtrip
#include "tst_clicheckroundtrip.moc"
