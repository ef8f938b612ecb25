// Antialiased markers stamped from a cached pixmap on screen: each lands within half a pixel of
// where QCPGraph draws it and looks the same; lines and bands drawn from fewer vertices look the
// same as QCPGraph's, dashed ones too, which go to the raster engine as dashed segments rather than
// as a polyline whose dashes are stroked and filled as one path. Aliased markers, and exports (PNG through toPixmap, vector through
// toPainter), are drawn exactly as QCPGraph draws them.
#include "render/StampedGraph.h"
#include "support/TestMain.h"

#include <cmath>
#include <limits>

namespace tst_stampedgraph {
using namespace posenc;

class TestStampedGraph : public QObject
{
    Q_OBJECT

private slots:
    void exportsDrawExactly_data();
    void exportsDrawExactly();
    void screenMarkersWithinHalfAPixel_data();
    void screenMarkersWithinHalfAPixel();
    void nonFinitePointsDrawNothing_data();
    void nonFinitePointsDrawNothing();
    void markersOnOnePixelAreStampedOnce();
    void linesAndBandsLookTheSame_data();
    void linesAndBandsLookTheSame();
    void dashedLinesAreNotStrokedAsPaths();
    void dashedSegmentsKeepThePatternsPhase();
    void solidLinesDrawTheFastPolylinesPixels_data();
    void solidLinesDrawTheFastPolylinesPixels();
    void aLineWithGapsIsSimplifiedOnce();
    void aLineAnotherGraphDrewIsNotSimplifiedAgain();
    void markersOutsideTheClipAreNotDrawn();
};

namespace {

constexpr int kWidth = 400;
constexpr int kHeight = 300;
constexpr int kMarkers = 12;

// A plot of kMarkers markers at places that fall between pixels, spread so that they never
// touch: a QCPGraph, or a StampedGraph.
void build(QCustomPlot &plot, bool stamped, const QCPScatterStyle &style, bool antialiased)
{
    plot.resize(kWidth, kHeight);
    plot.xAxis->setRange(0.0, 1.0);
    plot.yAxis->setRange(0.0, 1.0);
    QCPGraph *graph = stamped ? new StampedGraph(plot.xAxis, plot.yAxis) : new QCPGraph(plot.xAxis, plot.yAxis);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setPen(QPen(QColor(0, 114, 178), 1.3));
    graph->setScatterStyle(style);
    graph->setAntialiasedScatters(antialiased);
    QVector<double> keys, values;
    for (int i = 0; i < kMarkers; ++i) {
        keys.append(0.05 + 0.0731 * i + 0.0013 * (i % 5));
        values.append(0.1 + 0.0617 * i + 0.0021 * (i % 3));
    }
    graph->setData(keys, values, true);
}

// The same markers drawn on screen once by a StampedGraph and by a QCPGraph (so that a stamp
// exists before anything else is drawn).
void buildAndReplot(QCustomPlot &stamped, QCustomPlot &exact, const QCPScatterStyle &style, bool antialiased)
{
    build(stamped, true, style, antialiased);
    build(exact, false, style, antialiased);
    stamped.replot();
    exact.replot();
}

QList<QPointF> markerPixels(QCustomPlot &plot)
{
    QList<QPointF> pixels;
    const QCPGraph *graph = plot.graph(0);
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        pixels.append(graph->coordsToPixels(it->key, it->value));
    return pixels;
}

// The ink of the image (how far each pixel is from white) in a window around `around`: its
// total and its centroid.
struct Ink
{
    double total = 0.0;
    QPointF centroid;
};

Ink inkAround(const QImage &image, QPointF around, int radius)
{
    Ink ink;
    double sx = 0.0, sy = 0.0;
    for (int y = int(around.y()) - radius; y <= int(around.y()) + radius; ++y)
        for (int x = int(around.x()) - radius; x <= int(around.x()) + radius; ++x) {
            const QColor c = image.pixelColor(x, y);
            const double w = (255 - c.red()) + (255 - c.green()) + (255 - c.blue());
            ink.total += w;
            sx += w * (x + 0.5);
            sy += w * (y + 0.5);
        }
    if (ink.total > 0.0)
        ink.centroid = QPointF(sx / ink.total, sy / ink.total);
    return ink;
}

void addStyles()
{
    QTest::addColumn<QCPScatterStyle>("style");
    QTest::addColumn<bool>("antialiased");
    const QColor blue(0, 114, 178);
    QTest::newRow("ring 4") << QCPScatterStyle(QCPScatterStyle::ssCircle, blue, 4.0) << true;
    QTest::newRow("ring 7, pen 1.2") << QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(blue, 1.2), Qt::NoBrush, 7)
                                     << true;
    QTest::newRow("square 2.5") << QCPScatterStyle(QCPScatterStyle::ssSquare, blue, blue, 2.5) << true;
    QTest::newRow("disc 4.5") << QCPScatterStyle(QCPScatterStyle::ssDisc, blue, blue, 4.5) << true;
    QTest::newRow("white-filled circle 5") << QCPScatterStyle(QCPScatterStyle::ssCircle, blue, Qt::white, 5) << true;
    QTest::newRow("cross 4.5, aliased") << QCPScatterStyle(QCPScatterStyle::ssCross, blue, blue, 4.5) << false;
}

} // namespace

