// A grid's marked cells (a dropout mask's dropped ones, a batch's padding) as HeatmapMarks draws
// them, against each cell filled alone.
#include "render/HeatmapMarks.h"
#include "render/SwatchLegend.h"
#include "support/TestMain.h"

#include <QRandomGenerator>
#include <QTest>

namespace tst_heatmapmarks {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestHeatmapMarks : public QObject
{
    Q_OBJECT

private slots:
    void marksFillTheirCellsAsOneByOne_data();
    void marksFillTheirCellsAsOneByOne();
};

void TestHeatmapMarks::marksFillTheirCellsAsOneByOne_data()
{
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("p");
    QTest::addColumn<bool>("zoomed");
    QTest::addColumn<bool>("reversed");
    QTest::addColumn<bool>("whole"); // a cell a unit, its edges on whole units
    QTest::newRow("window, half dropped") << 1.0 << 0.5 << false << true << false;
    QTest::newRow("window, most dropped") << 1.0 << 0.9 << false << false << false;
    QTest::newRow("twice the pixels") << 2.0 << 0.6 << false << true << false;
    QTest::newRow("a file at 1.7") << 1.7 << 0.7 << false << false << false;
    QTest::newRow("zoomed past the cells") << 1.0 << 0.8 << true << true << false;
    QTest::newRow("zoomed, twice the pixels") << 2.0 << 0.3 << true << false << false;
    // Edges on half device pixels, where the raster engine's rounding of a cell's right edge
    // (its left plus its width, scaled) and of the next cell's left may part.
    QTest::newRow("whole units at 1.5") << 1.5 << 0.7 << false << false << true;
    QTest::newRow("whole units at 2.5, rows reversed") << 2.5 << 0.6 << false << true << true;
    QTest::newRow("whole units at 1.5, zoomed") << 1.5 << 0.8 << true << false << true;
}

// A grid's dropped and padded cells (a dropout mask, a batch's padding), drawn by HeatmapMarks, fill
// the pixels each cell's own fill gives (QPainter::fillRect, the hatch over a padded one), where the
// cells lie on fractional pixels, the rows run either way, and the view is zoomed so that the axis
// rect clips them: a run of neighbouring cells is filled at once.
void TestHeatmapMarks::marksFillTheirCellsAsOneByOne()
{
    QFETCH(double, scale);
    QFETCH(double, p);
    QFETCH(bool, zoomed);
    QFETCH(bool, reversed);
    QFETCH(bool, whole);
    // Cells of 1.5 units or less, 4 output pixels at most: none wide enough to be outlined.
    constexpr int kRows = 121, kCols = 163;
    QCustomPlot plot;
    plot.setPlottingHint(QCP::phCacheLabels, false);
    plot.axisRect()->setAutoMargins(QCP::msNone);
    plot.axisRect()->setMargins(QMargins(7, 5, 9, 6));
    for (QCPAxis *axis : plot.axisRect()->axes()) {
        axis->setVisible(false);
        axis->grid()->setVisible(false);
    }
    const QCPRange keys(0.0, kCols - 1.0), values(0.0, kRows - 1.0);
    plot.xAxis->setRange(zoomed ? QCPRange(16.3, 137.7) : QCPRange(-0.5, kCols - 0.5));
    plot.yAxis->setRange(zoomed ? QCPRange(14.6, 104.2) : QCPRange(-0.5, kRows - 0.5));
    plot.yAxis->setRangeReversed(reversed);
    auto *marks = new HeatmapMarks(plot.xAxis, plot.yAxis);
    marks->setGrid(keys, values, kCols, kRows);
    QRandomGenerator random(17);
    std::vector<CellMark> cells(static_cast<std::size_t>(kRows) * kCols);
    for (CellMark &cell : cells) {
        const double u = random.generateDouble();
        cell = u < p ? CellMark::Dropped : u < p + (1.0 - p) / 3.0 ? CellMark::Padding : CellMark::None;
    }
    marks->setMarks(cells);
    const QSize size = whole ? QSize(7 + kCols + 9, 5 + kRows + 6) : QSize(263, 191);
    plot.setViewport(QRect(QPoint(0, 0), size));
    plot.replot();
    const quint64 fillsBefore = HeatmapMarks::markFills();
    const QImage drawn
        = plot.toPixmap(size.width(), size.height(), scale).toImage().convertToFormat(QImage::Format_RGB32);

    // Each cell filled alone, edges as QCPColorMap puts them (centres evenly over the grid's range,
    // half a step beyond), clipped as QCPLayer::draw clips a plottable (its rect a pixel higher).
    QImage cellByCell(drawn.size(), QImage::Format_RGB32);
    cellByCell.fill(Qt::white);
    QCPPainter painter(&cellByCell);
    painter.scale(scale, scale);
    painter.setAntialiasing(false);
    const QRect clip = plot.axisRect()->rect();
    painter.setClipRect(clip.translated(0, -1));
    const auto edge = [](QCPAxis *axis, const QCPRange &centres, int n, int i) {
        const double step = centres.size() / (n - 1);
        return axis->coordToPixel(centres.lower - 0.5 * step + i * step);
    };
    int filled = 0;
    for (int a = 0; a < kRows; ++a) {
        for (int b = 0; b < kCols; ++b) {
            const CellMark mark = cells[static_cast<std::size_t>(a) * kCols + b];
            const QRectF cell
                = QRectF(QPointF(edge(plot.xAxis, keys, kCols, b), edge(plot.yAxis, values, kRows, a)),
                         QPointF(edge(plot.xAxis, keys, kCols, b + 1), edge(plot.yAxis, values, kRows, a + 1)))
                      .normalized();
            if (mark == CellMark::None || !cell.intersects(clip))
                continue;
            painter.fillRect(cell, HeatmapMarks::droppedColor());
            if (mark == CellMark::Padding)
                painter.fillRect(cell, SwatchLegend::hatchBrush());
            ++filled;
        }
    }
    painter.end();
    QVERIFY(filled > 100);
    // Neighbours filled at once: far fewer fills than cells.
    const quint64 fills = HeatmapMarks::markFills() - fillsBefore;
    QVERIFY2(fills > 0 && fills < quint64(filled) * 3 / 4,
             qPrintable(u"%1 fills of %2 cells"_s.arg(fills).arg(filled)));
    QCOMPARE(drawn.size(), cellByCell.size());
    int differing = 0;
    for (int yy = 0; yy < drawn.height(); ++yy)
        for (int xx = 0; xx < drawn.width(); ++xx)
            differing += drawn.pixel(xx, yy) != cellByCell.pixel(xx, yy);
    QCOMPARE(differing, 0);
}

POSENC_TEST_MAIN(TestHeatmapMarks)
} // namespace tst_heatmapmarks
#include "tst_heatmapmarks.moc"
