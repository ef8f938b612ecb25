// A key's swatches named within the shades they stand for (ShadeLabels), as an author writes a
// range's name inside matplotlib's ax.axvspan: each label within a shade of its swatch's colour,
// clear of the curve drawn over it, readable on white (WCAG 2's contrast ratio, computed here from
// its definition), in the longest of its forms that fits; none where a shade holds no form.
// Measured against plain geometry (the curve's segment, the shade's coordinates), not against the
// placing's cells.
#include "render/DirectLabelScene.h"
#include "render/ShadeLabels.h"
#include "render/SwatchLegend.h"
#include "support/PlainPlot.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_shadelabels {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// A shade over x in [x0, x1] and the plot's whole height, as PlotItems::shade draws one.
QCPItemRect *shade(QCPAxisRect *rect, double x0, double x1, const QColor &fill)
{
    auto *item = new QCPItemRect(rect->parentPlot());
    item->setClipAxisRect(rect);
    for (QCPItemPosition *corner : {item->topLeft, item->bottomRight}) {
        corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        corner->setAxisRect(rect);
        corner->setTypeX(QCPItemPosition::ptPlotCoords);
        corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    item->setPen(Qt::NoPen);
    item->setBrush(fill);
    item->topLeft->setCoords(x0, 0.0);
    item->bottomRight->setCoords(x1, 1.0);
    return item;
}

// WCAG 2's contrast ratio of `colour` against white.
double contrastOnWhite(const QColor &colour)
{
    const auto linear = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const double l
        = 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF());
    return 1.05 / (l + 0.05);
}

// Whether the segment a..b comes within `reach` of `box`, read from points every tenth of a unit.
bool near(QPointF a, QPointF b, const QRectF &box, double reach)
{
    const QRectF grown = box.adjusted(-reach, -reach, reach, reach);
    const int steps = int(std::ceil(QLineF(a, b).length() * 10.0));
    for (int i = 0; i <= steps; ++i)
        if (grown.contains(a + (b - a) * (double(i) / steps)))
            return true;
    return false;
}

const QColor kBlue(86, 180, 233, 60);
const QColor kGrey(120, 120, 120, 45);

} // namespace

class TestShadeLabels : public QObject
{
    Q_OBJECT

private slots:
    void aSwatchLabelsItsFirstPart();
    void eachShadeIsNamedWithinItClearOfTheCurve();
    void aShadeTooNarrowForAnyFormIsNamedNowhere();
};

// A swatch's forms: as given, then its first part ("capped" of buckets' "capped / past max").
void TestShadeLabels::aSwatchLabelsItsFirstPart()
{
    QCOMPARE(ShadeLabels::formsOf(u"capped / past max"_s), QStringList({u"capped / past max"_s, u"capped"_s}));
    QCOMPARE(ShadeLabels::formsOf(u"exact: one bucket a distance"_s),
             QStringList({u"exact: one bucket a distance"_s, u"exact"_s}));
    QCOMPARE(ShadeLabels::formsOf(u"exact"_s), QStringList({u"exact"_s}));
}

