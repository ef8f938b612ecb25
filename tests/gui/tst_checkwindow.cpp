// File > Check a table… and File > Open model config… (docs/ARCHITECTURE.md, Checking a table,
// Checking a model config): tables and a config written or copied in the test, opened through
// the window's menus, checked on workers. The heatmap's cells and the per-column maxima are
// compared with |table − reference| computed here in float64; the buttons set the parameters as
// one Undo step; closing during a check stops it. No assertion is on time.
#include "gui/CheckReference.h"
#include "gui/ControlPanel.h"
#include "gui/MainWindow.h"
#include "gui/ModelConfigDialog.h"
#include "gui/TableCheckDialog.h"
#include "gui/TensorPicker.h"
#include "gui/UndoHistory.h"
#include "gui/WindowMenus.h"

#include "check/CheckReport.h"
#include "core/NumberText.h"
#include "io/NpyWriter.h"

#include "support/TestFiles.h"
#include "support/TestShots.h"

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

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr std::int64_t kRows = 256;
constexpr std::int64_t kCols = 64;
// The cell a mistake changes, and by how much.
constexpr std::int64_t kBadRow = 77;
constexpr std::int64_t kBadCol = 21;
constexpr double kBump = 1e-3;
// A float32 table against a float64 reference: each side within half an ulp of 1.
constexpr double kRounding = 1.2e-7;

// The paper's sinusoid in float64, interleaved: column 2i sin(p w_i), 2i + 1 cos(p w_i),
// w_i = 10000^(-2i/d).
double sinusoid(std::int64_t p, std::int64_t c, std::int64_t d)
{
    const double w = std::exp(-2.0 * double(c / 2) * std::log(10000.0) / double(d));
    return c % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w);
}

RowMatrixXf sinusoidTable(std::int64_t rows, std::int64_t cols)
{
    RowMatrixXf table(rows, cols);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < cols; ++c)
            table(p, c) = float(sinusoid(p, c, cols));
    return table;
}

// The largest |error| as the report prints it ("max |error|: X at row r, column c ...") and as the
// heatmap's caption gives it ("the largest error (X)"): the same words of the same number.
QString reportLargest(const QString &report)
{
    static const QRegularExpression line(uR"(max \|error\|: (\S+) at row)"_s);
    return line.match(report).captured(1);
}
QString captionLargest(const QString &caption)
{
    static const QRegularExpression words(uR"(the largest error \(([^)]+)\))"_s);
    return words.match(caption).captured(1);
}

// The window starts on a RoPE, so that a sinusoid's reference changes every group it sets.
Params start()
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 256;
    p.maxLen = 512;
    p.rope.headDim = 64;
    return p;
}

void closeAndWait(QPointer<QDialog> &dialog)
{
    dialog->close();
    while (dialog)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

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

TableCheckDialog *checkAndWait(MainWindow &window, const QString &path)
{
    TableCheckDialog *dialog = window.menus()->checkTable(path);
    if (!dialog)
        return nullptr;
    if (!QTest::qWaitFor([dialog] { return !dialog->isChecking(); }, 120000))
        return nullptr;
    return dialog;
}

} // namespace

class TestCheckWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aCorrectTableFromTheMenu();
    void aMistakeAtOneCell();
    void aNamedMistakeAgainstTheCorrectTable();
    void thePooledHeatmapKeepsTheLargestError();
    void aRopeCosTableSetsARope();
    void anUnknownTableHasNoHeatmap();
    void aDeclaredReference();
    void anAlibiTableWithAChangedMaskCell();
    void theReferenceButtonIsOneUndoStep();
    void aSafetensorsTensorIsChosenThenChecked();
    void filesGivenToTheWindowAreChecked();
    void aModelConfig();
    void aModelConfigWithAnError();
    void aModelConfigRefused();
    void nothingIsComputedOnTheGuiThread();
    void closingDuringACheckStopsIt();
    void aTableOverTheMemoryBudgetIsRefused();

private:
    QTemporaryDir m_config;
    QTemporaryDir m_dir;
    QString m_correct;
    QString m_mistake;
};

// Qt's file dialogs remember their state in the user's QtProject.conf: here, in a directory of
// the test's own.
void TestCheckWindow::initTestCase()
{
    QVERIFY(m_config.isValid());
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
}

