// File > Check a table… and File > Open model config… (docs/ARCHITECTURE.md, Checking a table,
// Checking a model config): tables and a config written or copied in the test, opened through
// the window's menus, checked on workers. The heatmap's cells and the per-column maxima are
// compared with |table − reference| computed here in float64; the buttons set the parameters as
// one Undo step; closing during a check stops it; the heatmap takes the colour map chosen in the
// window's figures. No assertion is on time.
#include "gui/CheckReference.h"
#include "gui/ControlPanel.h"
#include "gui/Dashboard.h"
#include "gui/ExportController.h"
#include "gui/FigureView.h"
#include "gui/MainWindow.h"
#include "gui/ModelConfigDialog.h"
#include "gui/TableCheckDialog.h"
#include "gui/TensorPicker.h"
#include "gui/UndoHistory.h"
#include "gui/WindowMenus.h"
#include "support/TestMain.h"

#include "check/CheckReport.h"
#include "core/NumberText.h"
#include "io/NpyWriter.h"

#include "support/TestFiles.h"
#include "support/TestShots.h"
#include "support/WindowFixture.h"

#include "CheckWindowTesting.h"
#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTreeWidget>
#include <QUndoStack>

#include <cmath>
#include <limits>
#include <optional>

namespace tst_checkwindow {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace CheckWindowTesting;

class TestCheckWindow : public QObject, private CheckWindowFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aCorrectTableFromTheMenu();
    void thePooledHeatmapKeepsTheLargestError();
    void theHeatmapTakesTheWindowsColormap();
    void aSafetensorsTensorIsChosenThenChecked();
    void filesGivenToTheWindowAreChecked();
    void nothingIsComputedOnTheGuiThread();
    void closingDuringACheckStopsIt();
    void aTableOverTheMemoryBudgetIsRefused();
    void aConfigsMarkupIsShownAsText_data();
    void aConfigsMarkupIsShownAsText();
    void aTablesMarkupIsShownAsText();
};

void TestCheckWindow::initTestCase()
{
    useOwnSettings();
}

void TestCheckWindow::init()
{
    writeTables();
}

// The menu's file dialog, the verdict in words, the heatmap cell by cell and the column maxima.
void TestCheckWindow::aCorrectTableFromTheMenu()
{
    MainWindow window(start(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QAction *action = window.menuBar()->findChild<QAction *>(u"checkTableAction"_s);
    QVERIFY(action);
    QCOMPARE(action->text(), u"Check a &table…"_s);
    action->trigger();
    QFileDialog *files = nullptr;
    QTRY_VERIFY((files = window.findChild<QFileDialog *>()) != nullptr);
    files->selectFile(m_correct);
    static_cast<QDialog *>(files)->accept(); // QFileDialog::accept, as its Open button
    TableCheckDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<TableCheckDialog *>()) != nullptr);
    dialog->setGridLimit(QSize(4096, 4096));
    QSignalSpy grids(dialog, &TableCheckDialog::errorGridChanged);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 120000);
    QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
    QVERIFY(dialog->match());
    // It fits a 1366 x 768 screen, a title bar and a panel spared, and opens within its screen's free
    // area, its buttons in view.
    QVERIFY2(dialog->minimumSizeHint().height() <= 768 - 100,
             qPrintable(QString::number(dialog->minimumSizeHint().height())));
    QVERIFY(dialog->screen()->availableGeometry().height() >= dialog->height());
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Correct);
    QVERIFY2(dialog->headline().contains(u"correct"_s), qPrintable(dialog->headline()));
    const QString report = dialog->reportText();
    QVERIFY2(report.contains(u"verdict: correct\n"_s), qPrintable(report));
    QVERIFY2(report.contains(u"reference: sinusoidal, interleaved"_s), qPrintable(report));
    QVERIFY2(report.contains(u"w_i = 10000^(-2i/d)"_s), qPrintable(report));
    QVERIFY2(report.contains(u"%1 x %2, float32"_s.arg(kRows).arg(kCols)), qPrintable(report));

    QTRY_VERIFY_WITH_TIMEOUT(grids.count() >= 1, 60000);
    const HeatmapGrid &grid = dialog->errorGrid();
    QCOMPARE(grid.block, (Block {0, kRows, 0, kCols}));
    QCOMPARE(grid.rows, int(kRows));
    QCOMPARE(grid.cols, int(kCols));
    const RowMatrixXf table = sinusoidTable(kRows, kCols);
    for (std::int64_t p = 0; p < kRows; ++p)
        for (std::int64_t c = 0; c < kCols; ++c) {
            const double expected = std::abs(double(table(p, c)) - sinusoid(p, c, kCols));
            QVERIFY2(std::abs(grid.at(int(p), int(c)) - expected) <= kRounding,
                     qPrintable(
                         u"cell (%1, %2): %3, expected %4"_s.arg(p).arg(c).arg(grid.at(int(p), int(c))).arg(expected)));
        }
    const std::vector<float> &columnMax = dialog->verification()->columnMax;
    QCOMPARE(std::int64_t(columnMax.size()), kCols);
    for (std::int64_t c = 0; c < kCols; ++c)
        QVERIFY2(columnMax[std::size_t(c)] <= kRounding, qPrintable(QString::number(columnMax[std::size_t(c)])));
    QCOMPARE(dialog->columnPlot()->graph(0)->dataCount(), int(kCols));
    // Before: "bright: the largest error (2.41e-7)", the colour scale's top, where the largest
    // error of this table is 0.
    const QLabel *caption = dialog->findChild<QLabel *>(u"errorCaption"_s);
    QVERIFY(caption);
    QCOMPARE(*dialog->match()->maxAbsError, 0.0);
    QVERIFY2(caption->text().contains(u"above the largest error (0)"_s), qPrintable(caption->text()));
    QCOMPARE(captionLargest(caption->text()), reportLargest(report));
    dialog->resize(900, 860);
    QTest::qWait(0);
    qInfo().noquote() << TestShots::save(dialog->grab(), u"check-correct"_s);
}

