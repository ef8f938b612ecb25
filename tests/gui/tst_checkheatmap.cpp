// The check window's heatmap at a zoom (docs/ARCHITECTURE.md, Checking a table, the window): a
// coarse preview first, a row of the table per pixel row, then every cell of the view once it
// rests, each pixel the largest |table − reference| of its cells. TableErrorGrid's preview is
// counted row by row on a table in memory; the dialog's order on a .npy file. No assertion is on
// time.
#include "gui/TableCheckDialog.h"
#include "gui/TableErrorGrid.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"
#include "io/NpyWriter.h"
#include "render/CoverageColorMap.h"
#include "render/QCustomPlot.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>

namespace tst_checkheatmap {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr std::int64_t kRows = 4096;
constexpr std::int64_t kCols = 32;
// A grid of 32 x 16 pixels: 128 rows of the table to a pixel row, 2 columns to a pixel column.
constexpr int kGridRows = 32;
constexpr int kGridCols = 16;
// The wrong cell: row 1000 lies in pixel row 7 (rows 896..1023), whose middle row 959 the preview
// reads.
constexpr std::int64_t kBadRow = 1000;
constexpr std::int64_t kBadCol = 5;
constexpr double kBump = 1e-3;

// The paper's sinusoid, interleaved, rounded to float32; one cell bumped.
RowMatrixXf bumpedSinusoid()
{
    RowMatrixXf table(kRows, kCols);
    for (std::int64_t p = 0; p < kRows; ++p)
        for (std::int64_t c = 0; c < kCols; ++c) {
            const double w = std::exp(-2.0 * double(c / 2) * std::log(10000.0) / double(kCols));
            table(p, c) = float(c % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w));
        }
    table(kBadRow, kBadCol) = float(double(table(kBadRow, kBadCol)) + kBump);
    return table;
}

// The rows of a table in memory, counting the rows read.
class CountedRows final : public TableRows
{
public:
    explicit CountedRows(const RowMatrixXf &values)
        : m_rows(std::make_shared<const RowMatrixXf>(values), StoredType::Float32, u"counted"_s)
    { }

    std::int64_t rows() const override { return m_rows.rows(); }
    std::int64_t cols() const override { return m_rows.cols(); }
    StoredType storedType() const override { return m_rows.storedType(); }
    QString name() const override { return m_rows.name(); }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        m_read += count;
        return m_rows.read(row0, count, out, error);
    }

    mutable std::atomic<std::int64_t> m_read {0};

private:
    MatrixRows m_rows;
};

// bumpedSinusoid() written as bumped.npy in `dir`: its path, or nothing where it cannot be written.
QString writeBumped(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(u"bumped.npy"_s);
    return dir.isValid() && !writeNpy(path, bumpedSinusoid()) ? path : QString();
}

// The zooms of the heatmap's rows the zoom tests make: in, further in, and out to every row.
constexpr std::pair<double, double> kZooms[] = {{767.5, 1791.5}, {1023.5, 1535.5}, {-0.5, 4095.5}};

} // namespace

class TestCheckHeatmap : public QObject
{
    Q_OBJECT

private slots:
    void thePreviewReadsARowAPixelRow();
    void aBlockOfFewRowsHasNoPreview();
    void theDialogShowsThePreviewThenEveryCell();
    void aZoomLeavesTheOtherPlotAlone();
    void aZoomColoursNothingOnTheGuiThread();
};

// The preview reads the middle row of each pixel row's band, 32 rows of 4096: the bumped cell,
// off the middle of its band, is seen by the full grid only; no preview pixel exceeds it.
void TestCheckHeatmap::thePreviewReadsARowAPixelRow()
{
    const CountedRows table(bumpedSinusoid());
    auto identified = TableCheck::identify(table, {});
    QVERIFY(std::holds_alternative<TableMatch>(identified));
    const TableMatch match = std::get<TableMatch>(identified);
    QVERIFY(match.reference);
    const Block whole {0, kRows, 0, kCols};
    const std::atomic<bool> cancel {false};
    QVERIFY(TableErrorGrid::hasPreview(whole, kGridRows));

    table.m_read = 0;
    const auto preview = TableErrorGrid::preview(match, table, whole, kGridRows, kGridCols, cancel);
    QVERIFY(std::holds_alternative<HeatmapGrid>(preview));
    QCOMPARE(table.m_read.load(), std::int64_t(kGridRows));
    const auto full = TableErrorGrid::maximum(match, table, whole, kGridRows, kGridCols, cancel);
    QVERIFY(std::holds_alternative<HeatmapGrid>(full));
    QCOMPARE(table.m_read.load(), std::int64_t(kGridRows + kRows));

    const HeatmapGrid &coarse = std::get<HeatmapGrid>(preview);
    const HeatmapGrid &exact = std::get<HeatmapGrid>(full);
    QCOMPARE(coarse.block, whole);
    QCOMPARE(coarse.rows, kGridRows);
    QCOMPARE(coarse.cols, kGridCols);
    const int badRow = int(kBadRow * kGridRows / kRows), badCol = int(kBadCol * kGridCols / kCols);
    QVERIFY2(std::abs(exact.at(badRow, badCol) - kBump) < 1e-5, qPrintable(QString::number(exact.at(badRow, badCol))));
    QVERIFY2(coarse.at(badRow, badCol) < kBump / 100, qPrintable(QString::number(coarse.at(badRow, badCol))));
    for (int r = 0; r < kGridRows; ++r)
        for (int c = 0; c < kGridCols; ++c)
            QVERIFY2(coarse.at(r, c) <= exact.at(r, c), qPrintable(u"pixel (%1, %2)"_s.arg(r).arg(c)));
}