void TestCheckWindow::init()
{
    QVERIFY(m_dir.isValid());
    m_correct = m_dir.filePath(u"sinusoid.npy"_s);
    m_mistake = m_dir.filePath(u"sinusoid-bumped.npy"_s);
    RowMatrixXf table = sinusoidTable(kRows, kCols);
    QVERIFY(!writeNpy(m_correct, table));
    table(kBadRow, kBadCol) = float(double(table(kBadRow, kBadCol)) + kBump);
    QVERIFY(!writeNpy(m_mistake, table));
}

// The menu's file dialog, the verdict in words, the heatmap cell by cell and the column maxima.
void TestCheckWindow::aCorrectTableFromTheMenu()
{
    MainWindow window(start(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
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

// One cell 1e-3 off: a mistake at that cell, the heatmap's brightest cell there, its column's
// maximum 1e-3 and every other column's at the rounding.
void TestCheckWindow::aMistakeAtOneCell()
{
    MainWindow window(start(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    TableCheckDialog *dialog = window.menus()->checkTable(m_mistake);
    QVERIFY(dialog);
    dialog->setGridLimit(QSize(4096, 4096));
    QSignalSpy grids(dialog, &TableCheckDialog::errorGridChanged);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 120000);
    QVERIFY(dialog->match());
    const TableMatch &match = *dialog->match();
    QCOMPARE(match.verdict, CheckVerdict::Mistake);
    QCOMPARE(match.worstRow, std::optional<std::int64_t>(kBadRow));
    QCOMPARE(match.worstColumn, std::optional<std::int64_t>(kBadCol));
    QVERIFY2(dialog->headline().contains(u"mistake"_s), qPrintable(dialog->headline()));
    QVERIFY2(dialog->headline().contains(u"row %1, column %2"_s.arg(kBadRow).arg(kBadCol)),
             qPrintable(dialog->headline()));
    QCOMPARE(dialog->diagnosis(), match.diagnosis);
    QVERIFY(!match.diagnosis.isEmpty());
    const QString report = dialog->reportText();
    QVERIFY2(report.contains(u"verdict: mistake"_s), qPrintable(report));
    QVERIFY2(report.contains(u"at row %1, column %2"_s.arg(kBadRow).arg(kBadCol)), qPrintable(report));
    QVERIFY2(report.contains(u"deviating: "_s), qPrintable(report));

    QTRY_VERIFY_WITH_TIMEOUT(grids.count() >= 1, 60000);
    const HeatmapGrid &grid = dialog->errorGrid();
    QCOMPARE(grid.rows, int(kRows));
    QCOMPARE(grid.cols, int(kCols));
    const RowMatrixXf correct = sinusoidTable(kRows, kCols);
    for (std::int64_t p = 0; p < kRows; ++p)
        for (std::int64_t c = 0; c < kCols; ++c) {
            double value = double(correct(p, c));
            if (p == kBadRow && c == kBadCol)
                value = double(float(value + kBump));
            const double expected = std::abs(value - sinusoid(p, c, kCols));
            QVERIFY2(std::abs(grid.at(int(p), int(c)) - expected) <= kRounding,
                     qPrintable(
                         u"cell (%1, %2): %3, expected %4"_s.arg(p).arg(c).arg(grid.at(int(p), int(c))).arg(expected)));
        }
    // The caption, the headline and the report give the same largest error.
    const QLabel *caption = dialog->findChild<QLabel *>(u"errorCaption"_s);
    QVERIFY(caption);
    QVERIFY(!reportLargest(report).isEmpty());
    QCOMPARE(captionLargest(caption->text()), reportLargest(report));
    QVERIFY2(dialog->headline().contains(u"|error| up to %1 at row"_s.arg(reportLargest(report))),
             qPrintable(dialog->headline()));
    QVERIFY(std::abs(reportLargest(report).toDouble() - kBump) <= 5e-3 * kBump);
    const std::vector<float> &columnMax = dialog->verification()->columnMax;
    for (std::int64_t c = 0; c < kCols; ++c) {
        const double expected = c == kBadCol ? kBump : 0.0;
        QVERIFY2(std::abs(columnMax[std::size_t(c)] - expected) <= 2 * kRounding,
                 qPrintable(u"column %1: %2"_s.arg(c).arg(columnMax[std::size_t(c)])));
    }
    // The plot marks the deviating column, and only it.
    QCOMPARE(dialog->columnPlot()->graphCount(), 3);
    QCOMPARE(dialog->columnPlot()->graph(1)->dataCount(), 1);
    QCOMPARE(dialog->columnPlot()->graph(1)->data()->at(0)->key, double(kBadCol));
    dialog->resize(900, 860);
    QTest::qWait(0);
    qInfo().noquote() << TestShots::save(dialog->grab(), u"check-mistake"_s);

    // The plots as shown, written as images and documents.
    const auto png = dialog->savePlots(m_dir.filePath(u"check.png"_s));
    const auto *refused = std::get_if<QString>(&png);
    QVERIFY2(!refused, qPrintable(refused ? *refused : QString()));
    QCOMPARE(std::get<QStringList>(png),
             (QStringList {m_dir.filePath(u"check.png"_s), m_dir.filePath(u"check-columns.png"_s)}));
    QCOMPARE(QImage(m_dir.filePath(u"check.png"_s)).size(), dialog->errorPlot()->size());
    QCOMPARE(QImage(m_dir.filePath(u"check-columns.png"_s)).size(), dialog->columnPlot()->size());
    QVERIFY(std::holds_alternative<QStringList>(dialog->savePlots(m_dir.filePath(u"check.pdf"_s))));
    QVERIFY(TestFiles::readAll(m_dir.filePath(u"check-columns.pdf"_s)).startsWith("%PDF"));
    QVERIFY(std::holds_alternative<QStringList>(dialog->savePlots(m_dir.filePath(u"check.svg"_s))));
    QVERIFY(TestFiles::readAll(m_dir.filePath(u"check.svg"_s)).contains("<svg"));
    QVERIFY(std::holds_alternative<QString>(dialog->savePlots(m_dir.filePath(u"check.bmp"_s))));
    QVERIFY(!QFile::exists(m_dir.filePath(u"check.bmp"_s)));

    // Zoomed on a block around the cell: the grid is that block, cell by cell.
    const int before = int(grids.count());
    dialog->showBlock({70, 16, 16, 8});
    QTRY_VERIFY_WITH_TIMEOUT(grids.count() > before, 60000);
    QCOMPARE(dialog->errorGrid().block, (Block {70, 16, 16, 8}));
    QVERIFY(std::abs(dialog->errorGrid().at(int(kBadRow - 70), int(kBadCol - 16)) - kBump) <= 2 * kRounding);
    // A zoom or a pan of the axes computes the cells now in view.
    const int zoomed = int(grids.count());
    QCPAxisRect *rect = dialog->errorPlot()->axisRect();
    rect->axis(QCPAxis::atBottom)->setRange(15.5, 31.5);
    rect->axis(QCPAxis::atLeft)->setRange(63.5, 127.5);
    QTRY_VERIFY_WITH_TIMEOUT(grids.count() > zoomed, 60000);
    const Block zoom = dialog->errorGrid().block;
    QVERIFY2(zoom == (Block {64, 64, 16, 16}),
             qPrintable(u"%1 %2 %3 %4"_s.arg(zoom.row0).arg(zoom.rows).arg(zoom.col0).arg(zoom.cols)));
}

// Exponents over the column index (DeepCTR#379): the mistake named, and the heatmap is the
// table against the paper's correct sinusoid, cell by cell.
void TestCheckWindow::aNamedMistakeAgainstTheCorrectTable()
{
    constexpr std::int64_t rows = 512;
    constexpr std::int64_t cols = 64;
    RowMatrixXf table(rows, cols);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < cols; ++c) {
            const double w = std::pow(10000.0, -double(c) / double(cols)); // the mistake: j, not 2i
            table(p, c) = float(c % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w));
        }
    const QString path = m_dir.filePath(u"column-index.npy"_s);
    QVERIFY(!writeNpy(path, table));
    MainWindow window(start(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    TableCheckDialog *dialog = window.menus()->checkTable(path);
    QVERIFY(dialog);
    dialog->setGridLimit(QSize(4096, 4096));
    QSignalSpy grids(dialog, &TableCheckDialog::errorGridChanged);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 120000);
    QVERIFY(dialog->match());
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Mistake);
    QVERIFY2(dialog->headline().contains(u"mistake: exponent-column-index"_s), qPrintable(dialog->headline()));
    QTRY_VERIFY_WITH_TIMEOUT(grids.count() >= 1, 60000);
    const HeatmapGrid &grid = dialog->errorGrid();
    QCOMPARE(grid.rows, int(rows));
    QCOMPARE(grid.cols, int(cols));
    double largest = 0.0;
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < cols; ++c) {
            const double expected = std::abs(double(table(p, c)) - sinusoid(p, c, cols));
            largest = std::max(largest, expected);
            QVERIFY2(std::abs(grid.at(int(p), int(c)) - expected) <= 3e-7,
                     qPrintable(
                         u"cell (%1, %2): %3, expected %4"_s.arg(p).arg(c).arg(grid.at(int(p), int(c))).arg(expected)));
        }
    // The sine columns are right (2i is the column index there), the cosines are not.
    const std::vector<float> &columnMax = dialog->verification()->columnMax;
    QVERIFY(columnMax[0] <= kRounding && columnMax[2] <= kRounding);
    QVERIFY(columnMax[3] > 0.1);
    QVERIFY(std::abs(*dialog->match()->maxAbsError - largest) <= 3e-7);
    dialog->resize(900, 860);
    QTest::qWait(0);
    qInfo().noquote() << TestShots::save(dialog->grab(), u"check-column-index"_s);
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
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
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

// HF's cos table (L x rotary_dim, rotate_half's layout: the frequencies twice): the reference is
// RoPE's, the heatmap |table − cos(p θ_i)| cell by cell (the float32 rounding), and the button
// sets that RoPE.
void TestCheckWindow::aRopeCosTableSetsARope()
{
    // Qwen3 8B's: head_dim 128 at theta 1e6, a published form (at theta 10000 the table is also a
    // sinusoid whose sines were replaced, and its verdict unknown until one is declared).
    constexpr std::int64_t rows = 300;
    constexpr std::int64_t dim = 128;
    const auto angle = [](std::int64_t p, std::int64_t c) {
        const std::int64_t i = c % (dim / 2);
        return double(p) * std::pow(1000000.0, -2.0 * double(i) / double(dim));
    };
    RowMatrixXf table(rows, dim);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < dim; ++c)
            table(p, c) = float(std::cos(angle(p, c)));
    const QString path = m_dir.filePath(u"rotary_cos.npy"_s);
    QVERIFY(!writeNpy(path, table));
    MainWindow window(start(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    TableCheckDialog *dialog = window.menus()->checkTable(path);
    QVERIFY(dialog);
    dialog->setGridLimit(QSize(4096, 4096));
    QSignalSpy grids(dialog, &TableCheckDialog::errorGridChanged);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 120000);
    QVERIFY(dialog->match());
    const TableMatch &match = *dialog->match();
    QCOMPARE(match.table, u"rope-cos"_s);
    QCOMPARE(match.verdict, CheckVerdict::Correct);
    QTRY_VERIFY_WITH_TIMEOUT(grids.count() >= 1, 60000);
    const HeatmapGrid &grid = dialog->errorGrid();
    QCOMPARE(grid.rows, int(rows));
    QCOMPARE(grid.cols, int(dim));
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < dim; ++c) {
            const double expected = std::abs(double(table(p, c)) - std::cos(angle(p, c)));
            QVERIFY2(std::abs(grid.at(int(p), int(c)) - expected) <= 3e-7,
                     qPrintable(
                         u"cell (%1, %2): %3, expected %4"_s.arg(p).arg(c).arg(grid.at(int(p), int(c))).arg(expected)));
        }
    QVERIFY(match.params);
    QTest::mouseClick(dialog->referenceButton(), Qt::LeftButton);
    const Params after = window.controlPanel()->params();
    QCOMPARE(after.encoding, Encoding::Rope);
    QCOMPARE(after.rope.headDim, dim);
    QCOMPARE(after.rope.theta, 1000000.0);
    QCOMPARE(after.rope.layout, RopeLayout::Half);
    QCOMPARE(after.rope.type, RopeType::Default);
    QCOMPARE(after.rope, match.params->rope);
}

// A causal ALiBi bias whose one masked cell holds a value: the table is named, that cell is the
// worst (off by an infinity), the heatmap's scale stays finite, and the button sets that ALiBi.
// Compare with: the window's parameters, or a reference table. A sinusoid at base 500 is a variant
// when identified, correct against the parameters or the table it equals, a mistake against others
// (the report saying what it reads as).
void TestCheckWindow::aDeclaredReference()
{
    RowMatrixXf table(kRows, kCols);
    for (std::int64_t p = 0; p < kRows; ++p)
        for (std::int64_t c = 0; c < kCols; ++c) {
            const double w = std::pow(500.0, -2.0 * double(c / 2) / double(kCols));
            table(p, c) = float(c % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w));
        }
    const QString path = m_dir.filePath(u"base500.npy"_s);
    QVERIFY(!writeNpy(path, table));
    MainWindow window(start(), nullptr);
    TableCheckDialog *dialog = checkAndWait(window, path);
    QVERIFY(dialog);
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Variant);
    QVERIFY2(dialog->headline().contains(u"variant"_s), qPrintable(dialog->headline()));
    const auto checkAgainst = [&](double base, int choice) {
        Params p;
        p.encoding = Encoding::Sinusoidal;
        p.dModel = kCols;
        p.maxLen = kRows;
        p.sinusoidal.base = base;
        window.controlPanel()->setParams(p);
        dialog->referenceRow()->choice()->setCurrentIndex(choice);
        QTest::mouseClick(dialog->referenceRow()->checkAgain(), Qt::LeftButton);
        return QTest::qWaitFor([dialog] { return !dialog->isChecking(); }, 120000) && dialog->match();
    };
    QVERIFY(checkAgainst(500.0, 1));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Correct);
    QVERIFY2(dialog->reportText().contains(u"the declared reference"_s), qPrintable(dialog->reportText()));
    QVERIFY(checkAgainst(10000.0, 1));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Mistake);
    // What the table is instead, as posenc check --expect says it (TableCheck::nameDeclaredMistake).
    QVERIFY2(dialog->reportText().contains(u"read without the declaration, the table is variant"_s),
             qPrintable(dialog->reportText()));
    QVERIFY(checkAgainst(10000.0, 0));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Variant);
    dialog->referenceRow()->setReferenceTable(path);
    QVERIFY(checkAgainst(10000.0, 2));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Correct);
    dialog->referenceRow()->setReferenceTable(m_correct);
    QVERIFY(checkAgainst(10000.0, 2));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Mistake);
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        dialog->resize(size);
        QTest::qWait(0);
        qInfo().noquote() << TestShots::save(dialog->grab(), u"check-declared-%1"_s.arg(size.width()));
    }
}