// Fewer pixels than cells: each pixel holds the largest |error| of the cells it covers, so the
// one bad cell is never averaged away.
void TestCheckWindow::thePooledHeatmapKeepsTheLargestError()
{
    MainWindow window(start(), nullptr);
    TableCheckDialog *dialog = window.menus()->checkTable(m_mistake);
    QVERIFY(dialog);
    dialog->setGridLimit(QSize(16, 32)); // columns, rows
    QSignalSpy grids(dialog, &TableCheckDialog::errorGridChanged);
    QTRY_VERIFY_WITH_TIMEOUT(grids.count() >= 1, 120000);
    const HeatmapGrid &grid = dialog->errorGrid();
    QCOMPARE(grid.rows, 32);
    QCOMPARE(grid.cols, 16);
    std::vector<double> expected(32 * 16, 0.0);
    const RowMatrixXf correct = sinusoidTable(kRows, kCols);
    for (std::int64_t p = 0; p < kRows; ++p)
        for (std::int64_t c = 0; c < kCols; ++c) {
            double value = double(correct(p, c));
            if (p == kBadRow && c == kBadCol)
                value = double(float(value + kBump));
            double &pixel = expected[std::size_t((p * 32 / kRows) * 16 + c * 16 / kCols)];
            pixel = std::max(pixel, std::abs(value - sinusoid(p, c, kCols)));
        }
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 16; ++c)
            QVERIFY2(std::abs(grid.at(r, c) - expected[std::size_t(r * 16 + c)]) <= kRounding,
                     qPrintable(u"pixel (%1, %2): %3, expected %4"_s.arg(r)
                                    .arg(c)
                                    .arg(grid.at(r, c))
                                    .arg(expected[std::size_t(r * 16 + c)])));
    QVERIFY(grid.at(int(kBadRow * 32 / kRows), int(kBadCol * 16 / kCols)) > 0.5 * kBump);
}

namespace {

// The colour the heatmap shows at the middle of the table's cell (row, column), as drawn on screen.
QColor heatmapColourAt(TableCheckDialog &dialog, std::int64_t row, std::int64_t column)
{
    QCustomPlot *plot = dialog.errorPlot();
    const QCPAxisRect *rect = plot->axisRect();
    const QPoint at(int(rect->axis(QCPAxis::atBottom)->coordToPixel(double(column))),
                    int(rect->axis(QCPAxis::atLeft)->coordToPixel(double(row))));
    return plot->toPixmap(plot->width(), plot->height(), 1.0).toImage().pixelColor(at);
}

bool sameColour(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) <= 2 && std::abs(a.green() - b.green()) <= 2
        && std::abs(a.blue() - b.blue()) <= 2;
}

} // namespace

