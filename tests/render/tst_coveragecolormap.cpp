// A colour map drawn at a device's pixels (CoverageColorMap) shows each pixel the area-weighted
// mean of the colours of the cells it covers, written here from that definition in float64, and so
// no period the table does not have: columns alternating in value, more or fewer than the pixels
// in a ratio no whole number gives, keep a column-mean profile whose spectrum holds the table's
// period and no beat (nearest-neighbour scaling, QCPColorMap's, beats at a third of it).

#include "render/CoverageColorMap.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace tst_coveragecolormap {
using namespace posenc;

namespace {

// A plot whose axis rect is the whole of it, `cols` columns of `rows` alike rows over it, column j
// -1 or +1 by turns, grey from black to white.
struct AlternatingMap
{
    QCustomPlot plot;
    QCPColorMap *map = nullptr;

    explicit AlternatingMap(int cols, int rows = 1)
    {
        QCPAxisRect *rect = plot.axisRect();
        rect->setAutoMargins(QCP::msNone);
        rect->setMargins(QMargins());
        for (QCPAxis *axis : rect->axes()) {
            axis->setVisible(false);
            axis->grid()->setVisible(false);
        }
        plot.xAxis->setRange(-0.5, cols - 0.5);
        plot.yAxis->setRange(-0.5, rows - 0.5);
        map = new CoverageColorMap(plot.xAxis, plot.yAxis);
        map->setInterpolate(false);
        map->setTightBoundary(false);
        map->setGradient(QCPColorGradient::gpGrayscale);
        map->setDataRange({-1.0, 1.0});
        map->data()->setSize(cols, rows);
        // A lone cell spans the whole range (QCPColorMap::draw), more span their centres.
        const auto range = [](int n) { return n == 1 ? QCPRange(-0.5, 0.5) : QCPRange(0.0, n - 1.0); };
        map->data()->setRange(range(cols), range(rows));
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j)
                map->data()->setCell(j, i, value(j));
    }

    static double value(int j) { return j % 2 == 0 ? -1.0 : 1.0; }
    double grey(int j) const { return qRed(map->gradient().color(value(j), map->dataRange())); }

    // The grey of device pixel x where the columns span device pixels [0, extent), from the
    // definition: column j covers [j w, (j + 1) w) with w = extent / cols, and the pixel [x, x + 1)
    // the mean over it, the white page showing through what they leave of it.
    double expected(int x, double extent, int cols) const
    {
        const double w = extent / cols;
        double sum = 0.0;
        double covered = 0.0;
        for (int j = 0; j < cols; ++j) {
            const double share = std::max(0.0, std::min(x + 1.0, (j + 1) * w) - std::max(double(x), j * w));
            sum += share * grey(j);
            covered += share;
        }
        return sum + (1.0 - covered) * 255.0;
    }
};

// The mean grey of each column of `image`, over its middle row.
std::vector<double> profile(const QImage &image)
{
    std::vector<double> grey(std::size_t(image.width()));
    const int y = image.height() / 2;
    for (int x = 0; x < image.width(); ++x)
        grey[std::size_t(x)] = qGray(image.pixel(x, y));
    return grey;
}

// The magnitude of `signal`'s component at `cycles` per sample (its mean taken out), under a Hann
// window so that the table's period leaks nothing far from it.
double component(const std::vector<double> &signal, double cycles)
{
    double mean = 0.0;
    for (double v : signal)
        mean += v;
    mean /= double(signal.size());
    std::complex<double> sum;
    const auto n = double(signal.size());
    for (std::size_t i = 0; i < signal.size(); ++i) {
        const double hann = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * double(i) / (n - 1));
        sum += hann * (signal[i] - mean) * std::polar(1.0, -2 * std::numbers::pi * cycles * double(i));
    }
    return std::abs(sum);
}

} // namespace

class TestCoverageColorMap : public QObject
{
    Q_OBJECT

private slots:
    void pixelsAreCoverageMeans_data();
    void pixelsAreCoverageMeans();
    void noBeatTheTableLacks();
    void pixelsOnPixelsAreTheSource();
};

