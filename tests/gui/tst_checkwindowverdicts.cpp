// What the check window shows for each kind of table and config (docs/ARCHITECTURE.md, The check
// window): a mistake at one cell, a named mistake, a RoPE table that sets the parameters, a declared
// reference, an ALiBi mask cell, an unknown table, and configs read, with an error and refused
// (tst_checkwindow holds how it opens, reads files, pools and computes off the GUI thread).
#include "gui/CheckReference.h"
#include "gui/ControlPanel.h"
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
#include <QTextStream>
#include <QTreeWidget>
#include <QUndoStack>

#include <cmath>
#include <limits>
#include <optional>

namespace tst_checkwindowverdicts {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace CheckWindowTesting;
class TestCheckWindowVerdicts : public QObject, private CheckWindowFixture
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aMistakeAtOneCell();
    void aNamedMistakeAgainstTheCorrectTable();
    void aRopeCosTableSetsARope();
    void aCosSinCacheIsReadAsItsHalves();
    void aDeclaredCosSinCacheNamesTheParameter();
    void anUnknownTableHasNoHeatmap();
    void aDeclaredReference();
    void anAlibiTableWithAChangedMaskCell();
    void theReferenceButtonIsOneUndoStep();
    void aModelConfig();
    void aModelConfigWithAnError();
    void aModelConfigRefused();
};

void TestCheckWindowVerdicts::initTestCase()
{
    useOwnSettings();
}

void TestCheckWindowVerdicts::init()
{
    writeTables();
}

// One cell 1e-3 off: a mistake at that cell, the heatmap's brightest cell there, its column's
// maximum 1e-3 and every other column's at the rounding.
void TestCheckWindowVerdicts::aMistakeAtOneCell()
{
    MainWindow window(start(), nullptr);
    QVERIFY(WindowFixture::shown(window));
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
void TestCheckWindowVerdicts::aNamedMistakeAgainstTheCorrectTable()
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
    QVERIFY(WindowFixture::shown(window));
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

// vLLM's cos|sin cache of Qwen3 8B's RoPE (theta 1e6, head_dim 2 * pairs), cat(cos, sin) of the
// default rope_type's frequencies in float64 (modeling_rope_utils.py, _compute_default_rope_parameters).
static RowMatrixXf cosSinCache(std::int64_t rows, std::int64_t pairs)
{
    RowMatrixXf cache(rows, 2 * pairs);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t i = 0; i < pairs; ++i) {
            const double angle = double(p) * std::pow(1000000.0, -2.0 * double(i) / double(2 * pairs));
            cache(p, i) = float(std::cos(angle));
            cache(p, pairs + i) = float(std::sin(angle));
        }
    return cache;
}

// vLLM's cos_sin_cache (vllm/model_executor/layers/rotary_embedding.py,
// RotaryEmbedding._compute_cos_sin_cache): cat(cos(freqs), sin(freqs)) along the last dimension,
// freqs = p * theta^(-2i/d) (Qwen3 8B: d 128, theta 1e6), in float64 here. The window reads it as
// posenc check does (PairedTables): each half the table it stands for, correct against Qwen3 8B;
// with one cell of the sin half 1e-3 off, a mistake.
void TestCheckWindowVerdicts::aCosSinCacheIsReadAsItsHalves()
{
    constexpr std::int64_t rows = 300, pairs = 64;
    const RowMatrixXf cache = cosSinCache(rows, pairs);
    for (const bool bumped : {false, true}) {
        RowMatrixXf table = cache;
        if (bumped)
            table(150, pairs + 6) += 1e-3f;
        const QString path = m_dir.filePath(bumped ? u"cos_sin_cache_bumped.npy"_s : u"cos_sin_cache.npy"_s);
        QVERIFY(!writeNpy(path, table));
        MainWindow window(start(), nullptr);
        QVERIFY(WindowFixture::shown(window));
        TableCheckDialog *dialog = window.menus()->checkTable(path);
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isChecking(), 120000);
        QVERIFY(dialog->match());
        const TableMatch &match = *dialog->match();
        const QString said = match.diagnosis + u" | "_s + match.notes.join(u"; "_s);
        QCOMPARE(match.verdict, bumped ? CheckVerdict::Mistake : CheckVerdict::Correct);
        if (!bumped) {
            QVERIFY2(match.correctAgainst.contains(u"the cos and sin halves of a cos|sin cache"_s), qPrintable(said));
            QVERIFY2(match.correctAgainst.contains(u"Qwen3 8B"_s), qPrintable(said));
        }
    }
}