// A pixel row a table row, or more: the full grid reads no more than a preview would.
void TestCheckHeatmap::aBlockOfFewRowsHasNoPreview()
{
    QVERIFY(!TableErrorGrid::hasPreview({0, 32, 0, 1024}, 32));
    QVERIFY(!TableErrorGrid::hasPreview({100, 10, 0, 8}, 384));
    QVERIFY(TableErrorGrid::hasPreview({100, 33, 0, 8}, 32));
}

// Opened, and at a zoom as the wheel makes one, the heatmap draws the preview of the view first
// (it misses the bumped cell), then every cell of it (which shows it).
void TestCheckHeatmap::theDialogShowsThePreviewThenEveryCell()
{
    QTemporaryDir dir;
    const QString path = writeBumped(dir);
    QVERIFY(!path.isEmpty());
    TableCheckDialog dialog(MatrixSource {path, std::nullopt}, std::uint64_t(1) << 30, {}, {});
    dialog.setGridLimit(QSize(kGridCols, kGridRows));
    QStringList drawn; // "preview" or "full", with the rows of the view drawn
    QList<HeatmapGrid> grids;
    const auto note = [&](const QString &what) {
        drawn.append(u"%1 %2"_s.arg(what).arg(dialog.errorGrid().block.rows));
        grids.append(dialog.errorGrid());
    };
    connect(&dialog, &TableCheckDialog::errorPreviewChanged, this, [&] { note(u"preview"_s); });
    connect(&dialog, &TableCheckDialog::errorGridChanged, this, [&] { note(u"full"_s); });
    dialog.show();
    QTRY_VERIFY_WITH_TIMEOUT(drawn.contains(u"full 4096"_s), 60000);
    QCOMPARE(drawn.first(), u"preview 4096"_s);
    const int badRow = int(kBadRow * kGridRows / kRows), badCol = int(kBadCol * kGridCols / kCols);
    QVERIFY(grids.first().at(badRow, badCol) < kBump / 100);
    QVERIFY(std::abs(dialog.errorGrid().at(badRow, badCol) - kBump) < 1e-5);
    QVERIFY(!dialog.errorGridIsPreview());

    // The rows 768..1791 in view: 1024 rows, 32 to a pixel row.
    drawn.clear();
    grids.clear();
    QCPAxisRect *rect = dialog.errorPlot()->axisRect();
    rect->axis(QCPAxis::atLeft)->setRange(767.5, 1791.5);
    QCOMPARE(dialog.viewBlock().rows, std::int64_t(1024));
    QTRY_VERIFY_WITH_TIMEOUT(drawn.contains(u"full 1024"_s), 60000);
    QCOMPARE(drawn.first(), u"preview 1024"_s);
    QCOMPARE(grids.first().block, dialog.errorGrid().block);
    // Row 1000 is in pixel row (1000 - 768) / 32 = 7 of the zoom, rows 992..1023: its middle
    // row 1007 is what the preview read.
    QVERIFY(grids.first().at(7, badCol) < kBump / 100);
    QVERIFY(std::abs(dialog.errorGrid().at(7, badCol) - kBump) < 1e-5);
}

