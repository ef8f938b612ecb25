// A key on a page short of room where no corner of its plot is free (FigureRoom's legendsOverData,
// LegendPlacement::leastCovered): as matplotlib's loc="best" (matplotlib/lib/matplotlib/legend.py,
// Legend._find_best_position, the first place of least badness), it goes over the data where it
// hides no line and crosses the fewest lines drawn over the plot, the first such place in
// matplotlib's order (upper right, upper left, lower left, lower right, right, centre left, ...),
// and back in its row when the steps are undone; where every place would hide more than
// FigureRoom::Steps::kMostHidden of some one line, it stays in its row, or goes above the data
// where its value axis grows at the top by as much (legendsOverHeadroom). An entry little room
// would cut takes the first shorter form its figure gives that holds whole (ShorterLabels::setEntry).
#include "render/DirectLabelCells.h"
#include "render/DirectLabels.h"
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "render/FigureRoomSteps.h"
#include "render/LegendPlacement.h"
#include "render/PinnedFont.h"
#include "render/ShorterLabels.h"
#include "render/SwatchLegend.h"
#include "support/TestMain.h"

#include <QRandomGenerator>
#include <QTest>

#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

namespace tst_legendplacement {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A 300 x 240 plot (short of room at 9 pt: under 5000 squares of 12 units) of one axis rect over
// 0..10 both ways, its diagonal from the lower left to the upper right a graph named in a key of
// one entry, `name`, in a row below the rect.
struct Panel
{
    QCPAxisRect *rect = nullptr;
    QCPLegend *legend = nullptr;
};

Panel diagonalWithKey(QCustomPlot &plot, const QString &name)
{
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 300, 240));
    plot.setAutoAddPlottableToLegend(false);
    plot.plotLayout()->clear();
    Panel panel;
    panel.rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, panel.rect);
    panel.legend = new QCPLegend;
    panel.legend->setFont(font);
    plot.plotLayout()->addElement(1, 0, panel.legend);
    plot.plotLayout()->setRowStretchFactor(1, 0.001);
    for (QCPAxis *axis : {panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft)}) {
        axis->setTickLabelFont(font);
        axis->setRange(0.0, 10.0);
    }
    QCPGraph *diagonal = plot.addGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
    QList<double> x;
    for (int i = 0; i <= 100; ++i)
        x.append(0.1 * i);
    diagonal->setData(x, x, true);
    diagonal->setName(name);
    panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, diagonal));
    return panel;
}

// A line across the whole rect at `at` (data units), horizontal or vertical: drawn over it as a
// reference line (an item) or as data (a graph).
void frameLine(QCustomPlot &plot, QCPAxisRect *rect, Qt::Orientation orientation, double at, bool data)
{
    QCPAxis *x = rect->axis(QCPAxis::atBottom), *y = rect->axis(QCPAxis::atLeft);
    const QPointF a = orientation == Qt::Horizontal ? QPointF(0.0, at) : QPointF(at, 0.0);
    const QPointF b = orientation == Qt::Horizontal ? QPointF(10.0, at) : QPointF(at, 10.0);
    if (data) {
        plot.addGraph(x, y)->setData({a.x(), b.x()}, {a.y(), b.y()});
        return;
    }
    auto *line = new QCPItemStraightLine(&plot);
    line->setClipAxisRect(rect);
    line->point1->setAxes(x, y);
    line->point2->setAxes(x, y);
    line->point1->setCoords(a);
    line->point2->setCoords(b);
}

} // namespace

class TestLegendPlacement : public QObject
{
    Q_OBJECT

private slots:
    void aKeyGoesWhereItHidesLeast();
    void aKeyHidingTooMuchStaysBelow();
    void aKeyGoesAboveTheDataOnHeadroom();
    void anEntryTakesAShorterFormWhole();
    void shorterFormsSaveARow();
    void aBandIsData();
    void aWavyBandIsMeasuredAsQtClipsIt();
    void aColourMapsClearCellsAreRoom();
    void labelCellsCountWhatWasMarked();
    void aKeyLetsGoOfTheCurvesItsLabelsName();
    void anEntryTakenOutWhoseCurveWentStaysOut();
};

