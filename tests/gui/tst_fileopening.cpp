// Files given to the window, as a file manager and a user's drag give them (posenc FILE, a drop
// on the window, File > Recent files): a session opens as File > Open session does; a matrix
// becomes the token embeddings or the learned position table as its name says ("wte", "wpe"),
// and where the name does not say, the window asks; the kind of a file is read from its first
// bytes before its extension; a file that is neither is refused with a message naming it.
#include "gui/ControlPanel.h"
#include "gui/FileOpening.h"
#include "gui/MainWindow.h"
#include "gui/MatrixLoader.h"
#include "gui/SessionController.h"
#include "gui/TableCheckDialog.h"
#include "support/TestMain.h"

#include "io/NpyWriter.h"
#include "io/SessionFile.h"

#include <QAbstractButton>
#include <QDropEvent>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <cmath>

#include <sys/stat.h>

namespace tst_fileopening {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// A small matrix of `rows` x `cols`, its cells 0.01 (i + j).
RowMatrixXf matrix(int rows, int cols)
{
    RowMatrixXf m(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            m(i, j) = 0.01f * float(i + j);
    return m;
}

void drop(QWidget &window, const QStringList &files)
{
    auto *data = new QMimeData;
    QList<QUrl> urls;
    for (const QString &file : files)
        urls.append(QUrl::fromLocalFile(file));
    data->setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropped(QPointF(10, 10), Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &dropped);
    QVERIFY(dropped.isAccepted());
    delete data;
}

} // namespace

class TestFileOpening : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void kindsByTheirBytesThenTheirNames();
    void namesSayWhatAMatrixIs_data();
    void namesSayWhatAMatrixIs();
    void aDroppedSessionOpensAsOpenSessionDoes();
    void aMatrixNamedWpeIsThePositionTable();
    void aMatrixWhoseNameDoesNotSayIsAskedAbout();
    void theAskedAboutMatrixCanBeChecked();
    void anUnknownFileIsRefusedNamingIt();

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestFileOpening::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestFileOpening::kindsByTheirBytesThenTheirNames()
{
    using FileOpening::Kind;
    // By their bytes, whatever their names.
    QVERIFY(!writeNpy(path(u"table.bin"_s), matrix(3, 4)));
    QCOMPARE(FileOpening::kindOf(path(u"table.bin"_s)), Kind::Matrix);
    QByteArray safetensors(8, '\0');
    safetensors[0] = 2;
    safetensors += "{}";
    QVERIFY(writeBytes(path(u"weights.dat"_s), safetensors));
    QCOMPARE(FileOpening::kindOf(path(u"weights.dat"_s)), Kind::Matrix);
    QVERIFY(!writeSession(path(u"lecture.txt"_s), Session::fromParams(Params {})));
    QCOMPARE(FileOpening::kindOf(path(u"lecture.txt"_s)), Kind::Session);
    // A session written by hand whose ninth byte is a brace is still a session.
    QVERIFY(writeBytes(path(u"compact"_s), R"({"view":{"layout":"1x1"},"format":"posenc-session","version":1})"));
    QCOMPARE(FileOpening::kindOf(path(u"compact"_s)), Kind::Session);
    // Bytes that say nothing, and files that are not there: their extensions.
    QVERIFY(writeBytes(path(u"broken.posenc"_s), "not json"));
    QCOMPARE(FileOpening::kindOf(path(u"broken.posenc"_s)), Kind::Session);
    QCOMPARE(FileOpening::kindOf(path(u"gone.safetensors"_s)), Kind::Matrix);
    QCOMPARE(FileOpening::kindOf(path(u"gone.NPY"_s)), Kind::Matrix);
    QVERIFY(writeBytes(path(u"notes.txt"_s), "hello"));
    QCOMPARE(FileOpening::kindOf(path(u"notes.txt"_s)), Kind::Unknown);
    // A model's config.json names its model; a table of text is checked.
    QVERIFY(writeBytes(path(u"config.json"_s), R"({"model_type": "llama", "rope_theta": 500000.0})"));
    QCOMPARE(FileOpening::kindOf(path(u"config.json"_s)), Kind::ModelConfig);
    QVERIFY(writeBytes(path(u"model.json"_s), "{\n  \"architectures\": [\"GPT2LMHeadModel\"]\n}"));
    QCOMPARE(FileOpening::kindOf(path(u"model.json"_s)), Kind::ModelConfig);
    QVERIFY(writeBytes(path(u"pe.csv"_s), "0,1\n0.8414709848,0.5403023059\n"));
    QCOMPARE(FileOpening::kindOf(path(u"pe.csv"_s)), Kind::CheckTable);
    // Before: a FIFO dropped on the window was opened to read its first bytes, which waits for a
    // writer: the window hung. Only a regular file is read; the readers refuse the rest by name.
    QCOMPARE(::mkfifo(qPrintable(path(u"pipe.npy"_s)), 0600), 0);
    QCOMPARE(FileOpening::kindOf(path(u"pipe.npy"_s)), Kind::Matrix);
}

void TestFileOpening::namesSayWhatAMatrixIs_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("table"); // 1 a position table, 0 embeddings, -1 it does not say
    QTest::newRow("GPT-2's wpe") << u"wpe.weight"_s << 1;
    QTest::newRow("BERT's positions") << u"bert.embeddings.position_embeddings.weight"_s << 1;
    QTest::newRow("GPT-2's wte") << u"wte.weight"_s << 0;
    QTest::newRow("BERT's words") << u"bert.embeddings.word_embeddings.weight"_s << 0;
    QTest::newRow("Llama's tokens") << u"model.embed_tokens.weight"_s << 0;
    QTest::newRow("GPT-NeoX's embed_in") << u"gpt_neox.embed_in.weight"_s << 0;
    QTest::newRow("a file name") << u"matrix"_s << -1;
    QTest::newRow("an embedding of its own") << u"my_embedding"_s << -1;
}