// Two shades and a rising line over both: each swatch's label stands within its own shade, off
// the line by more than its pen, in a colour of its swatch's hue that reads on white.
void TestShadeLabels::eachShadeIsNamedWithinItClearOfTheCurve()
{
    QCustomPlot plot;
    QCPAxisRect *rect = PlainPlot::make(plot);
    QCPItemRect *near0 = shade(rect, 0.0, 120.0, kBlue);
    QCPItemRect *far = shade(rect, 200.0, 300.0, kGrey);
    QCPGraph *line = plot.addGraph();
    line->setData(QList<double> {0.0, 300.0}, QList<double> {20.0, 180.0}, true);
    line->setPen(QPen(Qt::black, 2.0));
    line->setName(u"rising"_s);
    plot.legend->setVisible(true);
    plot.legend->clearItems();
    plot.legend->addItem(new QCPPlottableLegendItem(plot.legend, line));
    QCPAbstractLegendItem *exact = SwatchLegend::add(plot.legend, {kBlue, u"exact near"_s});
    QCPAbstractLegendItem *capped = SwatchLegend::add(plot.legend, {kGrey, u"capped / past max"_s});
    QVERIFY(ShadeLabels::nameable(exact) && ShadeLabels::nameable(capped));
    QVERIFY(ShadeLabels::labelable(plot.legend));

    const QList<QCPItemText *> texts = ShadeLabels::make(
        plot.legend, {ShadeLabels::formsOf(u"exact near"_s), ShadeLabels::formsOf(u"capped / past max"_s)}, false);
    QCOMPARE(texts.size(), 2);
    const QPointF a(rect->axis(QCPAxis::atBottom)->coordToPixel(0.0), rect->axis(QCPAxis::atLeft)->coordToPixel(20.0));
    const QPointF b(rect->axis(QCPAxis::atBottom)->coordToPixel(300.0),
                    rect->axis(QCPAxis::atLeft)->coordToPixel(180.0));
    for (const auto &[text, within, swatch] :
         {std::tuple {texts[0], near0, kBlue}, std::tuple {texts[1], far, kGrey}}) {
        QVERIFY(text->visible());
        const QRectF box = DirectLabels::boxOf(text);
        const QRectF area = QRectF(within->topLeft->pixelPosition(), within->bottomRight->pixelPosition()).normalized();
        QVERIFY2(area.contains(box), qPrintable(text->text()));
        QVERIFY2(!near(a, b, box, 1.0), qPrintable(text->text()));
        QVERIFY(contrastOnWhite(text->color()) >= 4.5);
        QColor opaque = swatch;
        opaque.setAlpha(255);
        QVERIFY(std::abs(text->color().hsvHue() - opaque.hsvHue()) <= 4 || opaque.hsvSaturation() < 20);
        QCOMPARE(ShadeLabels::swatchOf(text), swatch);
    }
    QCOMPARE(texts[0]->text(), u"exact near"_s);
    // The key gone for its labels (Changes::labelDirectly hides it): they stand clear.
    plot.legend->setVisible(false);
    QVERIFY(ShadeLabels::clear(plot));

    // The line moved across a label: no longer clear, and placed again clear of it.
    const QRectF before = DirectLabels::boxOf(texts[0]);
    const double at = rect->axis(QCPAxis::atLeft)->pixelToCoord(before.center().y());
    line->setData(QList<double> {0.0, 300.0}, QList<double> {at, at}, true);
    QVERIFY(!ShadeLabels::clear(plot));
    QVERIFY(ShadeLabels::place(&plot));
    QVERIFY(ShadeLabels::clear(plot));
    const double y = rect->axis(QCPAxis::atLeft)->coordToPixel(at);
    QVERIFY(!near(QPointF(0.0, y), QPointF(300.0, y), DirectLabels::boxOf(texts[0]), 1.0));
}

// A shade a few units wide holds no label of its swatch: nothing is added to the plot.
void TestShadeLabels::aShadeTooNarrowForAnyFormIsNamedNowhere()
{
    QCustomPlot plot;
    QCPAxisRect *rect = PlainPlot::make(plot);
    shade(rect, 100.0, 104.0, kBlue);
    plot.legend->setVisible(true);
    plot.legend->clearItems();
    SwatchLegend::add(plot.legend, {kBlue, u"exact"_s});
    const int items = plot.itemCount();
    QVERIFY(ShadeLabels::make(plot.legend, {ShadeLabels::formsOf(u"exact"_s)}, false).isEmpty());
    QCOMPARE(plot.itemCount(), items);
}

POSENC_TEST_MAIN(TestShadeLabels)
} // namespace tst_shadelabels
#include "tst_shadelabels.moc"