void TestStampedGraph::exportsDrawExactly_data()
{
    addStyles();
}

void TestStampedGraph::exportsDrawExactly()
{
    QFETCH(QCPScatterStyle, style);
    QFETCH(bool, antialiased);
    QCustomPlot stampedPlot, exactPlot;
    buildAndReplot(stampedPlot, exactPlot, style, antialiased);
    QCOMPARE(stampedPlot.toPixmap(kWidth, kHeight, 2.0).toImage(), exactPlot.toPixmap(kWidth, kHeight, 2.0).toImage());
    const auto throughPainter = [](QCustomPlot &plot) {
        QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QCPPainter painter(&image);
        plot.toPainter(&painter, kWidth, kHeight);
        painter.end();
        return image;
    };
    QCOMPARE(throughPainter(stampedPlot), throughPainter(exactPlot));
}

void TestStampedGraph::screenMarkersWithinHalfAPixel_data()
{
    addStyles();
}

void TestStampedGraph::screenMarkersWithinHalfAPixel()
{
    QFETCH(QCPScatterStyle, style);
    QFETCH(bool, antialiased);
    QCustomPlot stampedPlot, exactPlot;
    buildAndReplot(stampedPlot, exactPlot, style, antialiased);
    // The window's pixels: the paint buffers QCustomPlot drew on replot.
    const QImage stamped = stampedPlot.grab().toImage();
    const QImage exact = exactPlot.grab().toImage();
    QCOMPARE(stamped.size(), exact.size());
    if (!antialiased) {
        QCOMPARE(stamped, exact); // aliased markers are drawn as QCPGraph draws them
        return;
    }
    const QList<QPointF> pixels = markerPixels(exactPlot);
    QCOMPARE(pixels.size(), kMarkers);
    const int radius = int(std::ceil(style.size())) + 3;
    for (const QPointF &pixel : pixels) {
        const Ink a = inkAround(stamped, pixel, radius);
        const Ink b = inkAround(exact, pixel, radius);
        QVERIFY2(b.total > 0.0, "QCPGraph drew no marker there");
        // The same marker: as much ink within a few percent (antialiased edges fall on other
        // pixels when the place moves by a fraction of one)...
        QVERIFY2(std::abs(a.total - b.total) <= 0.12 * b.total,
                 qPrintable(QStringLiteral("ink %1 against %2").arg(a.total).arg(b.total)));
        // ...and at most half a pixel away, with a little room for the edges' rounding.
        QVERIFY2(std::abs(a.centroid.x() - b.centroid.x()) <= 0.6 && std::abs(a.centroid.y() - b.centroid.y()) <= 0.6,
                 qPrintable(QStringLiteral("centre (%1, %2) against (%3, %4)")
                                .arg(a.centroid.x())
                                .arg(a.centroid.y())
                                .arg(b.centroid.x())
                                .arg(b.centroid.y())));
    }
}

