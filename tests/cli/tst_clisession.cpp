// --session FILE (docs/ARCHITECTURE.md, Command line): a session's parameters, with every flag given overriding
// them; a file that is not a session exits 3 naming the path and the reason, a bad value in it
// exits 2 naming the parameter and the file; no output file is left by a refused run.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace tst_clisession {
using namespace Qt::StringLiterals;
using namespace CliRun;

class TestCliSession : public QObject
{
    Q_OBJECT

private slots:
    void sessionGivesItsParameters();
    void flagsOverrideTheSession();
    void sessionCarriesEmbeddings();
    void refusedSession_data();
    void refusedSession();
    void sessionOnAFifoIsRefused();

private:
    QString write(const QString &name, const QByteArray &content)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
            return {};
        return f.fileName();
    }
    QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
};

static QByteArray session(const QByteArray &params)
{
    return R"({"format": "posenc-session", "version": 1, "params": {)" + params + "}}";
}

void TestCliSession::sessionGivesItsParameters()
{
    const QString s = write(u"split.json"_s, session(R"("d-model": "64", "max-len": "32", "layout": "split",
        "dropout": "0.25", "seed": "9")"));
    for (const QString &quantity : {u"pe"_s, u"output"_s}) {
        const QString a = path(u"a.npy"_s);
        const QString b = path(u"b.npy"_s);
        const Run fromSession = posenc({u"table"_s, quantity, u"--force"_s, u"-o"_s, a, u"--session"_s, s});
        QVERIFY2(fromSession.exitCode == 0, qPrintable(fromSession.err));
        const Run fromFlags
            = posenc({u"table"_s, quantity, u"--force"_s, u"-o"_s, b, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"32"_s,
                      u"--layout"_s, u"split"_s, u"--dropout"_s, u"0.25"_s, u"--seed"_s, u"9"_s});
        QVERIFY2(fromFlags.exitCode == 0, qPrintable(fromFlags.err));
        QCOMPARE(readNpy(a).cols, 64);
        QCOMPARE(readAll(a), readAll(b));
    }
}

void TestCliSession::flagsOverrideTheSession()
{
    const QString s = write(u"base.json"_s, session(R"("d-model": "64", "max-len": "32")"));
    const QString out = path(u"override.npy"_s);
    // Before or after --session, a flag wins over the file.
    for (const QStringList &order : {QStringList {u"--session"_s, s, u"--d-model"_s, u"16"_s},
                                     QStringList {u"--d-model"_s, u"16"_s, u"--session"_s, s}}) {
        const Run run = posenc(QStringList {u"table"_s, u"pe"_s, u"--force"_s, u"-o"_s, out} + order);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Table t = readNpy(out);
        QCOMPARE(t.rows, 32);
        QCOMPARE(t.cols, 16);
    }
}

void TestCliSession::sessionCarriesEmbeddings()
{
    const QString pe = path(u"matrix.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"--force"_s, u"-o"_s, pe, u"--d-model"_s, u"8"_s, u"--max-len"_s, u"20"_s})
                 .exitCode,
             0);
    const QString s = write(u"emb.json"_s, session(R"("embeddings": ")" + pe.toUtf8() + R"(", "tokens": "19,2",
        "scale": "1", "d-model": "8", "max-len": "2")"));
    const QString out = path(u"emb.npy"_s);
    const Run run = posenc({u"table"_s, u"embedding"_s, u"--force"_s, u"-o"_s, out, u"--session"_s, s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table source = readNpy(pe);
    const Table e = readNpy(out);
    QCOMPARE(e.rows, 2);
    QCOMPARE(e.cols, 8);
    for (qint64 c = 0; c < 8; ++c) {
        QCOMPARE(e.at(0, c), source.at(19, c));
        QCOMPARE(e.at(1, c), source.at(2, c));
    }
}

void TestCliSession::refusedSession_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("message");
    QTest::newRow("not JSON") << QByteArray("d-model: 512\n") << 3 << QStringList {u"not a session file: line 1"_s};
    QTest::newRow("newer version") << QByteArray(R"({"format": "posenc-session", "version": 7, "params": {}})") << 3
                                   << QStringList {u"session version 7 is not one this program reads"_s};
    QTest::newRow("unknown parameter") << session(R"("width": "3")") << 3
                                       << QStringList {u"\"width\" is not a parameter"_s};
    QTest::newRow("d_model out of range")
        << session(R"("d-model": "0")") << 2 << QStringList {u"--d-model"_s, u"(in "_s};
    QTest::newRow("dropout not a number")
        << session(R"("dropout": "lots")") << 2 << QStringList {u"--dropout"_s, u"(in "_s};
    QTest::newRow("missing embeddings file")
        << session(R"("embeddings": "/nonexistent/wte.npy")") << 3 << QStringList {u"/nonexistent/wte.npy"_s};
    // The audit: a raw NUL inside a value was taken, and cut it short ("1\0" "6" gave d 1).
    QTest::newRow("a raw NUL in a value") << QByteArray(R"({"format": "posenc-session", "version": 1, "params": )"
                                                        R"({"d-model": "1)"
                                                        "\0"
                                                        R"(6"}})",
                                                        72)
                                          << 3 << QStringList {u"a NUL byte"_s, u"line 1, column 68"_s};
    QTest::newRow("an escaped NUL in a value") << session(R"("d-model": "1\u00006")") << 3
                                               << QStringList {u"\"d-model\" holds the control character U+0000"_s};
    // The audit: an invalid lesson block was dropped without a word.
    const QByteArray views = R"(, "view": {"views": [{"figure": "heatmap"}]}, "lesson": )";
    QTest::newRow("a lesson named with capitals and a space")
        << QByteArray(R"({"format": "posenc-session", "version": 1, "params": {})" + views
                      + R"({"name": "Bad Name", "title": "T", "question": "Q", "explanation": "E", "main": 0}})")
        << 3 << QStringList {u"\"name\" must be lowercase words joined by '-', got \"Bad Name\""_s};
    QTest::newRow("a lesson whose main view is not there")
        << QByteArray(R"({"format": "posenc-session", "version": 1, "params": {})" + views
                      + R"({"name": "a", "title": "T", "question": "Q", "explanation": "E", "main": 99}})")
        << 3 << QStringList {u"\"main\" must be the index of a view"_s, u"(0 to 0); got 99"_s};
    QTest::newRow("a lesson that would load a file") << QByteArray(
        R"({"format": "posenc-session", "version": 1, "params": {})" + views
        + R"({"name": "a", "title": "T", "question": "Q", "explanation": "<img src=/dev/zero>", "main": 0}})")
                                                     << 3 << QStringList {u"uses <img src=/dev/zero>"_s};
}

