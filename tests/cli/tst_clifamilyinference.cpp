// The family a command line means when it gives no --encoding (docs/ARCHITECTURE.md, Command line,
// "A family inferred"): a figure, a quantity or a family's flag that fits one family chooses it,
// and the run is the one --encoding would have given, byte for byte; an --encoding given (by a
// flag or a preset) stays; where several families fit, or none, the run exits 2 naming them.
// Before: each of these exited 2 asking for --encoding.
#include "CliRun.h"
#include "support/TestMain.h"

#include "support/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace tst_clifamilyinference {
using namespace Qt::StringLiterals;
using namespace CliRun;
using namespace TestFiles;

class TestCliFamilyInference : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theIssuesThreeCommands();
    void ropeCosOfTheThetaGiven();
    void aFamilysFlagChoosesIt_data();
    void aFamilysFlagChoosesIt();
    void aPositionTableChoosesLearned();
    void theEncodingGivenStays();
    void ambiguityNamesTheChoices_data();
    void ambiguityNamesTheChoices();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
};

void TestCliFamilyInference::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A learned table of 40 positions x 6, cell (p, c) = p + c / 10.
    std::vector<float> values;
    for (int p = 0; p < 40; ++p)
        for (int c = 0; c < 6; ++c)
            values.push_back(float(p) + float(c) / 10.0f);
    QVERIFY(writeNpy(path(u"learned.npy"_s), 40, 6, values));
}

// posenc export alibi-slopes -o a.png, posenc table rope-cos -o c.npy --rope-theta 500000 and
// posenc describe --rope-theta 500000, each what its --encoding gives.
void TestCliFamilyInference::theIssuesThreeCommands()
{
    const QList<std::pair<QStringList, QStringList>> runs {
        {{u"export"_s, u"alibi-slopes"_s, u"-o"_s, path(u"a.png"_s)}, {u"--encoding"_s, u"alibi"_s}},
        {{u"table"_s, u"rope-cos"_s, u"-o"_s, path(u"c.npy"_s), u"--rope-theta"_s, u"500000"_s},
         {u"--encoding"_s, u"rope"_s}},
    };
    for (const auto &[inferred, family] : runs) {
        const Run run = posenc(inferred);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.err.isEmpty());
        const QString file = inferred[3];
        const QByteArray bytes = readAll(file);
        QVERIFY(!bytes.isEmpty());
        QVERIFY(QFile::remove(file));
        QCOMPARE(posenc(inferred + family).exitCode, 0);
        QCOMPARE(readAll(file), bytes);
        QVERIFY(QFile::remove(file));
    }
    const Run described = posenc({u"describe"_s, u"--rope-theta"_s, u"500000"_s});
    QVERIFY2(described.exitCode == 0, qPrintable(described.err));
    QVERIFY(described.out.startsWith(u"rope_type: default\n"_s));
    QCOMPARE(described.out, posenc({u"describe"_s, u"--rope-theta"_s, u"500000"_s, u"--encoding"_s, u"rope"_s}).out);
}