// The heatmap is coloured with the map the user chose in the window's figures, as their heatmaps
// are: the current view's magma when the check opens, then the diverging map and auto (viridis,
// the sequential map of |error|) as the user picks them in that view's bar. The worst cell, at
// the top of the scale, shows each map's last entry as matplotlib publishes it (magma #fcfdbf,
// RdBu_r #67001f, viridis #fde725). It was viridis's whatever the window chose.
void TestCheckWindow::theHeatmapTakesTheWindowsColormap()
{
    MainWindow window(start(), nullptr);
    // The current view shows RoPE's wavelengths, which take no colour map: the first view shown
    // whose figure takes one is the window's choice.
    QVERIFY(!window.exports()->currentView()->findChild<QComboBox *>(u"colormapBox"_s));
    FigureView *view = nullptr;
    QComboBox *box = nullptr;
    for (FigureView *shown : window.dashboard()->views()) {
        box = shown->isVisibleTo(&window) ? shown->findChild<QComboBox *>(u"colormapBox"_s) : nullptr;
        if (box) {
            view = shown;
            break;
        }
    }
    QVERIFY(view && box);
    QVERIFY(view->setOption(u"colormap"_s, u"magma"_s));
    TableCheckDialog *dialog = window.menus()->checkTable(m_mistake);
    QVERIFY(dialog);
    dialog->setGridLimit(QSize(16, 32)); // columns, rows
    QSignalSpy grids(dialog, &TableCheckDialog::errorGridChanged);
    QTRY_VERIFY_WITH_TIMEOUT(grids.count() >= 1, 120000);
    // The worst cell's pixel holds the largest error, the top of the colour scale.
    const float worst = dialog->errorGrid().at(int(kBadRow * 32 / kRows), int(kBadCol * 16 / kCols));
    const QCPColorScale *scale = nullptr;
    for (QCPLayoutElement *element : dialog->errorPlot()->plotLayout()->elements(true)) {
        if (auto *found = qobject_cast<QCPColorScale *>(element))
            scale = found;
    }
    QVERIFY(scale);
    QVERIFY2(double(worst) >= scale->dataRange().upper * (1.0 - 1e-6),
             qPrintable(u"%1 under the scale's top %2"_s.arg(worst).arg(scale->dataRange().upper)));
    const auto top = [&] { return heatmapColourAt(*dialog, kBadRow, kBadCol); };
    QVERIFY2(sameColour(top(), QColor(0xfc, 0xfd, 0xbf)), qPrintable(top().name()));
    box->setCurrentIndex(box->findData(u"diverging"_s));
    QCOMPARE(dialog->colormap(), Colormap::Diverging);
    QVERIFY2(sameColour(top(), QColor(0x67, 0x00, 0x1f)), qPrintable(top().name()));
    box->setCurrentIndex(box->findData(u"auto"_s));
    QVERIFY2(sameColour(top(), QColor(0xfd, 0xe7, 0x25)), qPrintable(top().name()));
    QCOMPARE(grids.count(), 1); // coloured again, not computed again
}

// A file of several arrays lists them: a (1, L, d) array is a table, a 1-D one cannot be chosen.
void TestCheckWindow::aSafetensorsTensorIsChosenThenChecked()
{
    const RowMatrixXf table = sinusoidTable(kRows, kCols);
    const QString path = m_dir.filePath(u"model.safetensors"_s);
    const QByteArray header = QByteArray(R"({"scale":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)")
        + R"("pe":{"dtype":"F32","shape":[1,)" + QByteArray::number(kRows) + "," + QByteArray::number(kCols)
        + R"(],"data_offsets":[16,)" + QByteArray::number(16 + kRows * kCols * 4) + "]}}";
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const quint64 n = quint64(header.size());
        QByteArray bytes(8, '\0');
        for (int i = 0; i < 8; ++i)
            bytes[i] = char((n >> (8 * i)) & 0xff);
        bytes += header + QByteArray(16, '\0')
            + QByteArray(reinterpret_cast<const char *>(table.data()), qsizetype(table.size() * 4));
        QCOMPARE(file.write(bytes), qint64(bytes.size()));
    }
    MainWindow window(start(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QCOMPARE(window.menus()->checkTable(path), nullptr); // a tensor to choose first
    TensorPicker *picker = nullptr;
    QTRY_VERIFY((picker = window.findChild<TensorPicker *>(u"checkTensorPicker"_s)) != nullptr);
    QCOMPARE(picker->selectedTensor(), u"pe"_s);
    for (int i = 0; i < picker->list()->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = picker->list()->topLevelItem(i);
        QCOMPARE(bool(item->flags() & Qt::ItemIsEnabled), item->text(0) == u"pe"_s);
    }
    picker->accept();
    TableCheckDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<TableCheckDialog *>()) != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 120000);
    QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Correct);
    QVERIFY2(dialog->reportText().contains(u"model.safetensors:pe, %1 x %2"_s.arg(kRows).arg(kCols)),
             qPrintable(dialog->reportText()));
}

