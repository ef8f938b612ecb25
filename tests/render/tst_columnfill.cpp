// A band filled column by column of device pixels (ColumnFill) fills exactly the pixels the raster
// engine fills for the band's polygon without antialiasing: each column's pixels whose centres lie
// between the two sides at the column's centre, a spike of one column kept, NaN gaps left empty.
#include "render/ColumnFill.h"
#include "support/TestMain.h"

#include <QPainter>
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tst_columnfill {
using namespace posenc;

class TestColumnFill : public QObject
{
    Q_OBJECT

private slots:
    void fillsWhatThePolygonFills_data();
    void fillsWhatThePolygonFills();
    void keepsASpikeOfOneColumn();
    void refusesARotatedPainter();
    void aBandFarOffTheImageDrawsNothing_data();
    void aBandFarOffTheImageDrawsNothing();
};

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 200;
const QColor kFill(213, 94, 0, 70);

struct Band
{
    QList<QPointF> low, high;
};

// `points` points over the image's width (some not on a pixel's centre), a jagged band around a
// slow curve as a figure's per-pixel envelope is; every `gap`th point NaN (0: none); `crossing`:
// the sides swap halfway.
Band makeBand(int points, int gap, bool crossing, quint32 seed)
{
    QRandomGenerator random(seed);
    Band band;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int i = 0; i < points; ++i) {
        const double x = 3.2 + (kWidth - 7.0) * i / (points - 1);
        const double middle = 100.0 + 60.0 * std::sin(x * 0.02);
        double lo = middle + 2.0 + 30.0 * random.generateDouble(), hi = middle - 2.0 - 30.0 * random.generateDouble();
        if (crossing && i > points / 2)
            std::swap(lo, hi);
        const bool broken = gap > 0 && i % gap == gap / 2;
        band.low.append({x, broken ? nan : lo});
        band.high.append({x, hi});
    }
    return band;
}

// The polygon QCPGraph fills: each run of points where both sides are finite, one side out and the
// other back, drawn without antialiasing.
QImage byPolygon(const Band &band, qreal ratio)
{
    QImage image(int(kWidth * ratio), int(kHeight * ratio), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setPen(Qt::NoPen);
    painter.setBrush(kFill);
    QList<QPointF> low, high;
    const auto flush = [&] {
        QList<QPointF> outline = low;
        for (auto it = high.crbegin(); it != high.crend(); ++it)
            outline.append(*it);
        if (low.size() >= 2)
            painter.drawPolygon(outline.constData(), int(outline.size()));
        low.clear();
        high.clear();
    };
    for (qsizetype i = 0; i < band.low.size(); ++i) {
        if (!std::isfinite(band.low[i].y()) || !std::isfinite(band.high[i].y())) {
            flush();
            continue;
        }
        low.append(band.low[i]);
        high.append(band.high[i]);
    }
    flush();
    return image;
}

QImage byColumns(const Band &band, qreal ratio)
{
    QImage image(int(kWidth * ratio), int(kHeight * ratio), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::white);
    QPainter painter(&image);
    if (!ColumnFill::draw(painter, band.low, band.high, kFill))
        return {};
    return image;
}

} // namespace

void TestColumnFill::fillsWhatThePolygonFills_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("gap");
    QTest::addColumn<bool>("crossing");
    QTest::addColumn<qreal>("ratio");
    QTest::newRow("a point a pixel") << kWidth - 4 << 0 << false << 1.0;
    QTest::newRow("a point every 8 pixels") << 40 << 0 << false << 1.0;
    QTest::newRow("three points a pixel") << 3 * kWidth << 0 << false << 1.0;
    QTest::newRow("NaN gaps") << kWidth - 4 << 37 << false << 1.0;
    QTest::newRow("sides crossing") << 120 << 0 << true << 1.0;
    QTest::newRow("pixel ratio 2") << kWidth - 4 << 0 << false << 2.0;
    QTest::newRow("pixel ratio 1.5, gaps") << 200 << 23 << false << 1.5;
}