// Reference lines framing the rect half a unit in from each edge cross every corner and the middle
// of every side; the diagonal crosses the centre and two corners. The middle of the right side
// hides no line and crosses one reference line (x = 9.5), the first such place in the order (the
// middles of the bottom and the top do as well); the corners cross two, the centre hides a part of
// the diagonal.
void TestLegendPlacement::aKeyGoesWhereItHidesLeast()
{
    QCustomPlot plot;
    const Panel panel = diagonalWithKey(plot, u"line"_s);
    for (const double at : {0.5, 9.5}) {
        frameLine(plot, panel.rect, Qt::Horizontal, at, false);
        frameLine(plot, panel.rect, Qt::Vertical, at, false);
    }
    plot.replot();
    QVERIFY(FigureRoom::shortOfRoom(plot, 9.0));
    const QSize size = LegendPlacement::stackedSize(panel.legend, 1);
    const int grownBy = panel.legend->outerRect().height();
    QVERIFY2(!LegendPlacement::freeCorner(panel.rect, size, grownBy), "no place is free of the lines");
    QVERIFY(!FigureRoom::Steps::legendsInside(&plot));

    QVERIFY(FigureRoom::Steps::legendsOverData(&plot));
    plot.replot();
    QCOMPARE(panel.legend->layout(), panel.rect->insetLayout());
    QCOMPARE(panel.rect->insetLayout()->insetAlignment(0), Qt::AlignVCenter | Qt::AlignRight);
    // Over the data, the rect's middle right, clear of the diagonal (x = y) and of the top and bottom lines.
    const QRect box = panel.legend->outerRect();
    QCPAxis *x = panel.rect->axis(QCPAxis::atBottom), *y = panel.rect->axis(QCPAxis::atLeft);
    QVERIFY(panel.rect->rect().adjusted(-1, -1, 1, 1).contains(box));
    QVERIFY2(x->pixelToCoord(box.left()) > y->pixelToCoord(box.top()), "the legend meets the diagonal");
    QVERIFY(y->pixelToCoord(box.top()) < 9.5 && y->pixelToCoord(box.bottom()) > 0.5);
    FigureRoom::restore(&plot);
    QCOMPARE(panel.legend->layout(), plot.plotLayout());
}

// The same frame drawn as data, ten horizontal lines a unit apart: every place hides a stretch of
// some line as long as the legend is wide, over a third of the rect.
void TestLegendPlacement::aKeyHidingTooMuchStaysBelow()
{
    QCustomPlot plot;
    const Panel panel = diagonalWithKey(plot, u"the diagonal's long name"_s);
    for (int i = 0; i < 10; ++i)
        frameLine(plot, panel.rect, Qt::Horizontal, 0.5 + i, true);
    plot.replot();
    const QSize size = LegendPlacement::stackedSize(panel.legend, 1);
    QVERIFY2(size.width() > 0.3 * panel.rect->width(), qPrintable(QString::number(size.width())));
    QVERIFY(!LegendPlacement::leastCovered(panel.rect, size, panel.legend->outerRect().height(),
                                           FigureRoom::Steps::kMostHidden));
    QVERIFY(!FigureRoom::Steps::legendsOverData(&plot));
    QCOMPARE(panel.legend->layout(), plot.plotLayout());
}