// Zooms of the heatmap, each drawn as a preview and then in full, replot the heatmap only: the
// caption under it, which says "Computing rows …" and then what the grid shows (a line, then
// three), keeps its height, so the per-column plot below is neither resized nor replotted, and the
// heatmap keeps its size. The caption that shrank and grew at every zoom resized both plots twice,
// each resize a replot of every layer: a third of the GUI thread's time a zoom.
void TestCheckHeatmap::aZoomLeavesTheOtherPlotAlone()
{
    QTemporaryDir dir;
    const QString path = writeBumped(dir);
    QVERIFY(!path.isEmpty());
    TableCheckDialog dialog(MatrixSource {path, std::nullopt}, std::uint64_t(1) << 30, {}, {});
    dialog.setGridLimit(QSize(kGridCols, kGridRows));
    int full = 0;
    connect(&dialog, &TableCheckDialog::errorGridChanged, this, [&] { ++full; });
    dialog.show();
    QTRY_VERIFY_WITH_TIMEOUT(full == 1, 60000);
    QCoreApplication::processEvents(); // the layout the first grid's caption asked for
    const QSize heatmap = dialog.errorPlot()->size(), columns = dialog.columnPlot()->size();
    int columnReplots = 0;
    connect(dialog.columnPlot(), &QCustomPlot::afterReplot, this, [&] { ++columnReplots; });
    QCPAxis *rows = dialog.errorPlot()->axisRect()->axis(QCPAxis::atLeft);
    for (const auto &[lower, upper] : kZooms) {
        rows->setRange(lower, upper);
        dialog.errorPlot()->replot();
        const int before = full;
        QTRY_VERIFY_WITH_TIMEOUT(full == before + 1, 60000);
        QCoreApplication::processEvents();
        QCOMPARE(dialog.errorPlot()->size(), heatmap);
        QCOMPARE(dialog.columnPlot()->size(), columns);
    }
    QCOMPARE(columnReplots, 0);
}

// A zoom colours no cell and computes no coverage on the GUI thread: the replot of the zoom itself,
// whose cells the preview replaces within a turn of the event loop, draws the last image stretched
// to the new view (CoverageColorMap::setDataPending), and the preview's and the full grid's map
// images and coverages are made by the grid's job (HeatmapPanel::prepareCoverage) and taken as they
// are. The GUI thread computed the coverage of the old cells at the new view first, half of its
// time a zoom; then it coloured the cells, a logarithm each: 20 ms of a zoom out to the whole table.
void TestCheckHeatmap::aZoomColoursNothingOnTheGuiThread()
{
    QTemporaryDir dir;
    const QString path = writeBumped(dir);
    QVERIFY(!path.isEmpty());
    TableCheckDialog dialog(MatrixSource {path, std::nullopt}, std::uint64_t(1) << 30, {}, {});
    dialog.setGridLimit(QSize(kGridCols, kGridRows));
    int full = 0;
    QList<quint64> atPreview;
    quint64 before = 0;
    // The cells the map holds, as drawn (the errors under the scale's floor raised to it).
    const auto mapCells = [&dialog] {
        QList<double> cells;
        for (int i = 0; i < dialog.errorPlot()->plottableCount(); ++i) {
            if (auto *map = qobject_cast<QCPColorMap *>(dialog.errorPlot()->plottable(i))) {
                for (int r = 0; r < map->data()->valueSize(); ++r)
                    for (int c = 0; c < map->data()->keySize(); ++c)
                        cells.append(map->data()->cell(c, r));
            }
        }
        return cells;
    };
    connect(&dialog, &TableCheckDialog::errorGridChanged, this, [&] { ++full; });
    connect(&dialog, &TableCheckDialog::errorPreviewChanged, this,
            [&] { atPreview.append(CoverageColorMap::computedImages() - before); });
    dialog.show();
    QTRY_VERIFY_WITH_TIMEOUT(full == 1, 60000);
    QCoreApplication::processEvents();
    atPreview.clear();
    QCPAxis *rows = dialog.errorPlot()->axisRect()->axis(QCPAxis::atLeft);
    for (const auto &[lower, upper] : kZooms) {
        const int fullBefore = full;
        before = CoverageColorMap::computedImages();
        const quint64 mapsBefore = CoverageColorMap::adoptedMapImages();
        const quint64 colouredBefore = CoverageColorMap::colouredMapImages();
        rows->setRange(lower, upper);
        dialog.errorPlot()->replot();
        QTRY_VERIFY_WITH_TIMEOUT(full == fullBefore + 1, 60000);
        dialog.errorPlot()->replot(QCustomPlot::rpImmediateRefresh);
        // The full grid, at rest, drawn from its job's image and coverage as the preview was.
        QCOMPARE(CoverageColorMap::computedImages() - before, quint64(0));
        QCOMPARE(CoverageColorMap::colouredMapImages(), colouredBefore);
        QVERIFY(CoverageColorMap::adoptedMapImages() > mapsBefore);
        QCOMPARE(mapCells().size(), kGridCols * kGridRows);
    }
    QCOMPARE(atPreview, (QList<quint64> {0, 0, 0}));
    // An export while cells are on their way computes its own coverage: the exported image is every
    // cell's, never a stretched one.
    before = CoverageColorMap::computedImages();
    rows->setRange(-0.5, 2047.5);
    dialog.errorPlot()->replot();
    const QImage exported = dialog.errorPlot()->toPixmap(200, 150).toImage();
    QVERIFY(!exported.isNull());
    QVERIFY(CoverageColorMap::computedImages() - before >= 1);
}

POSENC_TEST_MAIN(TestCheckHeatmap)
} // namespace tst_checkheatmap
#include "tst_checkheatmap.moc"
