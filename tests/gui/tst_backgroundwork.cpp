// One way to do background work (docs/ARCHITECTURE.md, "Background work"): figure data is never
// computed on the GUI thread, whatever the window does, nor are the magnitudes view's d points a
// graph copied there (its drawing's part made in the job, FigureDescriptor::prepare), and closing
// the window during a long load or a long export stops it instead of waiting for it. No assertion
// here is on time: these tests run on slow machines, under sanitizers and beside other tests.
#include "gui/ControlPanel.h"
#include "gui/EmbeddingsController.h"
#include "gui/ExportController.h"
#include "gui/FigureExportDialog.h"
#include "gui/FigureView.h"
#include "gui/MainWindow.h"
#include "gui/MatrixLoader.h"
#include "support/TestMain.h"

#include "io/NpyWriter.h"
#include "render/FigureDescriptor.h"
#include "render/FigureRegistry.h"
#include "render/LevelledGraph.h"
#include "render/figures/MagnitudesFigure.h"
#include "render/data/FigureModel.h"

#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include <QDir>
#include <QFileInfo>
#include <QMutex>
#include <QPointer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <optional>

namespace tst_backgroundwork {
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

// A figure's descriptor that says which thread prepared its drawing's part of each result, and
// keeps what it made of which data.
class WatchedDescriptor final : public FigureDescriptor
{
public:
    explicit WatchedDescriptor(const FigureDescriptor &figure)
        : m_figure(figure)
    { }
    const FigureModel &model() const override { return m_figure.model(); }
    std::unique_ptr<FigurePlot> build(QCustomPlot *plot) const override { return m_figure.build(plot); }
    std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data, const FigureRequest &request) const override
    {
        auto prepared = m_figure.prepare(data, request);
        const QMutexLocker lock(&m_mutex);
        m_onGuiThread += QThread::currentThread() == QCoreApplication::instance()->thread() ? 1 : 0;
        m_made.append({&data, prepared});
        return prepared;
    }
    int onGuiThread() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_onGuiThread;
    }
    std::shared_ptr<const PreparedDrawing> madeOf(const FigureData *data) const
    {
        const QMutexLocker lock(&m_mutex);
        for (const auto &[from, prepared] : m_made)
            if (from == data)
                return prepared;
        return nullptr;
    }

private:
    const FigureDescriptor &m_figure;
    mutable QMutex m_mutex;
    mutable int m_onGuiThread = 0;
    mutable QList<std::pair<const FigureData *, std::shared_ptr<const PreparedDrawing>>> m_made;
};

// The point containers of `plot`'s graphs of a series (more than the two points of a line at a
// level), in its order, and how many points the longest has.
QList<const void *> containers(QCustomPlot *plot, int *longest = nullptr)
{
    QList<const void *> out;
    for (int i = 0; i < plot->graphCount(); ++i) {
        // A graph drawn from levels of its points (LevelledGraph) holds them all too.
        const auto *levelled = dynamic_cast<const LevelledGraph *>(plot->graph(i));
        const QCPGraphDataContainer *points = levelled && levelled->levels() ? levelled->levels()->all.data()
                                                                            : plot->graph(i)->data().data();
        if (points->size() <= 2)
            continue;
        out.append(points);
        if (longest)
            *longest = std::max(*longest, int(points->size()));
    }
    return out;
}

} // namespace

class TestBackgroundWork : public QObject
{
    Q_OBJECT

private slots:
    void noFigureDataIsComputedOnTheGuiThread();
    void magnitudesPointsAreMadeInTheJob();
    void longCurvesAreDrawnFromLevelsMadeInTheJob();
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

// The magnitudes view at d 2^16: its column graphs' 65,536 points each were copied into QCustomPlot's
// containers on the GUI thread, 250-330 ms of its work at d 700,000. They are made in the job, and
// the graphs share them: a plot filled with the same data and what the job made of it holds the
// very containers the view's plot holds, and a plot filled without (an export) makes its own.
void TestBackgroundWork::magnitudesPointsAreMadeInTheJob()
{
    const WatchedDescriptor figure(*FigureRegistry::find(u"magnitudes"_s));
    Params p;
    p.dModel = 1 << 16;
    p.maxLen = 16;
    FigureView view(figure, false);
    view.resize(600, 400);
    QVERIFY(WindowFixture::shown(view));
    view.setParams(p);
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 120000);
    QVERIFY(view.data());
    QCOMPARE(figure.onGuiThread(), 0);
    const auto prepared = figure.madeOf(view.data().get());
    QVERIFY(prepared);
    int longest = 0;
    const QList<const void *> shown = containers(view.plot(), &longest);
    QCOMPARE(longest, 1 << 16);
    QCOMPARE(shown.size(), 7); // three per position, four per column