// The same ten lines: the key's row given to the plot, the y axis grows at its top end by the
// key's share of the plot (its height and a few units of air), and the key stands in the plot's
// top, above every line (matplotlib users' set_ylim(top=...) for a legend); undone, the axis and
// the key are back. A key that would take more than a third of the plot's height stays below.
void TestLegendPlacement::aKeyGoesAboveTheDataOnHeadroom()
{
    QCustomPlot plot;
    const Panel panel = diagonalWithKey(plot, u"line"_s);
    for (int i = 0; i < 10; ++i)
        frameLine(plot, panel.rect, Qt::Horizontal, 0.5 + i, true);
    plot.replot();
    QVERIFY(!FigureRoom::Steps::legendsOverData(&plot));
    QCPAxis *y = panel.rect->axis(QCPAxis::atLeft);
    const int keyHeight = panel.legend->outerRect().height();
    const int plotHeight = panel.rect->height() + keyHeight;

    QVERIFY(FigureRoom::Steps::legendsOverHeadroom(&plot));
    plot.replot();
    QCOMPARE(panel.legend->layout(), panel.rect->insetLayout());
    QVERIFY(panel.rect->insetLayout()->insetAlignment(0) & Qt::AlignTop);
    QCOMPARE(y->range().lower, 0.0);
    // The range grown so that 0..10 takes the plot's height but the key's share of it.
    const double share = (LegendPlacement::stackedSize(panel.legend, 1).height() + 6.0) / plotHeight;
    QVERIFY2(std::abs(y->range().upper - 10.0 / (1.0 - share)) < 1e-9, qPrintable(QString::number(y->range().upper)));
    QVERIFY(y->range().upper < 10.0 * 1.5);
    const QRect box = panel.legend->outerRect();
    QVERIFY(panel.rect->rect().adjusted(-1, -1, 1, 1).contains(box));
    QVERIFY2(y->pixelToCoord(box.bottom()) > 10.0, qPrintable(QString::number(y->pixelToCoord(box.bottom()))));
    FigureRoom::restore(&plot);
    QCOMPARE(y->range(), QCPRange(0.0, 10.0));
    QCOMPARE(panel.legend->layout(), plot.plotLayout());

    // Two entries too long to stand side by side, in a column, on a plot so high that with their
    // air they take more than a third of it, though less than the 0.4 that FigureFit keeps inside:
    // the key stays below.
    plot.graph(0)->setName(u"the diagonal's long name"_s);
    QCPGraph *more = plot.addGraph(panel.rect->axis(QCPAxis::atBottom), y);
    more->setName(u"another line's long name"_s);
    panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, more));
    panel.legend->setWrap(1);
    panel.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    bool tried = false;
    for (int height = 100; height <= 240 && !tried; ++height) {
        plot.setViewport(QRect(0, 0, 300, height));
        plot.replot();
        const int key = LegendPlacement::stackedSize(panel.legend, 1).height();
        const double taken = (key + 6.0) / (panel.rect->height() + panel.legend->outerRect().height());
        if (taken <= FigureRoom::Steps::kMostHeadroom
            || key > 0.4 * (panel.rect->height() + panel.legend->outerRect().height()))
            continue;
        tried = true;
        QVERIFY(LegendPlacement::stackedSize(panel.legend, 2).width() > panel.rect->width() - 8);
        QVERIFY(!FigureRoom::Steps::legendsOverHeadroom(&plot));
        QCOMPARE(y->range(), QCPRange(0.0, 10.0));
        QCOMPARE(panel.legend->layout(), plot.plotLayout());
    }
    QVERIFY2(tried, "no plot height leaves the key between a third and 0.4 of it");
}

// On a page 260 units wide two entries "L₀ = max-len = 1,024" side by side, with their icons, are
// wider than the page: the entry with shorter forms shows the first that lets the key stand in its
// columns whole, "L₀ = 1,024"; one without is cut (at its words, not within its number); both come
// back whole.
void TestLegendPlacement::anEntryTakesAShorterFormWhole()
{
    QCustomPlot plot;
    const Panel panel = diagonalWithKey(plot, u"L₀ = max-len = 1,024"_s);
    plot.setViewport(QRect(0, 0, 260, 240));
    QCPGraph *withForms = plot.graph(0);
    ShorterLabels::setEntry(withForms, {u"L₀ = max-len = 1,024 a longer form"_s, u"L₀ = 1,024"_s, u"L₀"_s});
    QCPGraph *without = plot.addGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
    without->setName(u"L₀ = max-len = 1,024"_s);
    panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, without));
    plot.replot();
    const QFontMetricsF metrics(panel.legend->font());
    const double besides = panel.legend->iconSize().width() + panel.legend->iconTextPadding();
    QVERIFY(2.0 * (metrics.horizontalAdvance(u"L₀ = max-len = 1,024"_s) + besides) > 260.0);

    QVERIFY(FigureRoom::Steps::elideEntries(&plot));
    QCOMPARE(withForms->name(), u"L₀ = 1,024"_s);
    QVERIFY2(without->name().endsWith(u'…') && without->name().startsWith(u"L₀ ="_s), qPrintable(without->name()));
    FigureRoom::restore(&plot);
    QCOMPARE(withForms->name(), u"L₀ = max-len = 1,024"_s);
    QCOMPARE(without->name(), u"L₀ = max-len = 1,024"_s);
}

