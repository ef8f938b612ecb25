// One way to do background work (docs/ARCHITECTURE.md, "Background work"): figure data is never
// computed on the GUI thread, whatever the window does, and closing the window during a long
// load or a long export stops it instead of waiting for it. No assertion here is on time: these
// tests run on slow machines, under sanitizers and beside other tests.
#include "gui/ControlPanel.h"
#include "gui/EmbeddingsController.h"
#include "gui/ExportController.h"
#include "gui/FigureExportDialog.h"
#include "gui/MainWindow.h"
#include "gui/MatrixLoader.h"

#include "io/NpyWriter.h"
#include "render/FigureRegistry.h"
#include "render/data/FigureModel.h"

#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;

namespace {

Params small()
{
    Params p;
    p.dModel = 48;
    p.maxLen = 300;
    return p;
}

// Closes `window` (deleted on close) and waits for it to be gone.
void closeAndWait(QPointer<MainWindow> &window)
{
    window->close();
    while (window)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

// The bytes this process has read so far through read() and its kin, from any file and any
// thread: "rchar" in Linux's /proc/self/io, page cache included.
std::optional<qint64> bytesRead()
{
    QFile io(u"/proc/self/io"_s);
    if (!io.open(QIODevice::ReadOnly))
        return std::nullopt;
    for (const QByteArray &line : io.readAll().split('\n')) {
        if (line.startsWith("rchar:"))
            return line.mid(6).trimmed().toLongLong();
    }
    return std::nullopt;
}

} // namespace

class TestBackgroundWork : public QObject
{
    Q_OBJECT

private slots:
    void noFigureDataIsComputedOnTheGuiThread();
    void closingDuringALoadStopsTheRead();
    void closingDuringAnExportStopsIt();
};

void TestBackgroundWork::noFigureDataIsComputedOnTheGuiThread()
{
    const FigureModel::Computations before = FigureModel::computations();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    // Parameters, zoom, every figure in a view, an exported figure and exported data.
    window.controlPanel()->findChild<QSpinBox *>(u"dModelSpin"_s)->setValue(40);
    showRanges(heatmapView(window), {{u"columns"_s, QCPRange(2.5, 20.5)}, {u"positions"_s, QCPRange(9.5, 99.5)}});
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    FigureView *view = window.views().back();
    for (const FigureDescriptor *figure : FigureRegistry::all()) {
        view->setFigure(*figure);
        QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    }
    view->setFigure(*FigureRegistry::find(u"heatmap"_s));
    FigureExportDialog *dialog = window.exports()->openFigureDialog();
    QVERIFY(dialog);
    dialog->setPath(dir.filePath(u"figure.pdf"_s));
    QSignalSpy saved(dialog, &FigureExportDialog::saved);
    dialog->save();
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 60000);
    QSignalSpy written(window.exports(), &ExportController::dataSaved);
    window.exports()->exportData(heatmapView(window), dir.filePath(u"data.npy"_s));
    QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 60000);

    const FigureModel::Computations after = FigureModel::computations();
    QVERIFY2(after.total - before.total >= 10, qPrintable(QString::number(after.total - before.total)));
    QCOMPARE(after.onApplicationThread, before.onApplicationThread);
}

// The close does not wait for the read: the file, read whole if it did, is left mostly unread.
void TestBackgroundWork::closingDuringALoadStopsTheRead()
{
    // A GPT-2-sized token embedding matrix, 50257 x 768 float32 (147 MiB).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"wte.npy"_s);
    {
        RowMatrixXf matrix = RowMatrixXf::Constant(50257, 768, 0.25f);
        QVERIFY(!writeNpy(path, matrix));
    }
    QPointer<MainWindow> window = new MainWindow(small(), nullptr);
    window->setAttribute(Qt::WA_DeleteOnClose);
    QVERIFY(WindowFixture::shown(*window));
    QSignalSpy changed(window->embeddings(), &EmbeddingsController::embeddingsChanged);
    const std::optional<qint64> before = bytesRead();
    QVERIFY(before);
    window->embeddings()->load({path, std::nullopt}, false);
    QVERIFY(window->matrixLoader()->isLoading());
    closeAndWait(window);
    const qint64 read = *bytesRead() - *before;
    const qint64 size = QFileInfo(path).size();
    QVERIFY2(read < size / 4, qPrintable(u"%1 of the file's %2 bytes read"_s.arg(read).arg(size)));
    QCOMPARE(changed.count(), 0); // the read was stopped, never applied
}

// The close does not wait for the export: it is stopped, and its file is never written. The
// window closes in the same turn of the event loop as the save, while the export's first data is
// submitted: no wait on a clock decides whether the export is still going.
void TestBackgroundWork::closingDuringAnExportStopsIt()
{
    Params p;
    p.dModel = 2048;
    p.maxLen = 1 << 20;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QPointer<MainWindow> window = new MainWindow(p, nullptr);
    window->setAttribute(Qt::WA_DeleteOnClose);
    QVERIFY(WindowFixture::shown(*window));
    magnitudesView(*window)->plot()->setFocus();
    QTRY_COMPARE(window->exports()->currentView(), magnitudesView(*window));
    FigureExportDialog *dialog = window->exports()->openFigureDialog();
    QVERIFY(dialog);
    const QString path = dir.filePath(u"magnitudes.png"_s);
    dialog->setPath(path);
    QTRY_VERIFY_WITH_TIMEOUT(window->isSettled(), 120000);
    QPointer<FigureExportDialog> watched = dialog;
    dialog->save();
    QVERIFY(dialog->isExporting());
    closeAndWait(window);
    QVERIFY(!watched); // the dialog went with the window
    // Anything the export's workers still had in hand has been published and dropped by now.
    QTest::qWait(200);
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0); // no temporary file left
}

QTEST_MAIN(TestBackgroundWork)
#include "tst_backgroundwork.moc"
