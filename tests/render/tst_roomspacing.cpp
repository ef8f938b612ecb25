// The spacing of a grid whose panels little room gave up (FigureRoom::Changes::closeUpAround,
// docs/ARCHITECTURE.md, "Figures at any size"): a panel given up keeps the grid's spacing on each
// side, so two panels drawn with k given up between them stood (k + 1) spacings apart (alibi-bias's
// map and its colour bar, the map beside them given up: 9 units of a 6 x 4 cm page's 227, where
// matplotlib's colorbar pad is one). The grid's spacing is cut to s / (k + 1), so that they stand
// about one spacing apart, or to none where one column is left; undone, it is the grid's again.
// A panel given up alone in its column keeps none of its width (Changes::hide; it kept a unit).
// A mark drawn over the data goes with the text that says what it is (FigureRoom::setExplainedBy:
// a caption dropped, a legend's entry given up), and comes back with it; a mark whose text stays
// is drawn.
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "render/FigureRoomSteps.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_roomspacing {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A 300 x 200 plot of one grid, `columns` axis rects side by side spaced `spacing` units apart.
QList<QCPAxisRect *> sideBySide(QCustomPlot &plot, int columns, int spacing)
{
    plot.setFont(QFont(PinnedFont::family(), 9));
    plot.setViewport(QRect(0, 0, 300, 200));
    plot.plotLayout()->clear();
    auto *grid = new QCPLayoutGrid;
    plot.plotLayout()->addElement(0, 0, grid);
    grid->setColumnSpacing(spacing);
    QList<QCPAxisRect *> rects;
    for (int column = 0; column < columns; ++column) {
        auto *rect = new QCPAxisRect(&plot);
        grid->addElement(0, column, rect);
        rects.append(rect);
    }
    return rects;
}

// The units between the outer rects of `left` and `right`, as laid out.
int apart(QCustomPlot &plot, const QCPAxisRect *left, const QCPAxisRect *right)
{
    plot.replot();
    return right->outerRect().left() - (left->outerRect().right() + 1);
}

} // namespace

class TestRoomSpacing : public QObject
{
    Q_OBJECT

private slots:
    void panelsDrawnStandASpacingApart_data();
    void panelsDrawnStandASpacingApart();
    void oneColumnLeftHasNoSpacing();
    void aKeyGivenUpKeepsNoneOfItsRow();
    void aMarkGoesWithTheTextThatNamesIt();
};

void TestRoomSpacing::panelsDrawnStandASpacingApart_data()
{
    QTest::addColumn<int>("spacing");
    QTest::addColumn<int>("between");
    QTest::newRow("4 units, one given up") << 4 << 1;
    QTest::newRow("12 units, one given up") << 12 << 1;
    QTest::newRow("12 units, two given up") << 12 << 2;
}

void TestRoomSpacing::panelsDrawnStandASpacingApart()
{
    QFETCH(int, spacing);
    QFETCH(int, between);
    QCustomPlot plot;
    const QList<QCPAxisRect *> rects = sideBySide(plot, between + 2, spacing);
    QCPAxisRect *first = rects.constFirst(), *last = rects.constLast();
    auto *grid = qobject_cast<QCPLayoutGrid *>(first->layout());
    plot.replot();
    QList<QCPLayoutElement *> given;
    for (int k = 1; k <= between; ++k)
        given.append(rects[k]);
    QVERIFY(FigureRoom::Changes::of(&plot).hide(given));
    // Each given up keeps none of its column: only the spacings beside it are left.
    const int now = apart(plot, first, last);
    QCOMPARE(grid->columnSpacing(), spacing / (between + 1));
    QCOMPARE(now, (between + 1) * (spacing / (between + 1)));
    QVERIFY2(now <= spacing, qPrintable(QString::number(now)));
    QVERIFY2(now >= spacing - between, qPrintable(QString::number(now)));
    FigureRoom::restore(&plot);
    QCOMPARE(grid->columnSpacing(), spacing);
}

// Three panels, the last two given up: the one left shares the grid's width with nothing, not
// even the unit each given up kept before.
void TestRoomSpacing::oneColumnLeftHasNoSpacing()
{
    QCustomPlot plot;
    const QList<QCPAxisRect *> rects = sideBySide(plot, 3, 12);
    plot.replot();
    QVERIFY(FigureRoom::Changes::of(&plot).hide({rects[1], rects[2]}));
    auto *grid = qobject_cast<QCPLayoutGrid *>(rects[0]->layout());
    QCOMPARE(grid->columnSpacing(), 0);
    plot.replot();
    QCOMPARE(rects[0]->outerRect().width(), 300);
    FigureRoom::restore(&plot);
    QCOMPARE(grid->columnSpacing(), 12);
}