// Four entries "weight of head 1" .. "weight of head 4", whole, stand in three columns on a page
// 520 units wide, in two rows, and not in four. Where each has a shorter form ("h1" .. "h4") the
// key stands in four columns, one row, in those forms, none cut; where one of them has none, the
// key keeps its entries whole in two rows (no cut to save a row).
void TestLegendPlacement::shorterFormsSaveARow()
{
    for (const bool everyOne : {true, false}) {
        QCustomPlot plot;
        const QString name = u"weight of head %1"_s;
        const Panel panel = diagonalWithKey(plot, name.arg(1));
        QList<QCPGraph *> graphs {plot.graph(0)};
        for (int i = 2; i <= 4; ++i) {
            graphs.append(plot.addGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft)));
            graphs.back()->setName(name.arg(i));
            panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, graphs.back()));
        }
        for (int i = 0; i < 4; ++i)
            if (everyOne || i > 0)
                ShorterLabels::setEntry(graphs[i], {u"h%1"_s.arg(i + 1)});
        plot.setViewport(QRect(0, 0, 520, 240));
        plot.replot();
        const double entry = panel.legend->item(0)->minimumOuterSizeHint().width();
        const QMargins margins = panel.legend->margins();
        const double room = 520.0 - 8.0 - margins.left() - margins.right();
        QVERIFY2(3.0 * entry + 2.0 * panel.legend->columnSpacing() <= room, qPrintable(QString::number(entry)));
        QVERIFY2(4.0 * entry + 3.0 * panel.legend->columnSpacing() > room, qPrintable(QString::number(entry)));

        QCOMPARE(FigureRoom::Steps::elideEntries(&plot), everyOne);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(graphs[i]->name(), everyOne ? u"h%1"_s.arg(i + 1) : name.arg(i + 1));
        FigureRoom::restore(&plot);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(graphs[i]->name(), name.arg(i + 1));
    }
}

// A band a graph fills to another, its edges drawn without a pen, is data a key's ground would
// notch (what-dropout-does' p ± 4σ band under its key): a band over the whole plot, its edges
// past the rect's top and bottom, leaves no place free, and a key its figure set in the plot to
// stand where it hides the least goes there without its ground.
void TestLegendPlacement::aBandIsData()
{
    QCustomPlot plot;
    const Panel panel = diagonalWithKey(plot, u"line"_s);
    QList<double> x, low, high;
    for (int i = 0; i <= 10; ++i) {
        x.append(i);
        low.append(-1.0);
        high.append(11.0);
    }
    QCPGraph *lower = plot.addGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
    QCPGraph *upper = plot.addGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
    lower->setData(x, low, true);
    upper->setData(x, high, true);
    lower->setPen(Qt::NoPen);
    upper->setPen(Qt::NoPen);
    upper->setBrush(QColor(200, 220, 240));
    upper->setChannelFillGraph(lower);
    plot.replot();
    const QSize size = LegendPlacement::stackedSize(panel.legend, 1);
    QVERIFY2(!LegendPlacement::freeCorner(panel.rect, size, 0), "the band is under every place");
    QVERIFY(LegendPlacement::leastCovered(panel.rect, size, 0, 1.0));

    plot.plotLayout()->take(panel.legend);
    plot.plotLayout()->simplify();
    panel.rect->insetLayout()->addElement(panel.legend, Qt::AlignTop | Qt::AlignLeft);
    panel.legend->setBrush(Qt::white);
    panel.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    LegendPlacement::setBest(panel.legend);
    plot.replot();
    LegendPlacement::placeBest(panel.legend, panel.rect);
    QCOMPARE(panel.legend->brush(), QBrush());
    // Without the band, the first free place in matplotlib's order, its ground kept.
    plot.removeGraph(upper);
    plot.replot();
    LegendPlacement::placeBest(panel.legend, panel.rect);
    QCOMPARE(panel.legend->brush(), QBrush(Qt::white));
}