void TestCliSession::refusedSession()
{
    QFETCH(QByteArray, content);
    QFETCH(int, exitCode);
    QFETCH(QStringList, message);
    const QString s = write(u"refused.json"_s, content);
    const QString out = path(u"refused.npy"_s);
    const Run run = posenc({u"table"_s, u"pe"_s, u"--force"_s, u"-o"_s, out, u"--session"_s, s});
    QCOMPARE(run.exitCode, exitCode);
    for (const QString &part : message)
        QVERIFY2(run.err.contains(part), qPrintable(run.err));
    if (!content.contains("embeddings")) // the message names the session file
        QVERIFY2(run.err.contains(s), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
    // The window refuses it the same way, before it needs a display.
    QProcessEnvironment noDisplay = QProcessEnvironment::systemEnvironment();
    for (const QString &name : {u"QT_QPA_PLATFORM"_s, u"DISPLAY"_s, u"WAYLAND_DISPLAY"_s})
        noDisplay.remove(name);
    const Run window = posenc({u"--session"_s, s}, noDisplay);
    QCOMPARE(window.exitCode, exitCode);
    for (const QString &part : message)
        QVERIFY2(window.err.contains(part), qPrintable(window.err));
}

// The audit: `--session` on a FIFO waited for a writer for ever, where `--embeddings` refuses
// what is not a regular file.
void TestCliSession::sessionOnAFifoIsRefused()
{
    const QString fifo = path(u"session.fifo"_s);
    QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString out = path(u"fifo.npy"_s);
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, out, u"--session"_s, fifo});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains(fifo + u": not a regular file"_s), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
}

POSENC_TEST_GUILESS_MAIN(TestCliSession)
} // namespace tst_clisession
#include "tst_clisession.moc"
