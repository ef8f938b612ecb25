// A y axis's label and a colour bar's on little room go across above their axis's top end, in the
// row of the panel's name beside it (FigureRoom's labelsAbove, matplotlib's cbar.ax.set_title): the
// plot gains the labels' columns, each label is shown whole, clear of the name and of the end tick
// label under it and within the page, and restore() brings them back along their axes. Where the
// name fills its row, the y axis's stays. alibi-bias at 6 x 4 cm sets its bar's label so: once its second
// map had gone for a real gain, the step's gain of 4.7 % of the page was held to the 5 % a panel
// given up must bring (FigureLayoutLoop: a step is now weighed against the best with its panels).
// Then the end tick labels over the plot and its bar stand half in the name's row, clear of the name.
#include "render/FigureRoom.h"
#include "render/FigureRoomSteps.h"
#include "render/FigureSize.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include "FigureDefaults.h"
#include "support/FigureBuilds.h"

#include <QTest>

namespace tst_labelsabove {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Panel
{
    QCPTextElement *name = nullptr;
    QCPAxisRect *rect = nullptr;
    QCPColorScale *scale = nullptr;
};

// A 227 x 151 plot (6 x 4 cm) at 9 pt, its axes tight: a panel's name over a plot labelled "query i" up its side,
// a colour bar beside it labelled "bias" along it.
Panel panelOf(QCustomPlot &plot, const QString &name)
{
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 227, 151));
    plot.plotLayout()->clear();
    Panel panel;
    panel.name = new QCPTextElement(&plot, name, font);
    plot.plotLayout()->addElement(0, 0, panel.name);
    panel.rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(1, 0, panel.rect);
    panel.scale = new QCPColorScale(&plot);
    plot.plotLayout()->addElement(1, 1, panel.scale);
    plot.plotLayout()->setColumnStretchFactors({1.0, 0.01});
    auto *group = new QCPMarginGroup(&plot);
    panel.rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    panel.scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    panel.scale->setBarWidth(7);
    // As tight as the axes are on little room (FigureRoom's tightenAxes): the labels above go into
    // the name's row, not into a plot's own top margin.
    panel.rect->setMinimumMargins(QMargins(2, 2, 2, 2));
    panel.scale->setMinimumMargins(QMargins(2, 8, 2, 8));
    for (QCPAxis *axis :
         {panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft), panel.scale->axis()}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
        axis->setRange(0.0, 500.0);
    }
    panel.rect->axis(QCPAxis::atLeft)->setLabel(u"query i"_s);
    panel.scale->axis()->setLabel(u"bias"_s);
    plot.resize(plot.viewport().size());
    plot.replot();
    return panel;
}

// The label shown above `axis`: the plot's text item that reads it.
QCPItemText *aboveOf(const QCustomPlot &plot, const QCPAxis *axis)
{
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot.item(i));
            text && text->text() == FigureRoom::shownLabel(axis) && text->visible())
            return text;
    return nullptr;
}

} // namespace

class TestLabelsAbove : public QObject
{
    Q_OBJECT

private slots:
    void labelsGoAboveBesideTheName();
    void aNameFillingItsRowKeepsTheLabelUnderIt();
    void aColourBarsLabelGoesAboveOnASmallPage();
    void endTickLabelsStandInTheNamesRow();
};

