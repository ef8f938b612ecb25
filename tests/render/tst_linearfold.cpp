// A linear axis's label on little room goes along its tick labels as an index or log axis's does
// (FigureRoom's labelsAlongTicks): PlotStyle's linear ticker (PowersTicker, 5·10⁻¹⁴ in one text)
// keeps clear (KeepsClear), as a plain ticker's stand-in does; it refused, and sin(p·θᵢ), S(k) or a
// T5 bucket kept a column of their own. Up a column, the label goes only where two of the tick
// labels drawn keep their numbers, or none is blanked: rope-score's y axis at 6 x 4 cm kept only
// its 0, scale-compare's log axis at a column only its 10⁰.
#include "render/FigureRoom.h"
#include "render/FigureRoomSteps.h"
#include "render/KeepClearTicker.h"
#include "render/PinnedFont.h"
#include "render/PlotStyle.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_linearfold {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A plot of `size` units holding one axis rect over 0..1 both ways, its y axis labelled `label`,
// ticked `ticks` times, styled as the figures' (PlotStyle::styleAxisRect) or with QCustomPlot's
// plain ticker, laid out.
QCPAxis *yAxisOf(QCustomPlot &plot, QSize size, const QString &label, int ticks, bool styled)
{
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(QPoint(0, 0), size));
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    if (styled)
        PlotStyle::styleAxisRect(rect);
    for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
        axis->setRange(0.0, 1.0);
        axis->ticker()->setTickCount(ticks);
    }
    QCPAxis *y = rect->axis(QCPAxis::atLeft);
    y->setLabel(label);
    plot.resize(size);
    plot.replot();
    return y;
}

} // namespace

class TestLinearFold : public QObject
{
    Q_OBJECT

private slots:
    void aLinearAxisLabelGoesUpItsTickLabels();
    void aColumnKeepsTwoNumbers();
};

// 300 x 240 units at 9 pt: "value" (about 30 units) at the top of a column of six tick labels
// (0, 0.2, ..., 1, about 18 units apart) blanks two of them at most.
void TestLinearFold::aLinearAxisLabelGoesUpItsTickLabels()
{
    QCustomPlot plot;
    QCPAxis *y = yAxisOf(plot, QSize(300, 240), u"value"_s, 5, true);
    QVERIFY(dynamic_cast<KeepsClear *>(y->ticker().data()));
    QVERIFY(FigureRoom::Steps::labelsAlongTicks(&plot, Qt::Vertical));
    QVERIFY(y->label().isEmpty());
    QCOMPARE(FigureRoom::shownLabel(y), u"value"_s);
    FigureRoom::restore(&plot);
    QCOMPARE(y->label(), u"value"_s);
}

// 300 x 130 units: a column of three tick labels (0, 0.5, 1) about 50 units apart, whose label of
// about 45 units (under 0.6 of the rect's 93) would blank 0.5 and 1 and leave only 0. Tried
// with the plain ticker too, which a stand-in that keeps clear replaces: it went there before.
void TestLinearFold::aColumnKeepsTwoNumbers()
{
    for (const bool styled : {true, false}) {
        QCustomPlot plot;
        QCPAxis *y = yAxisOf(plot, QSize(300, 130), u"number"_s, 2, styled);
        const QRect rect = y->axisRect()->rect();
        QVERIFY2(QFontMetricsF(y->labelFont()).horizontalAdvance(y->label()) <= 0.6 * rect.height(),
                 "the label is within 0.6 of its axis");
        QVERIFY2(y->tickVectorLabels().size() >= 2, "the column draws two tick labels at least");
        QVERIFY(!FigureRoom::Steps::labelsAlongTicks(&plot, Qt::Vertical));
        QCOMPARE(y->label(), u"number"_s);
    }
}

POSENC_TEST_MAIN(TestLinearFold)
} // namespace tst_linearfold
#include "tst_linearfold.moc"