void TestStampedGraph::nonFinitePointsDrawNothing_data()
{
    QTest::addColumn<double>("key");
    QTest::addColumn<double>("value");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("NaN value") << 0.5 << nan;
    QTest::newRow("NaN key") << nan << 0.5;
    QTest::newRow("infinite value") << 0.5 << inf;
    QTest::newRow("-infinite key") << -inf << 0.5;
}

// The audit: a NaN point crashed the stamping (a copy to a NaN pixel, in the raster engine).
// Drawn on screen it is skipped, as QCPGraph draws nothing for it; the finite points still show.
void TestStampedGraph::nonFinitePointsDrawNothing()
{
    QFETCH(double, key);
    QFETCH(double, value);
    const QCPScatterStyle style(QCPScatterStyle::ssDisc, 6);
    QCustomPlot plot;
    build(plot, true, style, true);
    plot.graph(0)->addData(key, value);
    plot.replot();
    const QImage image = plot.grab().toImage();
    const QList<QPointF> pixels = markerPixels(plot);
    int inked = 0;
    for (const QPointF &at : pixels)
        if (std::isfinite(at.x()) && std::isfinite(at.y()) && inkAround(image, at, 4).total > 0.0)
            ++inked;
    QCOMPARE(inked, kMarkers);
}

// Markers that land on the device pixel of one already stamped (dense columns) are stamped once: the
// screen shows what the markers without them show; an export draws every one, as QCPGraph does.
void TestStampedGraph::markersOnOnePixelAreStampedOnce()
{
    const QCPScatterStyle style(QCPScatterStyle::ssCircle, QColor(0, 114, 178), 5);
    QCustomPlot once, twice;
    build(once, true, style, true);
    build(twice, true, style, true);
    once.replot();
    const QImage alone = once.grab().toImage();
    // Each marker again, less than a hundredth of a pixel away: on the same device pixel.
    QCPGraph *graph = twice.graph(0);
    const double step = 0.01 / kWidth;
    for (int i = 0; i < kMarkers; ++i)
        graph->addData(graph->data()->at(i)->key + step, graph->data()->at(i)->value);
    twice.replot();
    QCOMPARE(twice.grab().toImage(), alone);
    QVERIFY(twice.toPixmap(kWidth, kHeight, 1.0).toImage() != once.toPixmap(kWidth, kHeight, 1.0).toImage());
}

namespace {

// Curves of 600 points over a 400-pixel plot, as the figures' are (a point or two a pixel): lines
// of a pen 1.3 wide, or a band filled between a least and a most, with gaps where a value is NaN.
void buildCurves(QCustomPlot &plot, bool stamped, bool band, bool gaps, Qt::PenStyle style = Qt::SolidLine)
{
    plot.resize(kWidth, kHeight);
    plot.xAxis->setRange(0.0, 600.0);
    plot.yAxis->setRange(-1.5, 1.5);
    const auto graph
        = [&] { return stamped ? new StampedGraph(plot.xAxis, plot.yAxis) : new QCPGraph(plot.xAxis, plot.yAxis); };
    QVector<double> keys, low, high;
    for (int i = 0; i < 600; ++i) {
        keys.append(i);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        low.append(gaps && i % 150 == 70 ? nan : std::sin(i * 0.013) * std::exp(-i / 400.0) - 0.2);
        high.append(0.3 + 0.8 * std::cos(i * 0.021) + 0.05 * std::sin(i * 0.9));
    }
    QCPGraph *lower = graph();
    lower->setData(keys, low, true);
    lower->setPen(QPen(QColor(0, 114, 178), 1.3, style));
    QCPGraph *upper = graph();
    upper->setData(keys, high, true);
    upper->setPen(band ? QPen(Qt::NoPen) : QPen(QColor(213, 94, 0), 1.3, style));
    if (band) {
        upper->setBrush(QColor(213, 94, 0, 90));
        upper->setChannelFillGraph(lower);
    }
    plot.replot();
}

} // namespace

