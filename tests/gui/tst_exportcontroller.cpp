// The window's figures and data out: Copy figure (Ctrl+C on a focused plot, never in a text
// field), Export figure (Ctrl+E), Export data (the table of what a view shows, as `posenc
// table` writes it), with the overwrite question, unwritable paths and the memory budget.
#include "gui/Dashboard.h"
#include "gui/ExportController.h"
#include "gui/FigureExportDialog.h"
#include "gui/MainWindow.h"
#include "gui/WriteDialogs.h"
#include "support/TestMain.h"

#include "../core/Reference.h"

#include "io/NpyWriter.h"
#include "render/FigureExporter.h"

#include "support/FigureBuilds.h"
#include "support/MessageBoxes.h"
#include "support/TestFiles.h"
#include "support/TestShots.h"
#include "support/WindowViews.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace tst_exportcontroller {
using namespace Qt::StringLiterals;
using namespace TestFiles;
using namespace MessageBoxes;
using namespace posenc;
using namespace WindowViews;

namespace {

Params params()
{
    Params p;
    p.dModel = 48;
    p.maxLen = 400;
    p.dropout = 0.25;
    return p;
}

// The .npy bytes of `block` of `quantity`, only `dims` when given, made here with the engine and
// the writer (what `posenc table QUANTITY --positions A:B --dims LIST` writes).
QByteArray expectedNpy(const QString &path, Quantity quantity, const Block &block, const std::vector<int> &dims = {})
{
    const Engine engine(params());
    RowMatrixXf table(block.rows, block.cols);
    engine.computeBlock(quantity, block, table);
    RowMatrixXf out = table;
    if (!dims.empty()) {
        out.resize(block.rows, static_cast<Eigen::Index>(dims.size()));
        for (std::size_t i = 0; i < dims.size(); ++i)
            out.col(static_cast<Eigen::Index>(i)) = table.col(dims[i] - block.col0);
    }
    if (writeNpy(path, out))
        return {};
    return readAll(path);
}

// The float32 values of a C-order .npy of shape (rows, cols) as written by writeNpy.
std::optional<RowMatrixXf> readNpy(const QByteArray &bytes, int rows, int cols)
{
    const qsizetype data = bytes.size() - qsizetype(rows) * cols * 4;
    if (data <= 0 || !bytes.startsWith("\x93NUMPY"))
        return std::nullopt;
    RowMatrixXf m(rows, cols);
    std::memcpy(m.data(), bytes.constData() + data, std::size_t(rows) * cols * 4);
    return m;
}

// An item of a plot that counts the times it is drawn: a layer drawn again draws it.
class CountedDraws : public QCPAbstractItem
{
public:
    explicit CountedDraws(QCustomPlot *plot)
        : QCPAbstractItem(plot)
    {
        setClipToAxisRect(false);
    }
    double selectTest(const QPointF &, bool, QVariant * = nullptr) const override { return -1.0; }
    int draws = 0;

protected:
    void draw(QCPPainter *) override { ++draws; }
};

} // namespace

class TestExportController : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void ctrlCOnAFocusedPlotCopiesItsPixels();
    void copyFigureDrawsNothingAgain();
    void ctrlCInATextFieldStillCopiesText();
    void ctrlEOpensTheExportDialogOnTheFocusedView();
    void aHiddenFocusedViewIsNotTheCurrentOne();
    void loadEmbeddingsMovedToCtrlL();
    void heatmapDataIsTheTableInView();
    void curvesDataIsTheDrawnColumnsAtIntegerPositions();
    void magnitudesDataIsTheNormsPerPosition();
    void csvFollowsTheExtension();
    void dataOverwriteNoKeepsYesReplaces();
    void dataToAnUnwritablePathShowsPathAndReason();
    void dataOverTheMemoryBudgetIsRefused();

private:
    std::unique_ptr<MainWindow> m_window;
};

void TestExportController::init()
{
    m_window = std::make_unique<MainWindow>(params(), nullptr);
    // The window's default size, whatever the test screen (400 x 300 at QT_SCALE_FACTOR=2): the
    // views are copied and exported at a size a user has.
    m_window->resize(MainWindow::kDefaultSize);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestExportController::cleanup()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (qobject_cast<QMessageBox *>(w))
            w->close();
    }
    m_window.reset();
}

