// A label's box (DirectLabels::boxOf) is where QCustomPlot's own anchors put the corners of its text
// (QCPItemText::anchorPixelPosition, QCustomPlot 2.1): the labels' clearance is asked at every layout
// of a fitting, each label's box for every other, and QCPItemText shapes the text again for each
// corner asked. Its text's size is measured once a font and text: every font, text, padding, place
// and alignment of the position gives the corners QCPItemText gives.
#include "render/DirectLabelScene.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_directlabelbox {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestDirectLabelBox : public QObject
{
    Q_OBJECT

private slots:
    void theBoxIsQCustomPlotsTextRect();
};

void TestDirectLabelBox::theBoxIsQCustomPlotsTextRect()
{
    QCustomPlot plot;
    plot.setViewport(QRect(0, 0, 400, 300));
    plot.xAxis->setRange(-3.0, 7.0);
    plot.yAxis->setRange(0.5, 2.25);
    plot.replot();
    const QStringList texts {
        u"a"_s,  u"noise"_s, u"linear, proportional"_s, u"‖PE‖ and √(d/2)"_s, u"two\nlines"_s, u"T5 key after"_s,
        u"Ag"_s, QString()};
    QList<QFont> fonts;
    for (const double points : {6.5, 9.0, 14.0}) {
        QFont font(PinnedFont::family());
        font.setPointSizeF(points);
        fonts.append(font);
        font.setBold(true);
        fonts.append(PinnedFont::apply(font));
    }
    const QList<Qt::Alignment> aligns {Qt::AlignCenter,
                                       Qt::AlignLeft | Qt::AlignTop,
                                       Qt::Alignment(),
                                       Qt::AlignRight | Qt::AlignBottom,
                                       Qt::AlignHCenter | Qt::AlignTop,
                                       Qt::AlignLeft | Qt::AlignVCenter,
                                       Qt::AlignRight | Qt::AlignVCenter,
                                       Qt::AlignHCenter | Qt::AlignBottom};
    const QList<QMargins> paddings {QMargins(), QMargins(1, 2, 3, 4), QMargins(5, 0, 0, 1)};
    const QList<QPointF> places {{0.0, 1.0}, {1.37, 1.111}, {-2.9, 2.2}, {6.123456, 0.7654321}, {3.5, 1.5}};
    int asked = 0;
    for (const QFont &font : fonts)
        for (const QString &text : texts)
            for (const Qt::Alignment align : aligns)
                for (const QMargins &padding : paddings)
                    for (const QPointF &at : places)
                        for (const bool selected : {false, true}) {
                            auto *item = new QCPItemText(&plot);
                            item->setFont(font);
                            QFont other = font;
                            other.setPointSizeF(font.pointSizeF() + 3.0);
                            item->setSelectedFont(other);
                            item->setSelectable(true);
                            item->setSelected(selected);
                            item->setText(text);
                            item->setTextAlignment(Qt::AlignCenter);
                            item->setPositionAlignment(align);
                            item->setPadding(padding);
                            item->position->setType(QCPItemPosition::ptPlotCoords);
                            item->position->setCoords(at);
                            const QRectF expected
                                = QRectF(item->topLeft->pixelPosition(), item->bottomRight->pixelPosition())
                                      .normalized();
                            const QRectF box = DirectLabels::boxOf(item);
                            if (box != expected || box.topLeft() != expected.topLeft())
                                QFAIL(qPrintable(u"'%1' at %2 pt, alignment %3, padding %4 %5 %6 %7: %8 %9 %10 %11, "
                                                 "QCustomPlot's %12 %13 %14 %15"_s.arg(text)
                                                     .arg(font.pointSizeF())
                                                     .arg(int(align))
                                                     .arg(padding.left())
                                                     .arg(padding.top())
                                                     .arg(padding.right())
                                                     .arg(padding.bottom())
                                                     .arg(box.x(), 0, 'g', 17)
                                                     .arg(box.y(), 0, 'g', 17)
                                                     .arg(box.width(), 0, 'g', 17)
                                                     .arg(box.height(), 0, 'g', 17)
                                                     .arg(expected.x(), 0, 'g', 17)
                                                     .arg(expected.y(), 0, 'g', 17)
                                                     .arg(expected.width(), 0, 'g', 17)
                                                     .arg(expected.height(), 0, 'g', 17)));
                            plot.removeItem(item);
                            ++asked;
                        }
    // A text turned, or aligned otherwise in its box, is QCustomPlot's to place: the same corners.
    auto *turned = new QCPItemText(&plot);
    turned->setText(u"turned"_s);
    turned->setRotation(30.0);
    turned->position->setCoords(1.5, 1.0);
    QCOMPARE(DirectLabels::boxOf(turned),
             QRectF(turned->topLeft->pixelPosition(), turned->bottomRight->pixelPosition()).normalized());
    auto *left = new QCPItemText(&plot);
    left->setText(u"left\nand longer"_s);
    left->setTextAlignment(Qt::AlignLeft);
    left->position->setCoords(1.5, 1.0);
    QCOMPARE(DirectLabels::boxOf(left),
             QRectF(left->topLeft->pixelPosition(), left->bottomRight->pixelPosition()).normalized());
    QVERIFY(asked > 1000);
}

POSENC_TEST_MAIN(TestDirectLabelBox)
} // namespace tst_directlabelbox
#include "tst_directlabelbox.moc"