// A band of thousands of points (a sinusoid's samples, as the curves' bands are) hides at each place
// the share of its area that LegendPlacement measures by clipping its outline to the place's box:
// the place chosen is the one where Qt's own clip of the two (QPolygonF::intersected, QPathClipper)
// leaves the least of the band, the first such in matplotlib's order; and a place is free of it
// exactly where QPolygonF::intersects says the two do not meet.
void TestLegendPlacement::aWavyBandIsMeasuredAsQtClipsIt()
{
    QCustomPlot plot;
    plot.setViewport(QRect(0, 0, 300, 240));
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    QCPAxis *xAxis = rect->axis(QCPAxis::atBottom), *yAxis = rect->axis(QCPAxis::atLeft);
    xAxis->setRange(0.0, 10.0);
    yAxis->setRange(0.0, 10.0);
    QList<double> x, low, high;
    for (int i = 0; i <= 3000; ++i) {
        const double at = i / 300.0;
        x.append(at);
        low.append(4.0 + 3.0 * std::sin(2.3 * at) - 0.2 * at);
        high.append(low.constLast() + 1.0 + 0.3 * at + 0.5 * std::sin(40.0 * at));
    }
    QCPGraph *lower = plot.addGraph(xAxis, yAxis);
    QCPGraph *upper = plot.addGraph(xAxis, yAxis);
    lower->setData(x, low, true);
    upper->setData(x, high, true);
    lower->setPen(Qt::NoPen);
    upper->setPen(Qt::NoPen);
    upper->setBrush(QColor(200, 220, 240));
    upper->setChannelFillGraph(lower);
    plot.replot();

    // The band's outline in pixels: the upper edge, then the lower one back.
    QPolygonF band;
    for (qsizetype i = 0; i < x.size(); ++i)
        band.append(QPointF(xAxis->coordToPixel(x[i]), yAxis->coordToPixel(high[i])));
    for (qsizetype i = x.size() - 1; i >= 0; --i)
        band.append(QPointF(xAxis->coordToPixel(x[i]), yAxis->coordToPixel(low[i])));
    const auto areaOf = [](const QPolygonF &polygon) {
        double twice = 0.0;
        for (qsizetype i = 0; i < polygon.size(); ++i)
            twice += polygon[i].x() * polygon[(i + 1) % polygon.size()].y()
                - polygon[(i + 1) % polygon.size()].x() * polygon[i].y();
        return std::abs(twice) / 2.0;
    };
    // matplotlib's order of "best", and the box of a key of `size` at each place with its six units of
    // air (LegendPlacement's boxAt).
    const std::array<Qt::Alignment, 9> places {
        Qt::AlignTop | Qt::AlignRight,      Qt::AlignTop | Qt::AlignLeft,      Qt::AlignBottom | Qt::AlignLeft,
        Qt::AlignBottom | Qt::AlignRight,   Qt::AlignVCenter | Qt::AlignRight, Qt::AlignVCenter | Qt::AlignLeft,
        Qt::AlignBottom | Qt::AlignHCenter, Qt::AlignTop | Qt::AlignHCenter,   Qt::AlignCenter};
    const QRect r = rect->rect();
    const auto boxAt = [&r](QSize size, Qt::Alignment place) {
        const double width = std::min(1.0, (size.width() + 6.0) / r.width()) * r.width();
        const double height = std::min(1.0, (size.height() + 6.0) / r.height()) * r.height();
        const double left = place & Qt::AlignLeft ? r.left()
            : place & Qt::AlignRight              ? r.right() - width
                                                  : r.center().x() - width / 2.0;
        const double top = place & Qt::AlignTop ? r.top()
            : place & Qt::AlignBottom           ? r.bottom() - height
                                                : r.center().y() - height / 2.0;
        return QRectF(left, top, width, height);
    };
    const double whole = areaOf(band);
    for (const QSize size : {QSize(40, 20), QSize(70, 30), QSize(110, 60), QSize(30, 90)}) {
        std::optional<Qt::Alignment> least, free;
        double leastHidden = 0.0;
        for (const Qt::Alignment place : places) {
            const QRectF box = boxAt(size, place);
            const double hidden = areaOf(band.intersected(QPolygonF(box))) / whole;
            if (!least || hidden < leastHidden - 1e-9) {
                least = place;
                leastHidden = hidden;
            }
            if (!free && !band.intersects(QPolygonF(box)))
                free = place;
        }
        QCOMPARE(LegendPlacement::leastCovered(rect, size, 0, 1.0), least);
        QCOMPARE(LegendPlacement::freeCorner(rect, size, 0), free);
    }
}