void TestExportController::ctrlCOnAFocusedPlotCopiesItsPixels()
{
    FigureView *view = heatmapView(*m_window);
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    QApplication::clipboard()->clear();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::mouseClick(view->plot(), Qt::LeftButton, {}, QPoint(view->plot()->width() / 2, 30));
    QTRY_VERIFY(view->plot()->hasFocus());
    // For a look at the focus frame around the plot.
    TestShots::save(m_window->grab(), u"posenc-focused-plot"_s);
    QCOMPARE(m_window->exports()->currentView(), view);
    QSignalSpy copied(m_window->exports(), &ExportController::figureCopied);
    QTest::keyClick(view->plot(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(copied.count(), 1);
    const QImage image = QApplication::clipboard()->image();
    const double ratio = view->plot()->devicePixelRatioF();
    // tst_exportcontroller_dpr2 runs this at QT_SCALE_FACTOR=2: a high-DPI screen.
    if (qEnvironmentVariableIsSet("QT_SCALE_FACTOR"))
        QCOMPARE(ratio, qEnvironmentVariable("QT_SCALE_FACTOR").toDouble());
    QCOMPARE(image.size(), view->plot()->size() * ratio);
    const QImage copy = image.convertToFormat(QImage::Format_ARGB32);
    // The figure the exporter draws of this view at its size, pixel for pixel.
    // At the screen's device pixel ratio (2 when run with QT_SCALE_FACTOR=2).
    FigureSize size = FigureSize::fromPixels(view->plot()->size());
    size.scale = ratio;
    const auto built = FigureBuilds::build(u"heatmap"_s, view->params(), size, view->state());
    QVERIFY(!built->error());
    QVERIFY(FigureExporter::image(built->plot(), size).convertToFormat(QImage::Format_ARGB32) == copy);
    // And the screen's own paint, grabbed, pixel for pixel too: its hairlines as wide as a file's
    // (at QT_SCALE_FACTOR=2 they were one device pixel against the copy's two, a colour bar's
    // frame 1,554 pixels apart) and its tick labels drawn, not from pixmaps cached at whole pixels.
    const QImage screen = view->plot()->grab().toImage().convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(screen.size(), copy.size());
    qsizetype differ = 0;
    for (int y = 0; y < copy.height(); ++y)
        for (int x = 0; x < copy.width(); ++x)
            differ += copy.pixel(x, y) != screen.pixel(x, y);
    QVERIFY2(differ == 0, qPrintable(QString::number(differ)));
}

// Copy figure copies the paint buffers the screen shows: drawing every layer again at full
// resolution (QCustomPlot::toPixmap) took 202 ms of the GUI thread for a large figure, for the
// same pixels.
void TestExportController::copyFigureDrawsNothingAgain()
{
    FigureView *view = curvesView(*m_window);
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    auto *counted = new CountedDraws(view->plot());
    view->plot()->replot();
    QCOMPARE(counted->draws, 1);
    QApplication::clipboard()->clear();
    view->plot()->setFocus(Qt::MouseFocusReason);
    QTRY_COMPARE(m_window->exports()->currentView(), view);
    QSignalSpy copied(m_window->exports(), &ExportController::figureCopied);
    m_window->exports()->copyFigureAction()->trigger();
    QCOMPARE(copied.count(), 1);
    QCOMPARE(counted->draws, 1);
    const QImage copy = QApplication::clipboard()->image().convertToFormat(QImage::Format_ARGB32);
    const QImage screen = view->plot()->grab().toImage().convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(copy.size(), screen.size());
    QVERIFY(copy == screen);
    // A replot on its way when the figure is copied is made first: the copy is never a stale one.
    view->plot()->replot(QCustomPlot::rpQueuedReplot);
    m_window->exports()->copyFigureAction()->trigger();
    QCOMPARE(counted->draws, 2);
}

void TestExportController::ctrlCInATextFieldStillCopiesText()
{
    auto *edit = curvesView(*m_window)->findChild<QLineEdit *>(u"dimsEdit"_s);
    QVERIFY(edit);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    // A plot had the focus before: the field's copy must still win.
    heatmapView(*m_window)->plot()->setFocus();
    edit->setText(u"0,1,7"_s);
    edit->setFocus();
    edit->selectAll();
    QApplication::clipboard()->setText(u"before"_s);
    QSignalSpy copied(m_window->exports(), &ExportController::figureCopied);
    QTest::keyClick(edit, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), u"0,1,7"_s);
    QCOMPARE(copied.count(), 0);
}

void TestExportController::ctrlEOpensTheExportDialogOnTheFocusedView()
{
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    FigureView *curves = curvesView(*m_window);
    curves->plot()->setFocus(Qt::MouseFocusReason);
    QTRY_COMPARE(m_window->exports()->currentView(), curves);
    QTest::keyClick(m_window.get(), Qt::Key_E, Qt::ControlModifier);
    FigureExportDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<FigureExportDialog *>()) && dialog->isVisible());
    QCOMPARE(dialog->source().figure->name(), u"curves"_s);
    QVERIFY(dialog->path().endsWith(u"curves.png"_s));
    dialog->reject();
}