void TestCoverageColorMap::pixelsAreCoverageMeans_data()
{
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("layout"); // layout units wide
    QTest::addColumn<double>("scale"); // device pixels a layout unit
    QTest::addColumn<int>("rows"); // over 40 layout units
    QTest::newRow("fewer columns than pixels") << 293 << 400 << 1.0 << 1;
    QTest::newRow("more columns than pixels") << 1031 << 400 << 1.0 << 1;
    QTest::newRow("more rows than pixels") << 293 << 400 << 1.0 << 997;
    QTest::newRow("scaled to 300 dpi") << 512 << 221 << 3.125 << 3;
    QTest::newRow("one column") << 1 << 57 << 1.0 << 1;
    QTest::newRow("a column a pixel") << 400 << 400 << 1.0 << 40;
}

void TestCoverageColorMap::pixelsAreCoverageMeans()
{
    QFETCH(int, cols);
    QFETCH(int, layout);
    QFETCH(double, scale);
    QFETCH(int, rows);
    AlternatingMap map(cols, rows);
    const QImage image = map.plot.toPixmap(layout, 40, scale).toImage();
    const int width = image.width();
    QCOMPARE(width, qRound(layout * scale));
    const double extent = layout * scale; // the axis rect, the whole plot, in device pixels
    const std::vector<double> seen = profile(image);
    for (int x = 0; x < width; ++x) {
        const double expected = map.expected(x, extent, cols);
        QVERIFY2(std::abs(seen[std::size_t(x)] - expected) <= 1.5,
                 qPrintable(QStringLiteral("pixel %1: grey %2, the cells it covers %3")
                                .arg(x)
                                .arg(seen[std::size_t(x)])
                                .arg(expected)));
    }
}

void TestCoverageColorMap::noBeatTheTableLacks()
{
    // 512 columns over 690 pixels, as a 512-column table on a column-wide PNG: the table's period,
    // two columns, is 2.7 pixels; under nearest neighbour its third harmonic (3 / 2 cycles a column)
    // falls back to 0.15 cycles a pixel, a band every 7 pixels the table does not have.
    const int cols = 512;
    const int width = 690;
    AlternatingMap map(cols);
    const std::vector<double> seen = profile(map.plot.toPixmap(width, 40, 1.0).toImage());
    const double cellsPerPixel = double(cols) / width;
    const double table = component(seen, 0.5 * cellsPerPixel);
    double beat = 0.0;
    for (double f = 0.02; f < 0.3; f += 0.0005) // well away from the table's 0.37 and from 0
        beat = std::max(beat, component(seen, f));
    QVERIFY2(table > 0.0, "the table's period is drawn");
    // The box over a pixel passes the third harmonic at |sinc(3/2 · 0.74)| / 3 ≈ 0.03 of the
    // period's; nearest neighbour at a third.
    QVERIFY2(beat < 0.1 * table,
             qPrintable(QStringLiteral("a period the table lacks at %1 of its own").arg(beat / table)));
}

// Source pixels spread one for one over whole device pixels are those device pixels, as the
// definition gives (each covers its one pixel wholly), clipped: and one spread a fraction off them
// is not.
void TestCoverageColorMap::pixelsOnPixelsAreTheSource()
{
    QImage source(9, 5, QImage::Format_ARGB32);
    for (int y = 0; y < source.height(); ++y)
        for (int x = 0; x < source.width(); ++x)
            source.setPixel(x, y, qRgba((x * 53 + y * 17) % 256, (x * 11) % 256, (y * 91) % 256, 128 + x * 10));
    const QImage premultiplied = source.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QPoint origin;
    const QImage whole = CoverageColorMap::coverage(source, QRectF(3, 4, 9, 5), QRect(0, 0, 100, 100), &origin);
    QCOMPARE(origin, QPoint(3, 4));
    QCOMPARE(whole, premultiplied);
    const QImage clipped = CoverageColorMap::coverage(source, QRectF(3, 4, 9, 5), QRect(5, 5, 3, 2), &origin);
    QCOMPARE(origin, QPoint(5, 5));
    QCOMPARE(clipped, premultiplied.copy(2, 1, 3, 2));
    const QImage shifted = CoverageColorMap::coverage(source, QRectF(3.5, 4, 9, 5), QRect(0, 0, 100, 100), &origin);
    QCOMPARE(shifted.width(), 10);
    QVERIFY(shifted.copy(1, 0, 9, 5) != premultiplied);
}

POSENC_TEST_MAIN(TestCoverageColorMap)
} // namespace tst_coveragecolormap
#include "tst_coveragecolormap.moc"