void TestStampedGraph::linesAndBandsLookTheSame_data()
{
    QTest::addColumn<bool>("band");
    QTest::addColumn<bool>("gaps");
    QTest::addColumn<Qt::PenStyle>("style");
    QTest::newRow("lines") << false << false << Qt::SolidLine;
    QTest::newRow("lines with gaps") << false << true << Qt::SolidLine;
    QTest::newRow("dashed lines") << false << false << Qt::DashLine;
    QTest::newRow("dashed lines with gaps") << false << true << Qt::DashLine;
    QTest::newRow("dotted lines") << false << false << Qt::DotLine;
    QTest::newRow("a band") << true << false << Qt::SolidLine;
    QTest::newRow("a band with gaps") << true << true << Qt::SolidLine;
}

void TestStampedGraph::linesAndBandsLookTheSame()
{
    QFETCH(bool, band);
    QFETCH(bool, gaps);
    QFETCH(Qt::PenStyle, style);
    QCustomPlot stampedPlot, exactPlot;
    buildCurves(stampedPlot, true, band, gaps, style);
    buildCurves(exactPlot, false, band, gaps, style);
    // Exported, every vertex is drawn.
    QCOMPARE(stampedPlot.toPixmap(kWidth, kHeight, 2.0).toImage(), exactPlot.toPixmap(kWidth, kHeight, 2.0).toImage());
    // On screen: a tenth of a pixel moves an antialiased edge's coverage by a tenth at most, where
    // segments meet a little more; the ink is the same. A band is filled with the pixels whose centres
    // it holds (ColumnFill): a pixel its antialiased edge covers in part is filled or left, by the
    // band's whole colour at most (alpha 90 of 255), and only along its two edges.
    const int edgeBound = 90;
    const QImage stamped = stampedPlot.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QImage exact = exactPlot.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(stamped.size(), exact.size());
    double inkStamped = 0.0, inkExact = 0.0;
    int largest = 0, pastLines = 0;
    for (int y = 0; y < exact.height(); ++y)
        for (int x = 0; x < exact.width(); ++x) {
            const QRgb a = stamped.pixel(x, y), b = exact.pixel(x, y);
            int here = 0;
            for (const int shift : {0, 8, 16}) {
                const int ca = (a >> shift) & 0xff, cb = (b >> shift) & 0xff;
                here = std::max(here, std::abs(ca - cb));
                inkStamped += 255 - ca;
                inkExact += 255 - cb;
            }
            largest = std::max(largest, here);
            pastLines += here > 64 ? 1 : 0;
        }
    QVERIFY2(inkExact > 0.0, "nothing was drawn");
    // Dashes are drawn by the raster engine's line rasteriser, whose antialiased coverage is a little
    // heavier than the path filler's (about 2 % more ink on these curves), and a dash that turns a
    // corner as two pieces with square caps instead of a bevel join: the same dashes in the same
    // places, differing at corners, which these curves of 1.5 vertices a pixel have inside most
    // dashes (about 190 pixels past 64 over 800 columns of line).
    const bool dashed = style != Qt::SolidLine;
    QVERIFY2(std::abs(inkStamped - inkExact) <= (dashed ? 0.025 : 0.01) * inkExact,
             qPrintable(QStringLiteral("ink %1 against %2").arg(inkStamped).arg(inkExact)));
    QVERIFY2(largest <= (band ? edgeBound : dashed ? 192 : 64),
             qPrintable(QStringLiteral("a pixel differs by %1 of 255").arg(largest)));
    // Past the lines' bound: band edge pixels only, fewer than one a column of each edge; a dashed
    // line's corners, fewer than one a column of the two lines.
    QVERIFY2(pastLines <= (band || dashed ? 2 * kWidth : 0),
             qPrintable(QStringLiteral("%1 pixels differ by more than 64").arg(pastLines)));
}