// Copy figure in the Edit menu copied the view focused last even after the arrangement hid it:
// an image of a figure no longer on screen, at a stale size.
void TestExportController::aHiddenFocusedViewIsNotTheCurrentOne()
{
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    Dashboard *dashboard = m_window->dashboard();
    dashboard->setArrangement(Dashboard::Arrangement::Grid);
    FigureView *last = dashboard->views().constLast();
    QTRY_VERIFY(last->isVisible());
    last->plot()->setFocus(Qt::MouseFocusReason);
    QTRY_COMPARE(m_window->exports()->currentView(), last);
    dashboard->setArrangement(Dashboard::Arrangement::One);
    QTRY_VERIFY(!last->isVisible());
    FigureView *shown = dashboard->views().constFirst();
    QVERIFY(shown->isVisible());
    QCOMPARE(m_window->exports()->currentView(), shown);
    QApplication::clipboard()->clear();
    QSignalSpy copied(m_window->exports(), &ExportController::figureCopied);
    m_window->exports()->copyFigureAction()->trigger();
    QCOMPARE(copied.count(), 1);
    const double ratio = shown->plot()->devicePixelRatioF();
    QCOMPARE(QApplication::clipboard()->image().size(), shown->plot()->size() * ratio);
}

void TestExportController::loadEmbeddingsMovedToCtrlL()
{
    QAction *load = nullptr;
    QAction *exportFigure = nullptr;
    for (QAction *action : m_window->findChildren<QAction *>()) {
        if (action->text().contains(u"Load embeddings"_s))
            load = action;
        if (action->text().contains(u"Export figure"_s))
            exportFigure = action;
    }
    QVERIFY(load);
    QVERIFY(exportFigure);
    QCOMPARE(load->shortcut(), QKeySequence(u"Ctrl+L"_s));
    QCOMPARE(exportFigure->shortcut(), QKeySequence(u"Ctrl+E"_s));
}

void TestExportController::heatmapDataIsTheTableInView()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureView *view = heatmapView(*m_window);
    QVERIFY(view->setOption(u"quantity"_s, u"input"_s));
    // Cells 10..40 and rows 100..300 are touched by the view, at least partly.
    showRanges(view, {{u"columns"_s, QCPRange(9.6, 40.2)}, {u"positions"_s, QCPRange(99.6, 300.4)}});
    const QString path = dir.filePath(u"heatmap.npy"_s);
    QSignalSpy saved(m_window->exports(), &ExportController::dataSaved);
    m_window->exports()->exportData(view, path);
    QTRY_COMPARE(saved.count(), 1);
    const QByteArray expected = expectedNpy(dir.filePath(u"expected.npy"_s), Quantity::Input, {100, 201, 10, 31});
    QVERIFY(!expected.isEmpty());
    QCOMPARE(readAll(path), expected);
}

void TestExportController::curvesDataIsTheDrawnColumnsAtIntegerPositions()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureView *view = curvesView(*m_window);
    QVERIFY(view->setOption(u"dims"_s, u"17,0,5"_s));
    showRanges(view, {{u"positions"_s, QCPRange(3.2, 50.9)}}); // positions 4..50
    const QString path = dir.filePath(u"curves.npy"_s);
    QSignalSpy saved(m_window->exports(), &ExportController::dataSaved);
    m_window->exports()->exportData(view, path);
    QTRY_COMPARE(saved.count(), 1);
    const QByteArray expected
        = expectedNpy(dir.filePath(u"expected.npy"_s), Quantity::Pe, {4, 47, 0, 18}, std::vector<int> {17, 0, 5});
    QVERIFY(!expected.isEmpty());
    QCOMPARE(readAll(path), expected);
    // And the values are the float64 sinusoids.
    const auto table = readNpy(readAll(path), 47, 3);
    QVERIFY(table);
    const Params p = params();
    QVERIFY(std::abs((*table)(0, 0) - reference::exactValue(4, 17, p.dModel, p.sinusoidal.base, p.sinusoidal.layout))
            < 1e-6);
    QVERIFY(std::abs((*table)(46, 2) - reference::exactValue(50, 5, p.dModel, p.sinusoidal.base, p.sinusoidal.layout))
            < 1e-6);
}