// A panel over its key of four curves, the key in a row of its own as PlotStyle::legendRow sets it
// (centred between empty cells): the key given up keeps none of the row's height, where its
// entries' least height kept a unit (position-effect's two keys given way to labels on their curves
// and alibi-bias's key of masked cells, each a unit of a 6 x 4 cm page's 151); undone, it has its
// row again, each entry's line.
void TestRoomSpacing::aKeyGivenUpKeepsNoneOfItsRow()
{
    QCustomPlot plot;
    const QList<QCPAxisRect *> rects = sideBySide(plot, 1, 4);
    plot.setAutoAddPlottableToLegend(false);
    auto *row = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, row);
    plot.plotLayout()->setRowSpacing(0);
    plot.plotLayout()->setRowStretchFactor(1, 0.001);
    auto *key = new QCPLegend;
    row->addElement(0, 1, key);
    row->expandTo(1, 3);
    row->setColumnStretchFactors({1.0, 0.001, 1.0});
    for (int i = 0; i < 4; ++i) {
        QCPGraph *curve = plot.addGraph(rects[0]->axis(QCPAxis::atBottom), rects[0]->axis(QCPAxis::atLeft));
        curve->setName(u"curve %1"_s.arg(i));
        key->addItem(new QCPPlottableLegendItem(key, curve));
    }
    plot.replot();
    const int keyHeight = key->outerRect().height();
    const QMargins margins = key->margins();
    QVERIFY2(keyHeight > 4 * QFontMetrics(key->font()).height() / 2, qPrintable(QString::number(keyHeight)));
    QCOMPARE(rects[0]->outerRect().height() + keyHeight, 200);

    QVERIFY(FigureRoom::Changes::of(&plot).hide({key}));
    plot.replot();
    QCOMPARE(row->outerRect().height(), 0);
    QCOMPARE(rects[0]->outerRect().height(), 200);
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(key->outerRect().height(), keyHeight);
    QCOMPARE(key->margins(), margins);
}

// A dashed line named by a caption, a band named by an entry of a legend of notes (a caption's
// role) and a curve named by a key's entry: the captions given up take the line and the band, not
// the curve; undone, all are drawn on their own layers again.
void TestRoomSpacing::aMarkGoesWithTheTextThatNamesIt()
{
    QCustomPlot plot;
    const QList<QCPAxisRect *> rects = sideBySide(plot, 1, 4);
    plot.setAutoAddPlottableToLegend(false);
    auto *caption = new QCPTextElement(&plot, u"dashed: the span's end"_s);
    plot.plotLayout()->addElement(1, 0, caption);
    FigureRoom::setRole(caption, TextRole::Caption);
    auto *notes = new QCPLegend;
    plot.plotLayout()->addElement(2, 0, notes);
    FigureRoom::setRole(notes, TextRole::Caption);
    auto *key = new QCPLegend;
    plot.plotLayout()->addElement(3, 0, key);
    FigureRoom::setRole(key, TextRole::Key);
    QCPAxis *x = rects[0]->axis(QCPAxis::atBottom), *y = rects[0]->axis(QCPAxis::atLeft);
    auto *line = new QCPItemStraightLine(&plot);
    QCPGraph *band = plot.addGraph(x, y), *curve = plot.addGraph(x, y);
    band->setName(u"p ± 4σ"_s);
    curve->setName(u"measured"_s);
    notes->addItem(new QCPPlottableLegendItem(notes, band));
    key->addItem(new QCPPlottableLegendItem(key, curve));
    FigureRoom::setExplainedBy(line, caption);
    FigureRoom::setExplainedBy(band, notes->itemWithPlottable(band));
    FigureRoom::setExplainedBy(curve, key->itemWithPlottable(curve));
    QCPLayer *lineLayer = line->layer(), *graphLayer = band->layer();
    plot.replot();
    QVERIFY(!FigureRoom::Changes::isHidden(line) && !FigureRoom::Changes::isHidden(band));

    QVERIFY(FigureRoom::Steps::dropCaptions(&plot));
    plot.replot();
    QVERIFY2(FigureRoom::Changes::isHidden(line), "the line drawn with its caption given up");
    QVERIFY2(FigureRoom::Changes::isHidden(band), "the band drawn with its entry given up");
    QVERIFY(!FigureRoom::Changes::isHidden(curve));
    QCOMPARE(curve->layer(), graphLayer);
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(line->layer(), lineLayer);
    QCOMPARE(band->layer(), graphLayer);
    QCOMPARE(caption->text(), u"dashed: the span's end"_s);
}

POSENC_TEST_MAIN(TestRoomSpacing)
} // namespace tst_roomspacing
#include "tst_roomspacing.moc"