void TestLabelsAbove::labelsGoAboveBesideTheName()
{
    QCustomPlot plot;
    const Panel panel = panelOf(plot, u"causal"_s);
    const int width = panel.rect->rect().width();
    QVERIFY(FigureRoom::Steps::labelsAbove(&plot));
    plot.replot();
    QVERIFY(FigureRoom::labelsAboveClear(plot));
    // Each label whole, above the end tick label centred on its axis's top, within the page.
    const double half = QFontMetricsF(panel.scale->axis()->tickLabelFont()).height() / 2.0;
    for (QCPAxis *axis : {panel.rect->axis(QCPAxis::atLeft), panel.scale->axis()}) {
        QVERIFY(axis->label().isEmpty());
        QCPItemText *text = aboveOf(plot, axis);
        QVERIFY2(text, qPrintable(FigureRoom::shownLabel(axis)));
        const QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        QVERIFY(box.bottom() - text->padding().bottom() <= axis->axisRect()->rect().top() - half + 0.5);
        QVERIFY(box.top() >= 0.0);
    }
    QCOMPARE(FigureRoom::shownLabel(panel.rect->axis(QCPAxis::atLeft)), u"query i"_s);
    QCOMPARE(FigureRoom::shownLabel(panel.scale->axis()), u"bias"_s);
    // The two columns the labels took up the side, a line high each at least, to the plot.
    const int line = QFontMetrics(panel.scale->axis()->labelFont()).height();
    QVERIFY2(panel.rect->rect().width() >= width + 2 * line,
             qPrintable(u"%1 then %2 units wide"_s.arg(width).arg(panel.rect->rect().width())));
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(panel.rect->axis(QCPAxis::atLeft)->label(), u"query i"_s);
    QCOMPARE(panel.scale->axis()->label(), u"bias"_s);
    QCOMPARE(panel.rect->rect().width(), width);
}

// A name wider than its panel's cell fills the row over the plot: the y axis's label stays up its side.
void TestLabelsAbove::aNameFillingItsRowKeepsTheLabelUnderIt()
{
    QCustomPlot plot;
    const Panel panel = panelOf(plot, u"the name of this panel fills its row"_s);
    FigureRoom::Steps::labelsAbove(&plot);
    QCOMPARE(panel.rect->axis(QCPAxis::atLeft)->label(), u"query i"_s);
    QVERIFY(!aboveOf(plot, panel.rect->axis(QCPAxis::atLeft)));
}

void TestLabelsAbove::aColourBarsLabelGoesAboveOnASmallPage()
{
    const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(u"6x4cm"_s)), 300.0);
    const Params params = FigureBuilds::defaultParams(FigureBuilds::figure(u"alibi-bias"_s));
    const auto built = FigureBuilds::build(u"alibi-bias"_s, params, page, {}, FigureStyle());
    QVERIFY(!built->error());
    QCPColorScale *shownBar = nullptr;
    for (QCPLayoutElement *element : built->plot()->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element); scale && scale->realVisibility())
            shownBar = scale;
    QVERIFY(shownBar);
    QVERIFY(shownBar->axis()->label().isEmpty());
    QCOMPARE(FigureRoom::shownLabel(shownBar->axis()), u"bias"_s);
    QVERIFY(aboveOf(*built->plot(), shownBar->axis()));
}

// The top margin held for the half of the end tick label over the plot goes to the plot, that half
// standing in the name's row clear of the name; restore() brings the margin back.
void TestLabelsAbove::endTickLabelsStandInTheNamesRow()
{
    QCustomPlot plot;
    const Panel panel = panelOf(plot, u"causal"_s);
    // The plot alone: QCustomPlot's colour scale holds its top margin for its axis itself.
    panel.scale->setMarginGroup(QCP::msTop | QCP::msBottom, nullptr);
    panel.rect->setMinimumMargins(QMargins(2, 8, 2, 2));
    plot.replot();
    const int height = panel.rect->rect().height();
    QVERIFY(FigureRoom::Steps::endLabelsIntoNames(&plot));
    plot.replot();
    QVERIFY2(panel.rect->rect().height() >= height + 5,
             qPrintable(u"%1 then %2 units high"_s.arg(height).arg(panel.rect->rect().height())));
    QVERIFY(FigureRoom::ticksClearOfTexts(plot));
    QVERIFY(FigureRoom::barTicksClearOfTexts(plot));
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(panel.rect->rect().height(), height);
}

POSENC_TEST_MAIN(TestLabelsAbove)
} // namespace tst_labelsabove
#include "tst_labelsabove.moc"
