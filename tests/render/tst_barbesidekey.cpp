// A figure's one colour bar down the side of its panels, on a page short of room whose plots are
// short of half of it, lies across in the row its key already takes, beside the key's entries
// (FigureRoom's barsBesideKeys, matplotlib's fig.colorbar(..., orientation="horizontal")): its column
// goes to the plot, its label reads level with its left end, and restore() brings it back down the
// side, its label along it. dropout-compare at 6 x 4 cm: 46.2 % to 51.9 % of the page (tst_figuresizes).
#include "render/FigureRoom.h"
#include "render/FigureRoomSteps.h"
#include "render/PinnedFont.h"
#include "render/PlotStyle.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_barbesidekey {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Figure
{
    QCPAxisRect *rect = nullptr;
    QCPColorScale *scale = nullptr;
    QCPLegend *key = nullptr;
};

// A 227 x 151 plot (6 x 4 cm) at 9 pt: a panel, a bar beside it labelled "Y" along it, from -60 to
// 60, and under both a key of two entries in one row. Or, `names` given, a key of those entries,
// and a log bar of wavelengths from 6 to 4·10⁷ beside a panel on a page `height` high.
Figure figureOf(QCustomPlot &plot, const QStringList &names = {u"dropped"_s, u"padding"_s}, int height = 151)
{
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 227, height));
    plot.plotLayout()->clear();
    Figure figure;
    auto *grid = new QCPLayoutGrid;
    plot.plotLayout()->addElement(0, 0, grid);
    figure.rect = new QCPAxisRect(&plot);
    grid->addElement(0, 0, figure.rect);
    figure.scale = new QCPColorScale(&plot);
    grid->addElement(0, 1, figure.scale);
    grid->setColumnStretchFactors({1.0, 0.01});
    figure.scale->setBarWidth(7);
    for (QCPAxis *axis :
         {figure.rect->axis(QCPAxis::atBottom), figure.rect->axis(QCPAxis::atLeft), figure.scale->axis()}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
    }
    figure.rect->axis(QCPAxis::atBottom)->setRange(0.0, 20.0);
    figure.rect->axis(QCPAxis::atLeft)->setRange(0.0, 20.0);
    figure.rect->axis(QCPAxis::atLeft)->setLabel(u"position"_s);
    figure.rect->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
    figure.scale->axis()->setRange(-60.0, 60.0);
    figure.scale->axis()->setLabel(u"Y"_s);
    if (height != 151) {
        figure.scale->axis()->setLabel(u"wavelength 2π/θᵢ"_s);
        figure.scale->setDataScaleType(QCPAxis::stLogarithmic);
        PlotStyle::setLogAxis(figure.scale->axis());
        figure.scale->axis()->setRange(6.0, 4e7);
    }
    figure.key = new QCPLegend;
    plot.plotLayout()->addElement(1, 0, figure.key);
    figure.key->setLayer(u"legend"_s);
    plot.plotLayout()->setRowStretchFactor(1, 0.01);
    figure.key->setFont(font);
    figure.key->setWrap(2);
    figure.key->setIconSize(10, 10);
    figure.key->setIconTextPadding(3);
    figure.key->setColumnSpacing(4);
    figure.key->setMargins(QMargins(2, 1, 2, 1));
    figure.key->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    for (const QString &name : names) {
        QCPGraph *graph = plot.addGraph(figure.rect->axis(QCPAxis::atBottom), figure.rect->axis(QCPAxis::atLeft));
        graph->setName(name);
        figure.key->addItem(new QCPPlottableLegendItem(figure.key, graph));
    }
    plot.resize(plot.viewport().size());
    plot.replot();
    return figure;
}

} // namespace

class TestBarBesideKey : public QObject
{
    Q_OBJECT

private slots:
    void theBarLiesAcrossBesideTheKey();
    void theBarTakesARowOfItsOwnOverAKeyFillingItsRow();
};