    QCustomPlot again;
    const auto plot = figure.build(&again);
    plot->setPrepared(prepared);
    plot->fill(view.data(), view.state());
    QCOMPARE(containers(&again), shown);
    QCustomPlot exported;
    const auto own = figure.build(&exported);
    own->fill(view.data(), view.state());
    const QList<const void *> made = containers(&exported);
    for (qsizetype i = 0; i < made.size(); ++i)
        QVERIFY(made[i] != shown[i]);
}

// The magnitudes view at d 1, L 2^24: its three curves of every position were drawn from all 2^24
// points at each replot (QCPGraph's adaptive sampling goes through each), 266 ms of the GUI thread.
// The job makes levels of them (LevelledPoints): at full view a curve is drawn from the least and
// the greatest of blocks of half a pixel or less, points of the series, each block's extremes
// kept; zoomed in far enough, from all of them.
void TestBackgroundWork::longCurvesAreDrawnFromLevelsMadeInTheJob()
{
    Params p;
    p.dModel = 1;
    p.maxLen = 1 << 20;
    FigureView view(*FigureRegistry::find(u"magnitudes"_s), false);
    view.resize(600, 400);
    QVERIFY(WindowFixture::shown(view));
    view.setParams(p);
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 120000);
    auto *figure = dynamic_cast<MagnitudesFigure *>(view.figurePlot());
    QVERIFY(figure);
    QCPAxis *positions = figure->positionRect()->axis(QCPAxis::atBottom);
    const double pixels = figure->positionRect()->width();
    int curves = 0;
    for (int i = 0; i < view.plot()->graphCount(); ++i) {
        const auto *graph = dynamic_cast<const LevelledGraph *>(view.plot()->graph(i));
        if (!graph || !graph->visible() || graph->keyAxis() != positions || !graph->levels())
            continue;
        const QCPGraphDataContainer &all = *graph->levels()->all;
        if (all.size() < p.maxLen - 1) // the ratio has no number at position 0 of a lone sine
            continue;
        ++curves;
        // Blocks of at most half a pixel, a level coarser than that over half a pixel: 2 to 32 points a pixel.
        QVERIFY2(graph->dataCount() <= 32 * pixels, qPrintable(QString::number(graph->dataCount())));
        QVERIFY(graph->dataCount() >= 2 * pixels);
        // Every point drawn is the series' own, and every block's least and greatest are drawn.
        const auto drawn = graph->data();
        const qsizetype block = qsizetype(std::llround(double(p.maxLen) / graph->dataCount())) * 2;
        for (auto it = drawn->constBegin(); it != drawn->constEnd(); ++it) {
            const auto at = all.findBegin(it->key, false);
            QVERIFY(at != all.constEnd() && at->key == it->key && at->value == it->value);
        }
        for (qsizetype start = 0; start < all.size(); start += all.size() / 7) {
            const qsizetype end = std::min<qsizetype>(all.size(), start + block / 2);
            double least = INFINITY, greatest = -INFINITY;
            for (qsizetype i = start; i < end; ++i) {
                least = std::min(least, (all.constBegin() + i)->value);
                greatest = std::max(greatest, (all.constBegin() + i)->value);
            }
            double drawnLeast = INFINITY, drawnGreatest = -INFINITY;
            for (auto it = drawn->findBegin(double(start) - block, false);
                 it != drawn->constEnd() && it->key < double(end) + block; ++it) {
                drawnLeast = std::min(drawnLeast, it->value);
                drawnGreatest = std::max(drawnGreatest, it->value);
            }
            QVERIFY(drawnLeast <= least && drawnGreatest >= greatest);
        }
        // Zoomed in to a point or so a pixel: every point.
        positions->setRange(1000.0, 1000.0 + pixels);
        QCOMPARE(graph->dataCount(), int(all.size()));
        positions->setRange(-0.5, double(p.maxLen) - 0.5);
    }
    QCOMPARE(curves, 3); // the norms of s·E and PE, and their ratio
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

POSENC_TEST_MAIN(TestBackgroundWork)
} // namespace tst_backgroundwork
#include "tst_backgroundwork.moc"
