// An axis's label set in the row of its tick labels (FigureRoom::Steps::labelsAlongTicks) goes to
// the end where its range's upper end is drawn, and the tick labels keep clear of it there
// (KeepsClear): on a reversed axis (a heatmap's rows, position 0 at the top) that is the bottom
// end up the side and the left end across, so the first tick labels, where the scale starts, stay
// (issue 58: dropout-on-sum's "position" folded at the top hid the ticks 0 to 20).
#include "render/FigureRoom.h"
#include "render/FigureRoomSteps.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include <QTest>

#include <algorithm>

namespace tst_foldedlabelend {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestFoldedLabelEnd : public QObject
{
    Q_OBJECT

private slots:
    void aReversedAxisKeepsItsFirstTickLabels_data();
    void aReversedAxisKeepsItsFirstTickLabels();
};

void TestFoldedLabelEnd::aReversedAxisKeepsItsFirstTickLabels_data()
{
    QTest::addColumn<bool>("across");
    QTest::addColumn<bool>("reversed");
    QTest::newRow("up the side, reversed") << false << true;
    QTest::newRow("across, reversed") << true << true;
    QTest::newRow("up the side") << false << false;
    QTest::newRow("across") << true << false;
}

void TestFoldedLabelEnd::aReversedAxisKeepsItsFirstTickLabels()
{
    QFETCH(bool, across);
    QFETCH(bool, reversed);
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 300, 240));
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
        axis->setRange(0.0, 60.0);
    }
    QCPAxis *axis = rect->axis(across ? QCPAxis::atBottom : QCPAxis::atLeft);
    axis->setRangeReversed(reversed);
    const QString label = u"position p"_s;
    axis->setLabel(label);
    plot.replot();
    QVERIFY(FigureRoom::Steps::labelsAlongTicks(&plot, across ? Qt::Horizontal : Qt::Vertical));
    plot.replot();
    plot.replot(); // the ticks keep clear of the label as the margins it gave up leave them
    QCOMPARE(FigureRoom::shownLabel(axis), label);

    // Where the label is drawn: its box's corners, turned with it.
    QCPItemText *text = nullptr;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *item = qobject_cast<QCPItemText *>(plot.item(i)); item && item->text() == label)
            text = item;
    QVERIFY(text);
    double lo = INFINITY, hi = -INFINITY;
    for (QCPItemAnchor *corner : {text->topLeft, text->topRight, text->bottomLeft, text->bottomRight}) {
        const QPointF at = corner->pixelPosition();
        lo = std::min(lo, across ? at.x() : at.y());
        hi = std::max(hi, across ? at.x() : at.y());
    }
    // The range's upper end is drawn at the label's end of the axis.
    const double upperAt = axis->coordToPixel(axis->range().upper);
    const double lowerAt = axis->coordToPixel(axis->range().lower);
    QVERIFY2(std::abs(upperAt - (lo + hi) / 2.0) < std::abs(lowerAt - (lo + hi) / 2.0),
             qPrintable(u"label %1..%2, upper end at %3, lower at %4"_s.arg(lo).arg(hi).arg(upperAt).arg(lowerAt)));

    // The first tick label (0) is shown; every blank one lies at the label's end, past every shown one;
    // no shown tick label reaches into the label's stretch.
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const double half = QFontMetricsF(font).height() / 2.0;
    int blank = 0;
    for (qsizetype i = 0; i < ticks.size(); ++i) {
        if (!axis->range().contains(ticks[i]))
            continue;
        const double at = axis->coordToPixel(ticks[i]);
        if (ticks[i] == 0.0)
            QVERIFY2(!labels[i].isEmpty(), "the tick label 0 is blank");
        if (labels[i].isEmpty()) {
            ++blank;
            continue;
        }
        const double reach = across ? QFontMetricsF(font).horizontalAdvance(labels[i]) / 2.0 : half;
        QVERIFY2(at + reach <= lo || at - reach >= hi,
                 qPrintable(u"tick label %1 at %2 meets the label at %3..%4"_s.arg(labels[i]).arg(at).arg(lo).arg(hi)));
    }
    QVERIFY2(blank >= 1, "no tick label gave way to the label");
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(axis->label(), label);
}

POSENC_TEST_MAIN(TestFoldedLabelEnd)
} // namespace tst_foldedlabelend
#include "tst_foldedlabelend.moc"