void TestBarBesideKey::theBarLiesAcrossBesideTheKey()
{
    QCustomPlot plot;
    const Figure figure = figureOf(plot);
    const int width = figure.rect->width();
    QVERIFY(FigureRoom::plotShare(plot) < FigureRoom::kMinPlotShare);
    QVERIFY(FigureRoom::Steps::barsBesideKeys(&plot));
    plot.replot();
    // Across, in the key's row, right of its entries; its label kept, the plot grown by its column.
    QCOMPARE(figure.scale->type(), QCPAxis::atBottom);
    QCOMPARE(FigureRoom::shownLabel(figure.scale->axis()), u"Y"_s);
    QCOMPARE(figure.scale->outerRect().top(), figure.key->outerRect().top());
    QVERIFY(figure.scale->outerRect().top() >= figure.rect->outerRect().bottom());
    QVERIFY(figure.scale->outerRect().left() >= figure.key->item(1)->outerRect().right());
    QVERIFY2(figure.rect->width() > width, qPrintable(u"%1 then %2"_s.arg(width).arg(figure.rect->width())));
    QVERIFY(figure.scale->outerRect().right() <= plot.viewport().right() + 1);
    // Not twice.
    QVERIFY(!FigureRoom::Steps::barsBesideKeys(&plot));
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(figure.scale->type(), QCPAxis::atRight);
    QCOMPARE(figure.scale->axis()->label(), u"Y"_s);
    QCOMPARE(figure.scale->layout(), figure.rect->layout());
    QCOMPARE(figure.key->layout(), plot.plotLayout());
    QCOMPARE(figure.rect->width(), width);
}

// A key whose entries fill its row leaves no room beside them (head-map's at 6 x 4 cm, cut to hold
// in it): the bar goes across in a row of its own over the key's, where its column gives the plot
// more than that row takes, as thin as matplotlib draws a bar across for its length (aspect 20),
// its log scale kept: 10⁴ where a log axis of 6 .. 4·10⁷ puts it, not at the bar's left end.
void TestBarBesideKey::theBarTakesARowOfItsOwnOverAKeyFillingItsRow()
{
    QCustomPlot plot;
    const Figure figure = figureOf(plot, {u"passes unrotated"_s, u"turns at frequency 0"_s}, 190);
    const QSize size = figure.rect->rect().size();
    const double share = FigureRoom::plotShare(plot);
    QVERIFY2(share < FigureRoom::kMinPlotShare, qPrintable(QString::number(share)));
    QVERIFY(FigureRoom::Steps::barsBesideKeys(&plot));
    plot.replot();
    QCOMPARE(figure.scale->type(), QCPAxis::atBottom);
    QCOMPARE(figure.scale->axis()->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(FigureRoom::shownLabel(figure.scale->axis()), u"wavelength 2π/θᵢ"_s);
    // Under the panel, over the key, its row the key's width.
    QVERIFY(figure.scale->outerRect().top() >= figure.rect->outerRect().bottom());
    QVERIFY(figure.scale->outerRect().bottom() <= figure.key->outerRect().top());
    QCOMPARE(figure.scale->outerRect().width(), figure.key->outerRect().width());
    QVERIFY2(FigureRoom::plotShare(plot) > share,
             qPrintable(u"%1 then %2"_s.arg(share).arg(FigureRoom::plotShare(plot))));
    QVERIFY(figure.rect->width() > size.width());
    const QRect bar = figure.scale->axis()->axisRect()->rect();
    // Within a unit of its length over 20 (the label's width is measured before the layout).
    QVERIFY2(figure.scale->barWidth() < 7 && std::abs(figure.scale->barWidth() - bar.width() / 20.0) <= 1.0,
             qPrintable(u"%1 for %2"_s.arg(figure.scale->barWidth()).arg(bar.width())));
    const double at = figure.scale->axis()->coordToPixel(1e4);
    const double expected = bar.left() + bar.width() * (4.0 - std::log10(6.0)) / (std::log10(4e7) - std::log10(6.0));
    QVERIFY2(std::abs(at - expected) < 1.0, qPrintable(u"%1, not %2"_s.arg(at).arg(expected)));
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(figure.scale->type(), QCPAxis::atRight);
    QCOMPARE(figure.scale->axis()->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(figure.scale->axis()->label(), u"wavelength 2π/θᵢ"_s);
    QCOMPARE(figure.scale->layout(), figure.rect->layout());
    QCOMPARE(figure.key->layout(), plot.plotLayout());
    QCOMPARE(figure.rect->rect().size(), size);
}

POSENC_TEST_MAIN(TestBarBesideKey)
} // namespace tst_barbesidekey
#include "tst_barbesidekey.moc"
