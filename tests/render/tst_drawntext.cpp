// A text drawn from its remembered layout (DrawnText) is every pixel QPainter::drawText draws, with
// the bounds it reports, for each alignment, clipping, font, fractional position, scale and device
// pixel ratio, on one line or on several (a wrapped title); what it does not lay out itself (tabs,
// wrapping, a line that starts with a space) is Qt's drawing too.
#include "render/DrawnText.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include <QImage>
#include <QPainter>
#include <QTest>

namespace tst_drawntext {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestDrawnText : public QObject
{
    Q_OBJECT

private slots:
    void drawsQtsPixels_data();
    void drawsQtsPixels();
    void drawsQtsPixelsAgain();
};

namespace {

struct Drawn
{
    QImage image;
    QRectF bounds;
};

// The text drawn in a 160 x 60 image at `ratio` device pixels a unit, the painter moved by
// `shift` and scaled by `scale`, by Qt or from the remembered layout; without `withBounds`, no
// bounds are asked for (Qt then stops at the line that reaches the bottom of a clipping rect).
Drawn drawn(bool ours, const QFont &font, const QRectF &rect, int flags, const QString &text, double ratio,
            const QPointF &shift, double scale, bool withBounds = true)
{
    QImage image(QSize(160, 60) * ratio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.translate(shift);
    painter.scale(scale, scale);
    painter.setFont(font);
    painter.setPen(QColor(20, 30, 200));
    QRectF bounds;
    QRectF *asked = withBounds ? &bounds : nullptr;
    if (ours)
        DrawnText::draw(painter, rect, flags, text, asked);
    else
        painter.drawText(rect, flags, text, asked);
    painter.end();
    return {image, bounds};
}

QFont font(double points, bool bold = false)
{
    QFont f = PinnedFont::apply(QFont());
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

} // namespace

void TestDrawnText::drawsQtsPixels_data()
{
    QTest::addColumn<QFont>("font");
    QTest::addColumn<QRectF>("rect");
    QTest::addColumn<int>("flags");
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<QPointF>("shift");
    QTest::addColumn<double>("scale");
    QTest::addColumn<bool>("withBounds");
    const QPointF none(0, 0), half(0.5, 0.25), third(10.33, 7.7);
    // QCPAxisPainterPrivate::drawTickLabel's label and power parts.
    QTest::newRow("tick label") << font(10.05) << QRectF(3, 4, 30, 14) << int(Qt::TextDontClip | Qt::AlignHCenter)
                                << u"-0.5"_s << 1.0 << none << 1.0 << true;
    QTest::newRow("tick label, half a pixel")
        << font(10.05) << QRectF(3, 4, 31, 14) << int(Qt::TextDontClip | Qt::AlignHCenter) << u"131072"_s << 1.0 << half
        << 1.0 << true;
    QTest::newRow("tick label at 2x") << font(10.05) << QRectF(3, 4, 31, 14) << int(Qt::TextDontClip | Qt::AlignHCenter)
                                      << u"2·10"_s << 2.0 << third << 1.0 << true;
    QTest::newRow("power, no room") << font(7) << QRectF(12, 2, 0, 0) << int(Qt::TextDontClip) << u"-4"_s << 1.0
                                    << third << 1.0 << true;
    // QCPTextElement's title and a legend entry's text.
    QTest::newRow("title centred") << font(11, true) << QRectF(0, 0, 157, 40) << int(Qt::AlignCenter)
                                   << u"RoPE: rotation of pair i at position p (θ = 500000)"_s << 1.0 << half << 1.0
                                   << true;
    QTest::newRow("title clipped") << font(11, true) << QRectF(5, 5, 60, 12) << int(Qt::AlignCenter)
                                   << u"a title wider than its room"_s << 1.0 << none << 1.0 << true;
    QTest::newRow("legend entry") << font(9) << QRectF(20.0, 3.0, 80.0, 16.0) << int(Qt::TextDontClip)
                                  << u"θ_i = b^(−2i/d), i ≥ 64"_s << 2.0 << none << 1.0 << true;
    QTest::newRow("right, bottom") << font(9) << QRectF(10, 10, 140, 45) << int(Qt::AlignRight | Qt::AlignBottom)
                                   << u"1e-10 floor"_s << 1.0 << third << 1.0 << true;
    QTest::newRow("scaled") << font(9) << QRectF(10, 10, 90, 25) << int(Qt::AlignCenter) << u"0.731"_s << 1.0 << half
                            << 1.37 << true;
    QTest::newRow("single line") << font(9) << QRectF(0, 0, 150, 30) << int(Qt::TextSingleLine | Qt::AlignLeft)
                                 << u"positions p"_s << 1.0 << none << 1.0 << true;
    // Lines broken at a newline (a title or an axis label FigureFit wrapped), each aligned alone.
    QTest::newRow("two lines") << font(9) << QRectF(0, 0, 150, 50) << int(Qt::AlignCenter)
                               << u"first line\nsecond line"_s << 1.0 << half << 1.0 << true;
    QTest::newRow("two lines, right, bottom")
        << font(9) << QRectF(3, 2, 150, 50) << int(Qt::AlignRight | Qt::AlignBottom) << u"a longer first line\nshort"_s
        << 1.0 << third << 1.0 << true;
    QTest::newRow("three lines at 2x") << font(10.05, true) << QRectF(0, 0, 140, 55) << int(Qt::AlignCenter)
                                       << u"Sinusoidal PE:\nvalues of every\nposition"_s << 2.0 << half << 1.0 << true;
    QTest::newRow("three lines, fractional size")
        << font(7.3) << QRectF(1.5, 2.25, 120, 50) << int(Qt::AlignHCenter | Qt::AlignTop | Qt::TextDontClip)
        << u"one\ntwo and more\nthree"_s << 1.5 << none << 1.0 << true;
    QTest::newRow("lines clipped, no bounds asked") << font(11, true) << QRectF(5, 5, 100, 20) << int(Qt::AlignCenter)
                                                    << u"first\nsecond\nthird\nfourth"_s << 1.0 << half << 1.0 << false;
    QTest::newRow("lines clipped at the bottom, no bounds asked")
        << font(9) << QRectF(5, 5, 100, 18) << int(Qt::AlignLeft | Qt::AlignBottom) << u"one\ntwo\nthree"_s << 1.0
        << none << 1.0 << false;
    // Left to QPainter::drawText: a tab, a word wrap, a line that starts or ends with a space, an empty
    // line.
    QTest::newRow("second line indented") << font(9) << QRectF(0, 0, 150, 50) << int(Qt::AlignRight)
                                          << u"first\n  second"_s << 1.0 << none << 1.0 << true;
    QTest::newRow("space before a newline")
        << font(9) << QRectF(0, 0, 150, 50) << int(Qt::AlignRight) << u"first \nsecond"_s << 1.0 << none << 1.0 << true;
    QTest::newRow("empty line") << font(9) << QRectF(0, 0, 150, 50) << int(Qt::AlignCenter) << u"first\n\nthird"_s
                                << 1.0 << none << 1.0 << true;
    QTest::newRow("tab") << font(9) << QRectF(0, 0, 150, 50) << int(Qt::AlignLeft) << u"a\tb"_s << 1.0 << none << 1.0
                         << true;
    QTest::newRow("wrapped") << font(9) << QRectF(0, 0, 60, 50) << int(Qt::TextWordWrap)
                             << u"a text that wraps in its room"_s << 1.0 << none << 1.0 << true;
}

void TestDrawnText::drawsQtsPixels()
{
    QFETCH(QFont, font);
    QFETCH(QRectF, rect);
    QFETCH(int, flags);
    QFETCH(QString, text);
    QFETCH(double, ratio);
    QFETCH(QPointF, shift);
    QFETCH(double, scale);
    QFETCH(bool, withBounds);
    const Drawn qt = drawn(false, font, rect, flags, text, ratio, shift, scale, withBounds);
    const Drawn ours = drawn(true, font, rect, flags, text, ratio, shift, scale, withBounds);
    QCOMPARE(ours.bounds, qt.bounds);
    QVERIFY(!qt.image.isNull());
    QCOMPARE(ours.image, qt.image);
    // Something was drawn: the comparison is not of two empty images.
    QImage blank(qt.image.size(), qt.image.format());
    blank.fill(Qt::transparent);
    QVERIFY(qt.image != blank);
}

// The second draw of a text, from the layout the first one left, is Qt's too, at another place
// and at another device pixel ratio.
void TestDrawnText::drawsQtsPixelsAgain()
{
    const QFont f = font(10.05);
    const QString text = u"65536"_s;
    drawn(true, f, QRectF(0, 0, 40, 14), Qt::TextDontClip | Qt::AlignHCenter, text, 1.0, QPointF(), 1.0);
    for (const QPointF &shift : {QPointF(0.5, 0.5), QPointF(33.25, 11.0), QPointF(-3.75, 20.5)}) {
        const Drawn qt
            = drawn(false, f, QRectF(5, 5, 41, 14), Qt::TextDontClip | Qt::AlignHCenter, text, 1.0, shift, 1.0);
        const Drawn ours
            = drawn(true, f, QRectF(5, 5, 41, 14), Qt::TextDontClip | Qt::AlignHCenter, text, 1.0, shift, 1.0);
        QCOMPARE(ours.bounds, qt.bounds);
        QCOMPARE(ours.image, qt.image);
    }
    // And on a device of twice the pixels (a view on a 2x screen) after those of one.
    for (const double ratio : {2.0, 1.5}) {
        const Drawn qt = drawn(false, f, QRectF(5, 5, 41, 14), Qt::TextDontClip | Qt::AlignHCenter, text, ratio,
                               QPointF(0.25, 0.5), 1.0);
        const Drawn ours = drawn(true, f, QRectF(5, 5, 41, 14), Qt::TextDontClip | Qt::AlignHCenter, text, ratio,
                                 QPointF(0.25, 0.5), 1.0);
        QCOMPARE(ours.bounds, qt.bounds);
        QCOMPARE(ours.image, qt.image);
    }
}

POSENC_TEST_MAIN(TestDrawnText)
} // namespace tst_drawntext
#include "tst_drawntext.moc"