namespace {

// A paint device whose engine counts what it is asked to draw: polylines (QPainter::drawPolyline,
// which a dashed pen strokes as one path of dashes), lines, and paths.
class CountingEngine : public QPaintEngine
{
public:
    CountingEngine()
        : QPaintEngine(QPaintEngine::AllFeatures)
    { }
    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState &) override { }
    void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override { ++pixmaps; }
    void drawPolygon(const QPointF *, int, PolygonDrawMode mode) override
    {
        polylines += mode == PolylineMode ? 1 : 0;
    }
    void drawLines(const QLineF *, int count) override
    {
        lines += count;
        ++lineCalls;
    }
    void drawLines(const QLine *, int count) override
    {
        lines += count;
        ++lineCalls;
    }
    void drawPath(const QPainterPath &) override { ++paths; }
    Type type() const override { return QPaintEngine::User; }
    int polylines = 0, lines = 0, lineCalls = 0, paths = 0, pixmaps = 0;
};

class CountingDevice : public QPaintDevice
{
public:
    QPaintEngine *paintEngine() const override { return &engine; }
    int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
        case PdmWidth: return kWidth;
        case PdmHeight: return kHeight;
        case PdmDpiX: case PdmDpiY: case PdmPhysicalDpiX: case PdmPhysicalDpiY: return 96;
        case PdmDevicePixelRatio: return 1;
        case PdmDevicePixelRatioScaled: return int(QPaintDevice::devicePixelRatioFScale());
        default: return 32;
        }
    }
    mutable CountingEngine engine;
};

// A StampedGraph drawn straight onto a painter, as its layer draws it.
class OpenGraph : public StampedGraph
{
public:
    using StampedGraph::clipRect;
    using StampedGraph::draw;
    using StampedGraph::StampedGraph;
};

} // namespace

// The bug: a dashed line 1.2 pixels wide over a batch's columns was stroked by QDashStroker as one path
// of dashes and filled, a third of the positions' views' time a change; on screen it is drawn as
// lines, which the raster engine dashes one by one. A solid line wider than a pixel was drawn a
// segment a call (QCustomPlot's fast polyline); its segments now go over in batches. An export keeps
// QCustomPlot's polyline.
void TestStampedGraph::dashedLinesAreNotStrokedAsPaths()
{
    for (const Qt::PenStyle style : {Qt::DashLine, Qt::SolidLine}) {
        QCustomPlot plot;
        plot.resize(kWidth, kHeight);
        plot.xAxis->setRange(0.0, 600.0);
        plot.yAxis->setRange(-1.5, 1.5);
        plot.setPlottingHint(QCP::phFastPolylines, true);
        auto *graph = new OpenGraph(plot.xAxis, plot.yAxis);
        graph->setPen(QPen(QColor(213, 94, 0), 1.2, style));
        QVector<double> keys, values;
        for (int i = 0; i < 600; ++i) {
            keys.append(i);
            values.append(std::sin(i * 1.7)); // a new direction at every pixel, as a batch's band edge
        }
        graph->setData(keys, values, true);
        plot.replot();
        for (const bool exporting : {false, true}) {
            CountingDevice device;
            QCPPainter painter(&device);
            if (exporting)
                painter.setMode(QCPPainter::pmNoCaching);
            graph->draw(&painter);
            painter.end();
            const CountingEngine &e = device.engine;
            if (exporting) {
                QCOMPARE(e.polylines, 1);
            } else if (style == Qt::DashLine) {
                QCOMPARE(e.polylines, 0);
                QCOMPARE(e.paths, 0);
                QVERIFY2(e.lines > 300, qPrintable(QString::number(e.lines)));
            } else {
                QCOMPARE(e.polylines, 0);
                QVERIFY2(e.lines > 300, qPrintable(QString::number(e.lines)));
                QVERIFY2(e.lineCalls * 16 <= e.lines, qPrintable(QStringLiteral("%1 calls").arg(e.lineCalls)));
            }
        }
    }
}