void TestCheckWindow::anAlibiTableWithAChangedMaskCell()
{
    constexpr std::int64_t rows = 200;
    RowMatrixXf table(rows, rows);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < rows; ++j)
            table(i, j) = j > i ? -std::numeric_limits<float>::infinity() : float(-0.5 * double(i - j));
    table(20, 150) = 0.0f;
    const QString path = m_dir.filePath(u"alibi.npy"_s);
    QVERIFY(!writeNpy(path, table));
    MainWindow window(start(), nullptr);
    TableCheckDialog *dialog = checkAndWait(window, path);
    QVERIFY(dialog);
    QVERIFY(dialog->match());
    const TableMatch &match = *dialog->match();
    QCOMPARE(match.table, u"alibi-bias"_s);
    QCOMPARE(match.verdict, CheckVerdict::Mistake);
    QCOMPARE(*match.worstRow, qint64(20));
    QCOMPARE(*match.worstColumn, qint64(150));
    QVERIFY2(dialog->reportText().contains(u"row 20, column 150"_s), qPrintable(dialog->reportText()));
    QVERIFY(dialog->errorPlot()->isVisible());
    QTest::mouseClick(dialog->referenceButton(), Qt::LeftButton);
    const Params after = window.controlPanel()->params();
    QCOMPARE(after.encoding, Encoding::Alibi);
    QCOMPARE(after.alibi.heads, qint64(8));
    QCOMPARE(after.alibi.head, qint64(1));
    QCOMPARE(after.alibi.mask, AlibiMask::Causal);
}