void TestExportController::magnitudesDataIsTheNormsPerPosition()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"magnitudes.npy"_s);
    QSignalSpy saved(m_window->exports(), &ExportController::dataSaved);
    m_window->exports()->exportData(magnitudesView(*m_window), path);
    QTRY_COMPARE(saved.count(), 1);
    const Params p = params();
    const auto table = readNpy(readAll(path), static_cast<int>(p.maxLen), 3);
    QVERIFY(table);
    // Independently: the norms in double of the float64 sinusoids and of the engine's s*E rows.
    const Engine engine(p);
    RowMatrixXf embedding(p.maxLen, p.dModel);
    engine.computeBlock(Quantity::Embedding, {0, p.maxLen, 0, p.dModel}, embedding);
    for (std::int64_t row = 0; row < p.maxLen; ++row) {
        double pe2 = 0.0;
        for (std::int64_t j = 0; j < p.dModel; ++j) {
            const double v = reference::exactValue(row, j, p.dModel, p.sinusoidal.base, p.sinusoidal.layout);
            pe2 += v * v;
        }
        const double e = embedding.row(row).cast<double>().norm();
        const double expected[3] = {std::sqrt(pe2), e, e / std::sqrt(pe2)};
        for (int c = 0; c < 3; ++c) {
            const double got = (*table)(row, c);
            if (std::abs(got - expected[c]) > 1e-5 * std::max(1.0, std::abs(expected[c])))
                QFAIL(qPrintable(u"row %1 column %2: %3 vs %4"_s.arg(row).arg(c).arg(got).arg(expected[c])));
        }
        // ||PE_p||^2 = d/2 for interleaved PE of even d.
        QVERIFY(std::abs(pe2 - p.dModel / 2.0) < 1e-9);
    }
}

void TestExportController::csvFollowsTheExtension()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureView *view = dropoutView(*m_window);
    // Rows 0..9, columns 3..6.
    showRanges(view, {{u"positions"_s, QCPRange(-0.5, 9.5)}, {u"columns"_s, QCPRange(2.7, 6.4)}});
    const QString path = dir.filePath(u"mask.CSV"_s);
    QSignalSpy saved(m_window->exports(), &ExportController::dataSaved);
    m_window->exports()->exportData(view, path);
    QTRY_COMPARE(saved.count(), 1);
    const QList<QByteArray> lines = readAll(path).trimmed().split('\n');
    // The header line names the columns, as `posenc table` writes it; then the rows.
    QCOMPARE(lines.size(), 11);
    QCOMPARE(lines.first(), QByteArray("mask_3,mask_4,mask_5,mask_6"));
    const Engine engine(params());
    RowMatrixXf mask(10, 4);
    engine.computeBlock(Quantity::Mask, {0, 10, 3, 4}, mask);
    for (int r = 0; r < 10; ++r) {
        const QList<QByteArray> cells = lines[r + 1].split(',');
        QCOMPARE(cells.size(), 4);
        for (int c = 0; c < 4; ++c)
            QCOMPARE(cells[c].toFloat(), mask(r, c));
    }
}

void TestExportController::dataOverwriteNoKeepsYesReplaces()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"existing.npy"_s);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("old bytes");
    }
    QSignalSpy saved(m_window->exports(), &ExportController::dataSaved);
    m_window->exports()->exportData(heatmapView(*m_window), path);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = openBox(WriteDialogs::kOverwriteQuestion)));
    QVERIFY(box->text().contains(path));
    box->button(QMessageBox::No)->click();
    QTRY_VERIFY(!openBox(WriteDialogs::kOverwriteQuestion));
    QVERIFY(!m_window->exports()->isWritingData());
    QCOMPARE(saved.count(), 0);
    QCOMPARE(readAll(path), QByteArray("old bytes"));

    m_window->exports()->exportData(heatmapView(*m_window), path);
    QTRY_VERIFY((box = openBox(WriteDialogs::kOverwriteQuestion)));
    box->button(QMessageBox::Yes)->click();
    QTRY_COMPARE(saved.count(), 1);
    QVERIFY(readAll(path).startsWith("\x93NUMPY"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList {u"existing.npy"_s});
}

void TestExportController::dataToAnUnwritablePathShowsPathAndReason()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(u"file.txt"_s);
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    const QString path = file + u"/table.npy"_s;
    QSignalSpy saved(m_window->exports(), &ExportController::dataSaved);
    m_window->exports()->exportData(heatmapView(*m_window), path);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = openBox(WriteDialogs::kWriteWarning)));
    QVERIFY2(box->text().contains(path), qPrintable(box->text()));
    QVERIFY(!m_window->exports()->isWritingData());
    QCOMPARE(saved.count(), 0);
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList {u"file.txt"_s});
}

void TestExportController::dataOverTheMemoryBudgetIsRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Params p = params();
    p.memoryBudget = 16 * 1024; // 4096 cells: less than the 400 x 48 table in view
    QVERIFY(p.validate().isEmpty());
    heatmapView(*m_window)->setParams(p);
    const QString path = dir.filePath(u"big.npy"_s);
    m_window->exports()->exportData(heatmapView(*m_window), path);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = openBox(WriteDialogs::kWriteWarning)));
    QVERIFY2(box->text().contains(u"19200"_s) && box->text().contains(u"GiB"_s), qPrintable(box->text()));
    QVERIFY(!QFile::exists(path));
}

POSENC_TEST_MAIN(TestExportController)
} // namespace tst_exportcontroller
#include "tst_exportcontroller.moc"