void TestFileOpening::namesSayWhatAMatrixIs()
{
    QFETCH(QString, name);
    QFETCH(int, table);
    const std::optional<bool> said = FileOpening::isPositionTable(name);
    QCOMPARE(said.has_value(), table >= 0);
    if (said)
        QCOMPARE(*said, table == 1);
}

void TestFileOpening::aDroppedSessionOpensAsOpenSessionDoes()
{
    Params saved;
    saved.dModel = 48;
    saved.maxLen = 96;
    saved.seed = 9;
    const QString file = path(u"lecture.posenc"_s);
    QVERIFY(!writeSession(file, Session::fromParams(saved)));
    QSettings settings(path(u"settings.ini"_s), QSettings::IniFormat);
    MainWindow window(Params {}, &settings);
    window.show();
    drop(window, {file});
    QTRY_COMPARE(window.controlPanel()->params().dModel, std::int64_t(48));
    QCOMPARE(window.controlPanel()->params().maxLen, std::int64_t(96));
    QCOMPARE(window.controlPanel()->params().seed, std::uint64_t(9));
    QCOMPARE(window.sessions()->recentSessions().value(0), file);
}

void TestFileOpening::aMatrixNamedWpeIsThePositionTable()
{
    const QString file = path(u"wpe.npy"_s);
    QVERIFY(!writeNpy(file, matrix(40, 16)));
    QSettings settings(path(u"settings.ini"_s), QSettings::IniFormat);
    MainWindow window(Params {}, &settings);
    window.show();
    window.openFile(file);
    QTRY_COMPARE(window.controlPanel()->params().encoding, Encoding::Learned);
    QTRY_VERIFY(!window.matrixLoader()->isLoading());
    QCOMPARE(window.controlPanel()->params().dModel, std::int64_t(16));
    QVERIFY(window.findChild<QMessageBox *>() == nullptr); // nothing asked
    // A recent file, which opens the same way again.
    QCOMPARE(window.sessions()->recentSessions().value(0), file);
}