// Random numbers: unknown, nothing to compare with, so no heatmap and no button.
void TestCheckWindow::anUnknownTableHasNoHeatmap()
{
    RowMatrixXf table(200, 32);
    std::uint64_t state = 88172645463325252ull; // xorshift64
    for (std::int64_t i = 0; i < table.size(); ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        table.data()[i] = float(double(state >> 11) / double(std::uint64_t(1) << 53) * 2.0 - 1.0);
    }
    const QString path = m_dir.filePath(u"random.npy"_s);
    QVERIFY(!writeNpy(path, table));
    MainWindow window(start(), nullptr);
    TableCheckDialog *dialog = checkAndWait(window, path);
    QVERIFY(dialog);
    QVERIFY(dialog->match());
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Unknown);
    QVERIFY2(dialog->headline().startsWith(u"? unknown"_s), qPrintable(dialog->headline()));
    QVERIFY2(dialog->reportText().contains(u"verdict: unknown"_s), qPrintable(dialog->reportText()));
    QVERIFY(!dialog->referenceButton()->isEnabled());
    QCOMPARE(dialog->errorGrid().rows, 0);
    QVERIFY(!dialog->errorPlot()->isVisible() && !dialog->columnPlot()->isVisible());
    dialog->resize(900, 860);
    QTest::qWait(0);
    qInfo().noquote() << TestShots::save(dialog->grab(), u"check-unknown"_s);
}