// posenc FILE and a drop: a .csv table is checked, a model's config.json opened as one.
void TestCheckWindow::filesGivenToTheWindowAreChecked()
{
    const QString csv = m_dir.filePath(u"pe.csv"_s);
    {
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Text));
        QTextStream out(&file);
        for (std::int64_t p = 0; p < 40; ++p) {
            QStringList cells;
            for (std::int64_t c = 0; c < 16; ++c)
                cells.append(QString::number(sinusoid(p, c, 16), 'f', 8));
            out << cells.join(u',') << '\n';
        }
    }
    MainWindow window(start(), nullptr);
    window.openFile(csv);
    TableCheckDialog *dialog = window.findChild<TableCheckDialog *>();
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 120000);
    QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Correct);
    QVERIFY2(dialog->reportText().contains(u"40 x 16, text"_s), qPrintable(dialog->reportText()));

    window.openFile(QStringLiteral(POSENC_CONFIGS) + u"/Llama-3.2-1B.json"_s);
    ModelConfigDialog *config = window.findChild<ModelConfigDialog *>();
    QVERIFY(config);
    QTRY_VERIFY_WITH_TIMEOUT(!config->isChecking(), 60000);
    QVERIFY(config->check());
    QCOMPARE(config->check()->modelType, u"llama"_s);
    QVERIFY(window.findChildren<TableCheckDialog *>().size() == 1); // nothing else opened
}

// The check, its heatmap and a config are computed on workers, never on the GUI thread.
void TestCheckWindow::nothingIsComputedOnTheGuiThread()
{
    const TableCheckDialog::Computations before = TableCheckDialog::computations();
    MainWindow window(start(), nullptr);
    TableCheckDialog *dialog = checkAndWait(window, m_mistake);
    QVERIFY(dialog);
    QSignalSpy grids(dialog, &TableCheckDialog::errorGridChanged);
    dialog->showBlock({10, 100, 4, 30});
    QTRY_VERIFY_WITH_TIMEOUT(grids.count() >= 1, 60000);
    ModelConfigDialog *config
        = window.menus()->openModelConfig(QStringLiteral(POSENC_CONFIGS) + u"/Llama-3.2-1B.json"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!config->isChecking(), 60000);
    QVERIFY(config->check());
    const TableCheckDialog::Computations after = TableCheckDialog::computations();
    QVERIFY2(after.total - before.total >= 3, qPrintable(QString::number(after.total - before.total)));
    QCOMPARE(after.onApplicationThread, before.onApplicationThread);
}

// Closing the dialog during a check returns at once: the table, read whole if it waited, is
// left mostly unread, and no verdict is shown.
void TestCheckWindow::closingDuringACheckStopsIt()
{
    // A sinusoid of 131072 positions x 256 columns, float32 (128 MiB), which is streamed whole.
    const QString path = m_dir.filePath(u"long.npy"_s);
    {
        const RowMatrixXf table = sinusoidTable(131072, 256);
        QVERIFY(!writeNpy(path, table));
    }
    MainWindow window(start(), nullptr);
    const std::optional<qint64> before = bytesRead();
    QVERIFY(before);
    QPointer<QDialog> dialog = window.menus()->checkTable(path);
    QVERIFY(dialog);
    QSignalSpy checked(static_cast<TableCheckDialog *>(dialog.data()), &TableCheckDialog::checked);
    QVERIFY(static_cast<TableCheckDialog *>(dialog.data())->isChecking());
    closeAndWait(dialog);
    const qint64 read = *bytesRead() - *before;
    const qint64 size = QFileInfo(path).size();
    QVERIFY2(read < size / 4, qPrintable(u"%1 of the file's %2 bytes read"_s.arg(read).arg(size)));
    QCOMPARE(checked.count(), 0);
    QFile::remove(path);
}