// Aliased, a straight line cut into pieces at arbitrary places is drawn pixel for pixel as QPainter
// draws it whole with the same dashed pen: the pattern runs on from piece to piece.
void TestStampedGraph::dashedSegmentsKeepThePatternsPhase()
{
    for (const Qt::PenStyle style : {Qt::DashLine, Qt::DotLine, Qt::DashDotLine}) {
        const QPen pen(QColor(0, 114, 178), 1.6, style);
        QVector<QPointF> pieces;
        for (int i = 0; i <= 37; ++i)
            pieces.append(QPointF(10.0 + i * 9.73 + (i % 3) * 0.41, 40.3 + i * 5.17 + (i % 3) * 0.41 * 5.17 / 9.73));
        QImage whole(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
        whole.fill(Qt::white);
        QImage cut = whole;
        {
            QPainter painter(&whole);
            painter.setPen(pen);
            painter.drawLine(QLineF(pieces.front(), pieces.back()));
        }
        {
            QPainter painter(&cut);
            painter.setPen(pen);
            StampedGraph::drawDashedSegments(painter, pieces);
        }
        int differing = 0;
        for (int y = 0; y < whole.height(); ++y)
            for (int x = 0; x < whole.width(); ++x)
                differing += whole.pixel(x, y) != cut.pixel(x, y) ? 1 : 0;
        QVERIFY2(differing <= 4, qPrintable(QStringLiteral("style %1: %2 pixels differ").arg(int(style)).arg(differing)));
    }
}

void TestStampedGraph::solidLinesDrawTheFastPolylinesPixels_data()
{
    QTest::addColumn<bool>("antialiased");
    QTest::addColumn<double>("width");
    QTest::newRow("antialiased 1.3") << true << 1.3;
    QTest::newRow("aliased 1.3") << false << 1.3;
    QTest::newRow("antialiased 2") << true << 2.0;
    QTest::newRow("aliased 2") << false << 2.0;
}

// A curve whose every vertex matters (none is simplified away), with NaN gaps: a StampedGraph draws
// the pixels of a QCPGraph's fast polyline, byte for byte.
void TestStampedGraph::solidLinesDrawTheFastPolylinesPixels()
{
    QFETCH(bool, antialiased);
    QFETCH(double, width);
    QImage images[2];
    for (const bool stamped : {false, true}) {
        QCustomPlot plot;
        plot.resize(kWidth, kHeight);
        plot.setPlottingHint(QCP::phFastPolylines, true);
        plot.xAxis->setRange(0.0, 300.0);
        plot.yAxis->setRange(-1.5, 1.5);
        QCPGraph *graph = stamped ? new StampedGraph(plot.xAxis, plot.yAxis) : new QCPGraph(plot.xAxis, plot.yAxis);
        graph->setPen(QPen(QColor(0, 114, 178), width));
        graph->setAntialiased(antialiased);
        QVector<double> keys, values;
        for (int i = 0; i < 300; ++i) {
            keys.append(i + 0.37);
            // Up and down in turn: every vertex a turn that simplifying keeps.
            const double zigzag = (i % 2 == 0 ? 1.0 : -1.0) * (0.5 + 0.4 * std::sin(i * 0.37));
            values.append(i % 97 == 40 ? std::numeric_limits<double>::quiet_NaN() : zigzag);
        }
        graph->setData(keys, values, true);
        plot.replot();
        images[stamped ? 1 : 0] = plot.grab().toImage();
    }
    QCOMPARE(images[1], images[0]);
}

// A line with NaN gaps (every line of the positions' figures over a padded batch), drawn again with
// the same data: simplified once, not at every replot (a NaN is unequal to itself by value: the
// remembered line never matched, 2.5 M of a positions frame's 45 M instructions). The pixels of the
// second replot are the first's.
void TestStampedGraph::aLineWithGapsIsSimplifiedOnce()
{
    QCustomPlot plot;
    plot.resize(kWidth, kHeight);
    plot.xAxis->setRange(0.0, 300.0);
    plot.yAxis->setRange(-1.5, 1.5);
    auto *graph = new StampedGraph(plot.xAxis, plot.yAxis);
    graph->setPen(QPen(QColor(0, 114, 178), 1.3));
    QVector<double> keys, values;
    for (int i = 0; i < 300; ++i) {
        keys.append(i + 0.37);
        values.append(i % 97 == 40 ? std::numeric_limits<double>::quiet_NaN() : std::sin(i * 0.37));
    }
    graph->setData(keys, values, true);
    plot.replot();
    const QImage first = plot.grab().toImage();
    const quint64 before = StampedGraph::simplifications();
    plot.replot();
    plot.replot();
    QCOMPARE(StampedGraph::simplifications() - before, quint64(0));
    QCOMPARE(plot.grab().toImage(), first);
    // Other data is simplified anew.
    values[10] = 0.25;
    graph->setData(keys, values, true);
    plot.replot();
    QCOMPARE(StampedGraph::simplifications() - before, quint64(1));
}

// A figure filled anew makes new graphs (the curves figure's) of mostly the same lines (the PE's first
// columns, whatever d or L): a new graph's line drawn lately is not simplified again, the same pixels.
void TestStampedGraph::aLineAnotherGraphDrewIsNotSimplifiedAgain()
{
    const auto draw = [](double frequency) {
        QCustomPlot plot;
        plot.resize(kWidth, kHeight);
        plot.xAxis->setRange(0.0, 200.0);
        plot.yAxis->setRange(-1.15, 1.15);
        auto *graph = new StampedGraph(plot.xAxis, plot.yAxis);
        graph->setPen(QPen(QColor(0, 114, 178), 1.4));
        for (int i = 0; i < 400; ++i)
            graph->addData(i * 0.5, std::sin(i * 0.5 * frequency));
        plot.replot();
        return plot.grab().toImage();
    };
    const QImage first = draw(1.0);
    const quint64 before = StampedGraph::simplifications();
    QCOMPARE(draw(1.0), first);
    QCOMPARE(StampedGraph::simplifications() - before, quint64(0));
    QVERIFY(draw(1.01) != first && StampedGraph::simplifications() - before > 0); // another line is
}

// Markers wholly outside the axis rect (the PE's first columns' |mean| of 1e-17 on the magnitudes
// figure's log axis) are not handed to the paint engine: the plot shows what it shows without them.
void TestStampedGraph::markersOutsideTheClipAreNotDrawn()
{
    const QCPScatterStyle style(QCPScatterStyle::ssCircle, QColor(0, 114, 178), 5);
    QCustomPlot inside, all;
    build(inside, true, style, true);
    build(all, true, style, true);
    // Below the value range, above it, and one a pixel and a half below whose marker reaches into it.
    QCPGraph *graph = all.graph(0);
    for (int i = 0; i < kMarkers; ++i)
        graph->addData(graph->data()->at(i)->key, i % 2 == 0 ? -5.0 : 7.0);
    for (QCustomPlot *plot : {&inside, &all}) {
        plot->graph(0)->addData(0.5, -1.5 / kHeight);
        plot->replot();
    }
    QCOMPARE(all.grab().toImage(), inside.grab().toImage());
    auto *open = new OpenGraph(all.xAxis, all.yAxis);
    open->setLineStyle(QCPGraph::lsNone);
    open->setScatterStyle(style);
    open->setData(graph->data());
    CountingDevice device;
    QCPPainter painter(&device);
    painter.setClipRect(open->clipRect());
    open->draw(&painter);
    painter.end();
    QCOMPARE(device.engine.pixmaps, kMarkers + 1);
}

POSENC_TEST_MAIN(TestStampedGraph)
} // namespace tst_stampedgraph
#include "tst_stampedgraph.moc"