void TestFileOpening::aMatrixWhoseNameDoesNotSayIsAskedAbout()
{
    for (const bool asTable : {false, true}) {
        const QString file = path(u"matrix.npy"_s);
        QVERIFY(!writeNpy(file, matrix(40, 24)));
        MainWindow window(Params {}, nullptr);
        window.show();
        drop(window, {file});
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"matrixRoleBox"_s)) != nullptr);
        QVERIFY2(box->text().contains(u"matrix.npy"_s), qPrintable(box->text()));
        auto *button
            = box->findChild<QAbstractButton *>(asTable ? u"asPositionTableButton"_s : u"asEmbeddingsButton"_s);
        QVERIFY(button);
        button->click();
        QTRY_COMPARE(window.controlPanel()->params().dModel, std::int64_t(24));
        QTRY_VERIFY(!window.matrixLoader()->isLoading());
        const Params &p = window.controlPanel()->params();
        QCOMPARE(p.encoding, asTable ? Encoding::Learned : Encoding::Sinusoidal);
        QCOMPARE(p.embeddings != nullptr, !asTable);
    }
    // Without a user to ask (a screenshot), it becomes the embeddings, and the status bar says so.
    const QString file = path(u"other.npy"_s);
    QVERIFY(!writeNpy(file, matrix(40, 20)));
    MainWindow window(Params {}, nullptr);
    window.show();
    window.openFile(file, false);
    QTRY_COMPARE(window.controlPanel()->params().dModel, std::int64_t(20));
    QVERIFY(window.controlPanel()->params().embeddings != nullptr);
    QVERIFY(window.findChild<QMessageBox *>(u"matrixRoleBox"_s) == nullptr);
}

// The question about a matrix offers a third answer: the user's own table of positions, checked
// as File > Check a table… checks it, the parameters untouched.
void TestFileOpening::theAskedAboutMatrixCanBeChecked()
{
    const QString file = path(u"my_pe.npy"_s);
    RowMatrixXf pe(64, 16);
    for (int p = 0; p < 64; ++p)
        for (int c = 0; c < 16; ++c) {
            const double w = std::exp(-2.0 * double(c / 2) * std::log(10000.0) / 16.0);
            pe(p, c) = float(c % 2 == 0 ? std::sin(p * w) : std::cos(p * w));
        }
    QVERIFY(!writeNpy(file, pe));
    MainWindow window(Params {}, nullptr);
    window.show();
    const Params before = window.controlPanel()->params();
    drop(window, {file});
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"matrixRoleBox"_s)) != nullptr);
    auto *check = box->findChild<QAbstractButton *>(u"checkThisTableButton"_s);
    QVERIFY(check);
    QVERIFY(!check->text().isEmpty());
    check->click();
    TableCheckDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<TableCheckDialog *>()) != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 60000);
    QVERIFY(dialog->match());
    QVERIFY(window.controlPanel()->params() == before);
    QVERIFY(!window.matrixLoader()->isLoading());
}

void TestFileOpening::anUnknownFileIsRefusedNamingIt()
{
    QVERIFY(writeBytes(path(u"notes.txt"_s), "hello"));
    MainWindow window(Params {}, nullptr);
    window.show();
    const Params before = window.controlPanel()->params();
    window.openFile(path(u"notes.txt"_s));
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = window.findChild<QMessageBox *>()) != nullptr);
    QVERIFY2(box->text().contains(path(u"notes.txt"_s)) && box->text().contains(u"neither a session"_s),
             qPrintable(box->text()));
    QCOMPARE(window.controlPanel()->params().dModel, before.dModel);
    delete box;
    window.openFile(path(u"nowhere"_s));
    QTRY_VERIFY((box = window.findChild<QMessageBox *>()) != nullptr);
    QVERIFY2(box->text().contains(u"no such file"_s), qPrintable(box->text()));
    delete box;
    // Before: "no such file" for a file that is there, a link that leads round to itself.
    QVERIFY(QFile::link(u"loop"_s, path(u"loop"_s)));
    window.openFile(path(u"loop"_s));
    QTRY_VERIFY((box = window.findChild<QMessageBox *>()) != nullptr);
    QVERIFY2(box->text().contains(u"a loop of symbolic links (loop -> loop)"_s), qPrintable(box->text()));
}

POSENC_TEST_MAIN(TestFileOpening)
} // namespace tst_fileopening
#include "tst_fileopening.moc"