void TestColumnFill::fillsWhatThePolygonFills()
{
    QFETCH(int, points);
    QFETCH(int, gap);
    QFETCH(bool, crossing);
    QFETCH(qreal, ratio);
    const Band band = makeBand(points, gap, crossing, 1234u + quint32(points));
    const QImage columns = byColumns(band, ratio);
    const QImage polygon = byPolygon(band, ratio);
    QVERIFY(!columns.isNull());
    // Each column holds the rows between the sides at its centre, from the sides alone (in device
    // pixels)...
    QList<QPointF> low, high;
    for (qsizetype i = 0; i < band.low.size(); ++i) {
        low.append(band.low[i] * ratio);
        high.append(band.high[i] * ratio);
    }
    int differ = 0, filled = 0;
    for (int x = 0; x < columns.width(); ++x) {
        const ColumnFill::Rows rows = ColumnFill::rowsAt(low, high, x + 0.5);
        for (int y = 0; y < columns.height(); ++y) {
            const bool inside = y >= rows.first && y < rows.last;
            QCOMPARE(columns.pixel(x, y) != qRgb(255, 255, 255), inside);
            // ...as the polygon's: but where a side passes within the raster engine's rounding of a
            // pixel's centre (its scanlines step in fixed point), a run may end a pixel apart.
            filled += polygon.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
            if (columns.pixel(x, y) != polygon.pixel(x, y)) {
                ++differ;
                const bool atAnEnd = std::abs(y - rows.first) <= 1 || std::abs(y - (rows.last - 1)) <= 1;
                QVERIFY2(atAnEnd,
                         qPrintable(QStringLiteral("pixel (%1, %2) differs inside its column's run [%3, %4)")
                                        .arg(x)
                                        .arg(y)
                                        .arg(rows.first)
                                        .arg(rows.last)));
            }
        }
    }
    QVERIFY2(filled > 1000, "the polygon filled nothing");
    QVERIFY2(differ * 2000 <= filled,
             qPrintable(QStringLiteral("%1 of %2 filled pixels differ from the polygon's").arg(differ).arg(filled)));
}

// A figure's envelope of a point a pixel: one column far above its neighbours keeps its whole run.
void TestColumnFill::keepsASpikeOfOneColumn()
{
    Band band;
    for (int i = 0; i < kWidth; ++i) {
        const double top = i == 150 ? 10.0 : 120.0;
        band.high.append({i + 0.5, top});
        band.low.append({i + 0.5, 140.0});
    }
    const QImage image = byColumns(band, 1.0);
    QVERIFY(!image.isNull());
    for (int y = 0; y < kHeight; ++y) {
        QCOMPARE(image.pixel(150, y) != qRgb(255, 255, 255), y >= 10 && y < 140);
        QCOMPARE(image.pixel(149, y) != qRgb(255, 255, 255), y >= 120 && y < 140);
    }
}

void TestColumnFill::refusesARotatedPainter()
{
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.rotate(30.0);
    const Band band = makeBand(50, 0, false, 7u);
    QVERIFY(!ColumnFill::draw(painter, band.low, band.high, kFill));
    painter.end();
    QCOMPARE(image.pixel(kWidth / 2, kHeight / 2), qRgb(255, 255, 255));
}

// Before, a side wholly past the image's edge at a coordinate no int holds became an int (undefined
// behaviour, which UBSan stops at) before it was clipped.
void TestColumnFill::aBandFarOffTheImageDrawsNothing_data()
{
    QTest::addColumn<double>("from");
    QTest::newRow("far right") << 1e300;
    QTest::newRow("far left") << -1e300;
    QTest::newRow("past the last int") << 3e9;
}

void TestColumnFill::aBandFarOffTheImageDrawsNothing()
{
    QFETCH(double, from);
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    const double step = std::max(1.0, std::fabs(from) * 1e-3);
    const QList<QPointF> low {{from, 150.0}, {from + step, 150.0}}, high {{from, 50.0}, {from + step, 50.0}};
    QVERIFY(ColumnFill::draw(painter, low, high, kFill));
    painter.end();
    for (int y = 0; y < kHeight; y += 7)
        for (int x = 0; x < kWidth; x += 7)
            QCOMPARE(image.pixel(x, y), qRgb(255, 255, 255));
}

POSENC_TEST_MAIN(TestColumnFill)
} // namespace tst_columnfill
#include "tst_columnfill.moc"