// Before: a .npy declaring 2 x 2^31 float32 was identified from a sample of both its rows, 16 GiB:
// std::bad_alloc (SIGABRT) under an address limit of 6 GiB, past 8 GB without one. Now the window
// refuses it before reading, with the memory budget's message, as `posenc check` does.
void TestCheckWindow::aTableOverTheMemoryBudgetIsRefused()
{
    const QString path = m_dir.filePath(u"wide.npy"_s);
    {
        QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2147483648), }";
        dict.append(QByteArray((64 - (10 + dict.size() + 1) % 64) % 64, ' ')).append('\n');
        QByteArray header("\x93NUMPY\x01\x00", 8);
        header.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(header), header.size());
        QVERIFY(file.resize(header.size() + qint64(2) * (qint64(1) << 31) * 4)); // sparse: nothing written
    }
    MainWindow window(start(), nullptr);
    TableCheckDialog *dialog = window.menus()->checkTable(path);
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 60000);
    QVERIFY(!dialog->match());
    QVERIFY2(dialog->problem().contains(u"over the memory budget"_s), qPrintable(dialog->problem()));
    QVERIFY2(dialog->problem().contains(u"GiB"_s), qPrintable(dialog->problem()));
    QVERIFY2(dialog->headline().contains(u"Not checked"_s), qPrintable(dialog->headline()));
    QFile::remove(path);
}

// A config's text (a value it quotes, its file's name) shown as it is, never read as markup: a
// QLabel's automatic format took "<img src=...>" in a refused value or a file's name as HTML (an
// image loaded from any path, the text gone). Before: every label of the dialog was AutoText.
void TestCheckWindow::aConfigsMarkupIsShownAsText_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("a refused value")
        << u"config.json"_s
        << QByteArray(R"({"model_type": "llama", "rope_scaling": {"rope_type": "<b>yarn</b>", "factor": 2}})");
    QTest::newRow("a model_type") << u"config.json"_s
                                  << QByteArray(R"({"model_type": "<i>llama</i>", "rope_theta": 10000})");
    QTest::newRow("a file's name") << u"<b>c.json"_s << QByteArray("not JSON");
}

void TestCheckWindow::aConfigsMarkupIsShownAsText()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    const QString path = m_dir.filePath(name);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    ModelConfigDialog dialog(
        path, [] { return Params {}; }, [](const Params &) {});
    dialog.show();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isChecking(), 60000);
    int marked = 0;
    for (const QLabel *label : dialog.findChildren<QLabel *>()) {
        if (!label->text().contains(u'<'))
            continue;
        ++marked;
        QVERIFY2(label->textFormat() == Qt::PlainText, qPrintable(label->objectName() + u": "_s + label->text()));
    }
    QVERIFY(marked > 0);
    QFile::remove(path);
}

// A table whose file name holds markup: the headline names the file while it is checked, and it and
// every other label show the name as written, not as markup, then and after.
void TestCheckWindow::aTablesMarkupIsShownAsText()
{
    const QString path = m_dir.filePath(u"<b>pe."_s + QFileInfo(m_mistake).suffix());
    QVERIFY(QFile::copy(m_mistake, path));
    TableCheckDialog dialog(MatrixSource {path, std::nullopt}, std::uint64_t(1) << 30, {}, {});
    dialog.show();
    const auto renderedMarkup = [&dialog] {
        QStringList labels;
        for (const QLabel *label : dialog.findChildren<QLabel *>())
            if (label->text().contains(u"<b>"_s) && label->textFormat() != Qt::PlainText)
                labels.append(label->objectName() + u": "_s + label->text());
        return labels.join(u"; "_s);
    };
    QVERIFY(dialog.isChecking());
    QVERIFY2(dialog.headline().contains(u"<b>pe."_s), qPrintable(dialog.headline()));
    QVERIFY2(renderedMarkup().isEmpty(), qPrintable(renderedMarkup()));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isChecking(), 120000);
    QVERIFY2(renderedMarkup().isEmpty(), qPrintable(renderedMarkup()));
}

POSENC_TEST_MAIN(TestCheckWindow)
} // namespace tst_checkwindow
#include "tst_checkwindow.moc"