// The table is RoPE's of the theta given: cos(p 500000^(-2i/128)), half layout (column c turns as
// pair c mod 64), against float64.
void TestCliFamilyInference::ropeCosOfTheThetaGiven()
{
    const QString file = path(u"cos.npy"_s);
    const Run run
        = posenc({u"table"_s, u"rope-cos"_s, u"-o"_s, file, u"--rope-theta"_s, u"500000"_s, u"--max-len"_s, u"300"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table t = readNpy(file);
    QCOMPARE(t.rows, qint64(300));
    QCOMPARE(t.cols, qint64(128));
    double worst = 0.0;
    for (qint64 p = 0; p < t.rows; ++p) {
        for (qint64 c = 0; c < t.cols; ++c) {
            const double theta = std::pow(500000.0, -2.0 * double(c % 64) / 128.0);
            worst = std::max(worst, std::abs(double(t.at(p, c)) - std::cos(double(p) * theta)));
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
    QVERIFY(QFile::remove(file));
}

void TestCliFamilyInference::aFamilysFlagChoosesIt_data()
{
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("family");
    QTest::newRow("--heads: alibi") << QStringList {u"--heads"_s, u"12"_s, u"--head"_s, u"9"_s} << u"alibi"_s;
    QTest::newRow("--t5-causal: t5") << QStringList {u"--t5-causal"_s} << u"t5"_s;
    QTest::newRow("--deberta-buckets: deberta") << QStringList {u"--deberta-buckets"_s, u"128"_s} << u"deberta"_s;
    QTest::newRow("--rope-type: rope") << QStringList {u"--rope-type"_s, u"linear"_s, u"--rope-factor"_s, u"4"_s}
                                       << u"rope"_s;
}

void TestCliFamilyInference::aFamilysFlagChoosesIt()
{
    QFETCH(QStringList, flags);
    QFETCH(QString, family);
    const Run inferred = posenc(QStringList {u"describe"_s} + flags);
    QVERIFY2(inferred.exitCode == 0, qPrintable(inferred.err));
    QCOMPARE(inferred.out, posenc(QStringList {u"describe"_s, u"--encoding"_s, family} + flags).out);
}

// A table read with --position-table is the learned family's: its rows are the position term.
void TestCliFamilyInference::aPositionTableChoosesLearned()
{
    const QString pe = path(u"pe.npy"_s);
    const Run learned = posenc({u"table"_s, u"pe"_s, u"-o"_s, pe, u"--position-table"_s, path(u"learned.npy"_s)});
    QVERIFY2(learned.exitCode == 0, qPrintable(learned.err));
    const Table t = readNpy(pe);
    QCOMPARE(t.rows, qint64(40));
    QCOMPARE(t.at(7, 3), 7.3f);
    QVERIFY(QFile::remove(pe));
}

// A family named, by --encoding or by a preset, is kept: another family's flag is then idle.
void TestCliFamilyInference::theEncodingGivenStays()
{
    const QString a = path(u"given.npy"_s);
    const QString b = path(u"plain.npy"_s);
    const QStringList small {u"--d-model"_s, u"16"_s, u"--max-len"_s, u"20"_s};
    QCOMPARE(
        posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, a, u"--encoding"_s, u"sinusoidal"_s, u"--heads"_s, u"12"_s}
               + small)
            .exitCode,
        0);
    QCOMPARE(posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, b} + small).exitCode, 0);
    QCOMPARE(readAll(a), readAll(b));
    const Run preset = posenc({u"describe"_s, u"--preset"_s, u"llama-3-1-8b"_s, u"--heads"_s, u"3"_s});
    QVERIFY2(preset.exitCode == 0, qPrintable(preset.err));
    QVERIFY(preset.out.startsWith(u"rope_type: llama3\n"_s));
    QFile::remove(a);
    QFile::remove(b);
}

void TestCliFamilyInference::ambiguityNamesTheChoices_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("named");
    QTest::newRow("buckets: t5 or deberta") << QStringList {u"export"_s, u"buckets"_s, u"-o"_s, path(u"b.png"_s)}
                                            << QStringList {u"--encoding t5"_s, u"--encoding deberta"_s};
    QTest::newRow("describe alone") << QStringList {u"describe"_s}
                                    << QStringList {u"posenc describe needs one family"_s, u"--encoding rope"_s,
                                                    u"--encoding alibi"_s, u"--encoding t5"_s, u"--encoding deberta"_s};
    QTest::newRow("pe with a RoPE flag: no family")
        << QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"p.npy"_s), u"--rope-theta"_s, u"500000"_s}
        << QStringList {u"--rope-theta (rope, mrope or rope-2d)"_s,
                        u"QUANTITY pe (sinusoidal, learned or sincos-2d)"_s};
    QTest::newRow("t5's table with ALiBi's heads")
        << QStringList {u"table"_s, u"t5-bucket"_s, u"-o"_s, path(u"t.npy"_s), u"--heads"_s, u"4"_s}
        << QStringList {u"--heads (alibi)"_s, u"QUANTITY t5-bucket (t5)"_s};
    QTest::newRow("alibi's figure with RoPE's theta")
        << QStringList {u"export"_s, u"alibi-slopes"_s, u"-o"_s, path(u"s.png"_s), u"--rope-theta"_s, u"5e5"_s}
        << QStringList {u"FIGURE alibi-slopes (alibi)"_s, u"--rope-theta (rope, mrope or rope-2d)"_s};
}

void TestCliFamilyInference::ambiguityNamesTheChoices()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, named);
    const Run run = posenc(arguments);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err.count(u'\n'), 1);
    QVERIFY2(run.err.contains(u"--encoding: "_s), qPrintable(run.err));
    for (const QString &part : named)
        QVERIFY2(run.err.contains(part), qPrintable(u"'%1' not in: %2"_s.arg(part, run.err)));
    QVERIFY(run.out.isEmpty());
    QCOMPARE(QDir(m_dir.path()).entryList({u"*.png"_s, u"*.npy"_s}, QDir::Files), QStringList {u"learned.npy"_s});
}

POSENC_TEST_GUILESS_MAIN(TestCliFamilyInference)
} // namespace tst_clifamilyinference
#include "tst_clifamilyinference.moc"