// The button sets the parameters of the matched reference, and Edit > Undo takes them back.
void TestCheckWindow::theReferenceButtonIsOneUndoStep()
{
    MainWindow window(start(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const Params before = window.controlPanel()->params();
    TableCheckDialog *dialog = checkAndWait(window, m_correct);
    QVERIFY(dialog);
    QVERIFY(dialog->match() && dialog->match()->params);
    QVERIFY(dialog->referenceButton()->isEnabled());
    const int steps = window.history()->stack()->count();
    QTest::mouseClick(dialog->referenceButton(), Qt::LeftButton);
    const Params after = window.controlPanel()->params();
    QCOMPARE(after.encoding, Encoding::Sinusoidal);
    QCOMPARE(after.dModel, kCols);
    QCOMPARE(after.sinusoidal.base, 10000.0);
    QCOMPARE(after.sinusoidal.layout, Layout::Interleaved);
    QCOMPARE(after.sinusoidal, dialog->match()->params->sinusoidal);
    QCOMPARE(after.maxLen, dialog->match()->params->maxLen);
    QVERIFY(after.maxLen >= kRows);
    QCOMPARE(window.history()->stack()->count(), steps + 1);
    window.history()->stack()->undo();
    QCOMPARE(window.controlPanel()->params(), before);
    window.history()->stack()->redo();
    QCOMPARE(window.controlPanel()->params(), after);
}

// Gemma 3's config: two layer types, their describe numbers and findings, and a button each.
void TestCheckWindow::aModelConfig()
{
    MainWindow window(start(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QAction *action = window.menuBar()->findChild<QAction *>(u"openModelConfigAction"_s);
    QVERIFY(action);
    QCOMPARE(action->text(), u"Open model &config…"_s);
    const QString path = QStringLiteral(POSENC_CONFIGS) + u"/gemma-3-1b-it.json"_s;
    ModelConfigDialog *dialog = window.menus()->openModelConfig(path);
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 60000);
    QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
    QVERIFY(dialog->check());
    QVERIFY(dialog->openButton(u"full_attention"_s));
    QVERIFY(dialog->openButton(u"sliding_attention"_s));
    // What the command line prints for the layer, and its findings with their severity in words.
    const ConfigLayer *sliding = dialog->check()->layer(u"sliding_attention"_s);
    QVERIFY(sliding);
    QString expected;
    for (const auto &[key, value] : CheckReport::layerEntries(*sliding, false)) {
        if (key != u"layer_type"_s)
            expected += u"%1: %2\n"_s.arg(key, value);
    }
    const QString text = dialog->layerText(u"sliding_attention"_s);
    QVERIFY2(text.startsWith(expected), qPrintable(text + u"\n--- expected to start with\n"_s + expected));
    QVERIFY2(text.contains(u"rope_theta: 10000\n"_s), qPrintable(text));
    QVERIFY2(text.contains(u"head_dim: 256\n"_s), qPrintable(text));
    bool findingShown = false;
    for (const ConfigFinding &f : dialog->check()->findings) {
        if (f.layerType == u"sliding_attention"_s) {
            QVERIFY2(text.contains(u"%1: %2"_s.arg(f.id, f.message)), qPrintable(text));
            QVERIFY2(text.contains(ConfigFindings::severityWord(f.severity) + u' ' + f.id), qPrintable(text));
            findingShown = true;
        }
    }
    QVERIFY(findingShown);
    dialog->resize(1000, 760);
    QTest::qWait(0);
    qInfo().noquote() << TestShots::save(dialog->grab(), u"config-gemma3"_s);

    const Params before = window.controlPanel()->params();
    const int steps = window.history()->stack()->count();
    QTest::mouseClick(dialog->openButton(u"sliding_attention"_s), Qt::LeftButton);
    const Params after = window.controlPanel()->params();
    QCOMPARE(after.encoding, Encoding::Rope);
    QCOMPARE(after.rope.theta, 10000.0);
    QCOMPARE(after.rope.headDim, std::int64_t(256));
    QCOMPARE(after.rope, sliding->params.rope);
    QCOMPARE(after.maxLen, std::min<std::int64_t>(sliding->params.maxLen, CheckReport::kWindowMaxLen));
    QCOMPARE(window.history()->stack()->count(), steps + 1);
    QTest::mouseClick(dialog->openButton(u"full_attention"_s), Qt::LeftButton);
    QCOMPARE(window.controlPanel()->params().rope.theta, 1000000.0);
    QCOMPARE(window.history()->stack()->count(), steps + 2);
    window.history()->stack()->undo();
    QCOMPARE(window.controlPanel()->params(), after);
    window.history()->stack()->undo();
    QCOMPARE(window.controlPanel()->params(), before);
}

// An error and a warning: each marked by its severity in words, and the layers the error leaves
// uncomputable cannot be opened.
void TestCheckWindow::aModelConfigWithAnError()
{
    MainWindow window(start(), nullptr);
    const QString path = m_dir.filePath(u"odd.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
                  "max_position_embeddings": 8192, "rope_theta": 500000.0, "partial_rotary_factor": 0.5078125,
                  "rope_scaling": {"type": "linear", "factor": 2.0}})");
    file.close();
    ModelConfigDialog *dialog = window.menus()->openModelConfig(path);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 60000);
    QVERIFY(dialog->check());
    QVERIFY2(dialog->summary().contains(u"1 error, 1 warning, 0 notes"_s), qPrintable(dialog->summary()));
    const QLabel *error = dialog->findChild<QLabel *>(u"finding-odd-rotary-dim"_s);
    QVERIFY(error);
    QVERIFY2(error->text().startsWith(u"\u2716 error odd-rotary-dim: "_s), qPrintable(error->text()));
    QCOMPARE(error->accessibleName(), u"error odd-rotary-dim"_s);
    const QLabel *warning = dialog->findChild<QLabel *>(u"finding-legacy-type-key"_s);
    QVERIFY(warning);
    QVERIFY2(warning->text().startsWith(u"\u26A0 warning legacy-type-key: "_s), qPrintable(warning->text()));
    QVERIFY(dialog->openButton(u"full_attention"_s));
    QVERIFY(!dialog->openButton(u"full_attention"_s)->isEnabled());
    dialog->resize(1000, 760);
    QTest::qWait(0);
    qInfo().noquote() << TestShots::save(dialog->grab(), u"config-error"_s);
}

// A file that is no config says why, and shows no layer.
void TestCheckWindow::aModelConfigRefused()
{
    MainWindow window(start(), nullptr);
    const QString path = m_dir.filePath(u"config.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"model_type": "llama", "rope_theta": "big"})");
    file.close();
    ModelConfigDialog *dialog = window.menus()->openModelConfig(path);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 60000);
    QVERIFY(!dialog->check());
    QVERIFY2(dialog->problem().contains(u"rope_theta"_s), qPrintable(dialog->problem()));
    QVERIFY(!dialog->openButton(u"full_attention"_s));
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

QTEST_MAIN(TestCheckWindow)
#include "tst_checkwindow.moc"