// A cos|sin cache checked against the window's RoPE, as posenc check --expect rope checks it: each
// half against the declared family's table it stands for; at another rope_theta the mistake names
// the parameter from the frequencies the halves read as (TableCheck::nameDeclaredParameter).
void TestCheckWindowVerdicts::aDeclaredCosSinCacheNamesTheParameter()
{
    constexpr std::int64_t rows = 300, pairs = 64;
    const RowMatrixXf cache = cosSinCache(rows, pairs);
    const QString path = m_dir.filePath(u"declared_cos_sin_cache.npy"_s);
    QVERIFY(!writeNpy(path, cache));
    MainWindow window(start(), nullptr);
    TableCheckDialog *dialog = checkAndWait(window, path);
    QVERIFY(dialog);
    const auto checkAgainst = [&](double theta) {
        Params p;
        p.encoding = Encoding::Rope;
        p.dModel = 4096;
        p.maxLen = rows;
        p.rope.headDim = 2 * pairs;
        p.rope.theta = theta;
        window.controlPanel()->setParams(p);
        dialog->referenceRow()->choice()->setCurrentIndex(1);
        QTest::mouseClick(dialog->referenceRow()->checkAgain(), Qt::LeftButton);
        return QTest::qWaitFor([dialog] { return !dialog->isChecking(); }, 120000) && dialog->match();
    };
    QVERIFY(checkAgainst(1000000.0));
    QCOMPARE(dialog->match()->verdict, CheckVerdict::Correct);
    QVERIFY2(dialog->match()->correctAgainst.contains(u"the cos and sin halves of a cos|sin cache"_s),
             qPrintable(dialog->match()->correctAgainst));
    QVERIFY(checkAgainst(10000.0));
    const TableMatch &match = *dialog->match();
    QCOMPARE(match.verdict, CheckVerdict::Mistake);
    QVERIFY2(match.mistakes.contains(u"rope-theta"_s), qPrintable(match.mistakes.join(u", "_s)));
    QVERIFY2(match.diagnosis.contains(u"1000000"_s) || match.diagnosis.contains(u"1e+06"_s), qPrintable(match.diagnosis));
}

// HF's cos table (L x rotary_dim, rotate_half's layout: the frequencies twice): the reference is
// RoPE's, the heatmap |table − cos(p θ_i)| cell by cell (the float32 rounding), and the button
// sets that RoPE.
void TestCheckWindowVerdicts::aRopeCosTableSetsARope()
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
    QVERIFY(WindowFixture::shown(window));
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
void TestCheckWindowVerdicts::aDeclaredReference()
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

void TestCheckWindowVerdicts::anAlibiTableWithAChangedMaskCell()
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
void TestCheckWindowVerdicts::anUnknownTableHasNoHeatmap()
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
void TestCheckWindowVerdicts::theReferenceButtonIsOneUndoStep()
{
    MainWindow window(start(), nullptr);
    QVERIFY(WindowFixture::shown(window));
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
void TestCheckWindowVerdicts::aModelConfig()
{
    MainWindow window(start(), nullptr);
    QVERIFY(WindowFixture::shown(window));
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
void TestCheckWindowVerdicts::aModelConfigWithAnError()
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
void TestCheckWindowVerdicts::aModelConfigRefused()
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

POSENC_TEST_MAIN(TestCheckWindowVerdicts)
} // namespace tst_checkwindowverdicts
#include "tst_checkwindowverdicts.moc"