// A colour map's cells are data no key may hide, its NaN cells left clear (nhTransparent) empty
// room: head-map's rows of narrower heads end well before its widest's, and its key went below the
// plot. Here a map over 0..10 draws its cells left of 4.5 only; the upper right is free of them.
void TestLegendPlacement::aColourMapsClearCellsAreRoom()
{
    QCustomPlot plot;
    plot.setViewport(QRect(0, 0, 300, 240));
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
        axis->setRange(-0.5, 10.5);
    auto *map = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    map->data()->setSize(11, 11);
    map->data()->setRange(QCPRange(0, 10), QCPRange(0, 10));
    map->data()->fill(std::numeric_limits<double>::quiet_NaN());
    for (int i = 0; i <= 4; ++i)
        for (int j = 0; j <= 10; ++j)
            map->data()->setCell(i, j, 1.0 + i);
    QCPColorGradient gradient(QCPColorGradient::gpGrayscale);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map->setGradient(gradient);
    map->setDataRange(QCPRange(1.0, 5.0));
    plot.replot();
    // A quarter of the plot each way: the right half holds it, the left half does not.
    const QSize size(rect->width() / 4, rect->height() / 4);
    QCOMPARE(LegendPlacement::freeCorner(rect, size, 0), std::optional<Qt::Alignment>(Qt::AlignTop | Qt::AlignRight));
    QCOMPARE(LegendPlacement::leastCovered(rect, size, 0, 0.0),
             std::optional<Qt::Alignment>(Qt::AlignTop | Qt::AlignRight));
    // Wider than the clear half: every place hides a cell drawn.
    const QSize wide(rect->width() * 3 / 5, rect->height() / 4);
    QVERIFY(!LegendPlacement::freeCorner(rect, wide, 0));
    QVERIFY(!LegendPlacement::leastCovered(rect, wide, 0, 1.0));
    // NaN cells drawn in a colour are data too: the map covers its plot.
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    map->setGradient(gradient);
    plot.replot();
    QVERIFY(!LegendPlacement::freeCorner(rect, size, 0));
    QVERIFY(!LegendPlacement::leastCovered(rect, size, 0, 1.0));
}

// A label on a curve keeps off the cells other curves are drawn over (DirectLabels::Cells): the
// cells any box meets are counted as a set of the cells marked, one unit each, says (and it meets
// one where that counts any). Rows of widths
// about a word's 64 bits, boxes across word edges and past the plot, and a plot squeezed to nothing.
void TestLegendPlacement::labelCellsCountWhatWasMarked()
{
    QRandomGenerator random(5);
    for (const QRect rect : {QRect(10, 20, 63, 9), QRect(-5, 3, 64, 5), QRect(0, 0, 200, 40), QRect(7, 7, -3, -3)}) {
        DirectLabels::Cells cells(rect);
        std::set<std::pair<int, int>> marked;
        const int width = std::max(rect.width(), 0) + 1, height = std::max(rect.height(), 0) + 1;
        const auto mark = [&](QPointF p, double radius) {
            cells.mark(p, radius);
            for (int y = int(std::floor(p.y() - radius)); y <= int(std::floor(p.y() + radius)); ++y)
                for (int x = int(std::floor(p.x() - radius)); x <= int(std::floor(p.x() + radius)); ++x)
                    if (x - rect.left() >= 0 && x - rect.left() < width && y - rect.top() >= 0
                        && y - rect.top() < height)
                        marked.insert({x, y});
        };
        for (int i = 0; i < 60; ++i)
            mark(QPointF(rect.left() - 10 + random.bounded(width + 20.0), rect.top() - 4 + random.bounded(height + 8.0)),
                 random.bounded(4) * 0.75);
        cells.finish();
        for (int i = 0; i < 400; ++i) {
            const double left = rect.left() - 8 + random.bounded(width + 16.0);
            const double top = rect.top() - 4 + random.bounded(height + 8.0);
            const QRectF box(left, top, random.bounded(140.0), random.bounded(12.0));
            int expected = 0;
            for (const auto &[x, y] : marked)
                expected += x >= int(std::floor(box.left())) && x <= int(std::floor(box.right()))
                    && y >= int(std::floor(box.top())) && y <= int(std::floor(box.bottom()));
            QCOMPARE(cells.count(box), expected);
            QCOMPARE(cells.meets(box), expected > 0);
        }
    }
}

// A key of a curve, a curve drawn past its plot's range and a shade (a swatch), on a page short of
// room (FigureRoom::Steps::labelSomeCurves): the diagonal is named by a label beside it, in its
// colour, within its plot, and its entry leaves the key; the curve with no place for a label and
// the shade stay in it, as an author labels the lines and keys the rest. Undone, the label is gone
// and the entries are back in their order.
void TestLegendPlacement::aKeyLetsGoOfTheCurvesItsLabelsName()
{
    QCustomPlot plot;
    const Panel panel = diagonalWithKey(plot, u"rising"_s);
    QCPGraph *far = plot.addGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
    far->setData(QList<double> {20.0, 30.0}, QList<double> {5.0, 5.0}, true);
    far->setPen(QPen(Qt::darkRed));
    far->setName(u"far"_s);
    panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, far));
    SwatchLegend::add(panel.legend, {QColor(86, 180, 233, 70), u"shade"_s});
    plot.replot();
    QVERIFY(FigureRoom::shortOfRoom(plot, 9.0));
    QCPAbstractLegendItem *rising = panel.legend->item(0);
    QVERIFY(DirectLabels::labelable(rising) && DirectLabels::labelable(panel.legend->item(1)));
    QVERIFY(!DirectLabels::labelable(panel.legend->item(2)));

    QVERIFY(FigureRoom::Steps::labelSomeCurves(&plot));
    plot.replot();
    // As the figure's layout loop ends each layout (FigureLayoutLoop::settle).
    DirectLabels::place(&plot);
    plot.replot();
    QCOMPARE(panel.legend->itemCount(), 2);
    QVERIFY(!panel.legend->hasItem(rising));
    QCOMPARE(static_cast<QCPPlottableLegendItem *>(panel.legend->item(0))->plottable(), far);
    QCOMPARE(SwatchLegend::label(panel.legend->item(1)), u"shade"_s);
    QVERIFY(panel.legend->realVisibility() && !FigureRoom::Changes::isHidden(panel.legend));
    QList<QCPItemText *> labels;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot.item(i)); text && DirectLabels::named(text))
            labels.append(text);
    QCOMPARE(labels.size(), 1);
    QCPItemText *label = labels.constFirst();
    QCOMPARE(label->text(), u"rising"_s);
    QCOMPARE(DirectLabels::named(label), static_cast<QCPPlottableLegendItem *>(rising)->plottable());
    QVERIFY(label->visible());
    QCOMPARE(label->color(), plot.graph(0)->pen().color());
    const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
    QVERIFY(QRectF(panel.rect->rect()).contains(box));
    // Beside the diagonal (y = x): its box within a few units of the line, not across it.
    QCPAxis *x = panel.rect->axis(QCPAxis::atBottom), *y = panel.rect->axis(QCPAxis::atLeft);
    const bool above = y->pixelToCoord(box.bottom()) > x->pixelToCoord(box.right());
    const bool below = y->pixelToCoord(box.top()) < x->pixelToCoord(box.left());
    QVERIFY2(above || below, "the label stands across its curve");
    // Clear of the rest and within reach of its curve (DirectLabels::clear).
    QVERIFY(DirectLabels::clear(plot));

    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(panel.legend->itemCount(), 3);
    QCOMPARE(panel.legend->item(0), rising);
    QVERIFY(rising->visible());
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot.item(i)))
            QVERIFY(!DirectLabels::named(text));
}

// The entry let go for a label, then its curve deleted by a new filling before the room's changes
// are undone (the window refills a figure and fits it again): the entry, naming nothing, is deleted,
// not put back into the key, where laying it out read the deleted curve (a crash under the monkey).
void TestLegendPlacement::anEntryTakenOutWhoseCurveWentStaysOut()
{
    QCustomPlot plot;
    const Panel panel = diagonalWithKey(plot, u"rising"_s);
    QCPGraph *far = plot.addGraph(panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft));
    far->setData(QList<double> {20.0, 30.0}, QList<double> {5.0, 5.0}, true);
    far->setName(u"far"_s);
    panel.legend->addItem(new QCPPlottableLegendItem(panel.legend, far));
    SwatchLegend::add(panel.legend, {QColor(86, 180, 233, 70), u"shade"_s});
    plot.replot();
    const QPointer<QCPAbstractLegendItem> rising = panel.legend->item(0);
    QVERIFY(FigureRoom::Steps::labelSomeCurves(&plot));
    QVERIFY(!panel.legend->hasItem(rising));
    QVERIFY(plot.removeGraph(plot.graph(0)));
    FigureRoom::restore(&plot);
    plot.replot();
    QVERIFY(!rising);
    QCOMPARE(panel.legend->itemCount(), 2);
    QCOMPARE(static_cast<QCPPlottableLegendItem *>(panel.legend->item(0))->plottable(), far);
}

POSENC_TEST_MAIN(TestLegendPlacement)
} // namespace tst_legendplacement
#include "tst_legendplacement.moc"
