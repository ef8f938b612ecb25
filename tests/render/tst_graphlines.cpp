// A StampedGraph's line takes its pixels with the axes read once (graphLines, AxisPixels): the
// same bits as QCustomPlot's QCPAxis::coordToPixel and QCPGraph::getLines, on linear and log axes,
// horizontal and vertical, reversed or not, for coordinates a log axis has no place for, and for
// keys remembered from another graph of the same keys until the axis moves.
#include "render/GraphLines.h"
#include "render/StampedGraph.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

namespace tst_graphlines {
using namespace posenc;

class TestGraphLines : public QObject
{
    Q_OBJECT

private slots:
    void pixelsAreCoordToPixels_data();
    void pixelsAreCoordToPixels();
    void linesAreQCPGraphs_data();
    void linesAreQCPGraphs();
    void scattersAreQCPGraphs_data();
    void scattersAreQCPGraphs();
    void scattersOnTheEdges_data();
    void scattersOnTheEdges();
    void rememberedKeysFollowTheAxis();
    void aScreenDrawIsQCPGraphDrawsPixels_data();
    void aScreenDrawIsQCPGraphDrawsPixels();
};

namespace {

// A StampedGraph's line (allLines, graphLines) beside QCPGraph's own (getLines), both protected.
class OpenGraph : public StampedGraph
{
public:
    using StampedGraph::StampedGraph;
    QVector<QPointF> ours() const { return allLines(); }
    QVector<QPointF> exact() const
    {
        QVector<QPointF> out;
        getLines(&out, QCPDataRange(0, dataCount()));
        return out;
    }
    QVector<QPointF> ourScatters() const { return allScatters(); }
    QVector<QPointF> exactScatters() const
    {
        QVector<QPointF> out;
        getScatters(&out, QCPDataRange(0, dataCount()));
        return out;
    }
};

// A StampedGraph drawn by QCPGraph::draw, as before graphLines: its lines from getLines, drawn and
// filled and marked by StampedGraph as every StampedGraph is.
class DrawnAsQCPGraph : public StampedGraph
{
public:
    using StampedGraph::StampedGraph;

protected:
    void draw(QCPPainter *painter) override { QCPGraph::draw(painter); }
};

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameBits(const QVector<QPointF> &a, const QVector<QPointF> &b)
{
    return a.size() == b.size()
        && std::memcmp(a.constData(), b.constData(), std::size_t(a.size()) * sizeof(QPointF)) == 0;
}

// Where `ours` and QCustomPlot's `exact` points differ (their bits; a NaN is any NaN), said for a
// failure; empty where they are the same.
QString differs(const QVector<QPointF> &ours, const QVector<QPointF> &exact)
{
    if (ours.size() != exact.size())
        return QStringLiteral("%1 points, QCustomPlot's %2").arg(ours.size()).arg(exact.size());
    const auto same = [](double a, double b) { return sameBits(a, b) || (std::isnan(a) && std::isnan(b)); };
    for (qsizetype i = 0; i < exact.size(); ++i)
        if (!same(ours[i].x(), exact[i].x()) || !same(ours[i].y(), exact[i].y()))
            return QStringLiteral("point %1: (%2, %3), QCustomPlot's (%4, %5)")
                .arg(i)
                .arg(ours[i].x(), 0, 'g', 17)
                .arg(ours[i].y(), 0, 'g', 17)
                .arg(exact[i].x(), 0, 'g', 17)
                .arg(exact[i].y(), 0, 'g', 17);
    return {};
}

// A plot of 517 x 383 pixels laid out, both axes linear or logarithmic, reversed or not.
void layOut(QCustomPlot &plot, bool log, bool reversed)
{
    plot.resize(517, 383);
    for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) {
        axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        axis->setRangeReversed(reversed);
    }
    plot.xAxis->setRange(log ? QCPRange(0.37, 81234.5) : QCPRange(-3.25, 17.75));
    plot.yAxis->setRange(log ? QCPRange(1.3e-7, 2.71) : QCPRange(-1.1, 0.93));
    plot.replot(); // lays the axis rect out
}

void addScales()
{
    QTest::addColumn<bool>("log");
    QTest::addColumn<bool>("reversed");
    for (const bool log : {false, true})
        for (const bool reversed : {false, true})
            QTest::addRow("%s%s", log ? "log" : "linear", reversed ? ", reversed" : "") << log << reversed;
}

} // namespace

void TestGraphLines::pixelsAreCoordToPixels_data()
{
    addScales();
}

// Both axes, the horizontal and the vertical, at coordinates across 24 decades, both signs, zero,
// the smallest and largest doubles, infinities and NaN.
void TestGraphLines::pixelsAreCoordToPixels()
{
    QFETCH(bool, log);
    QFETCH(bool, reversed);
    QCustomPlot plot;
    layOut(plot, log, reversed);
    std::mt19937_64 random(20261206);
    std::uniform_real_distribution<double> exponent(-12.0, 12.0);
    QList<double> coords {0.0,
                          -0.0,
                          -1.0,
                          1.0,
                          1e-300,
                          -1e300,
                          std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::denorm_min()};
    for (int n = 0; n < 5000; ++n) {
        const double magnitude = std::pow(10.0, exponent(random));
        coords.append(n % 7 == 0 ? -magnitude : magnitude);
    }
    for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) {
        const AxisPixels pixels(*axis);
        for (const double coord : coords) {
            const double exact = axis->coordToPixel(coord);
            const double ours = pixels(coord);
            if (!sameBits(exact, ours) && !(std::isnan(exact) && std::isnan(ours)))
                QFAIL(qPrintable(QStringLiteral("%1 axis at %2: %3, coordToPixel %4")
                                     .arg(axis == plot.xAxis ? QStringLiteral("x") : QStringLiteral("y"))
                                     .arg(coord, 0, 'g', 17)
                                     .arg(ours, 0, 'g', 17)
                                     .arg(exact, 0, 'g', 17)));
        }
    }
}

void TestGraphLines::linesAreQCPGraphs_data()
{
    QTest::addColumn<bool>("log");
    QTest::addColumn<bool>("reversed");
    QTest::addColumn<bool>("vertical"); // keys on the vertical axis
    for (const bool log : {false, true})
        for (const bool reversed : {false, true})
            for (const bool vertical : {false, true})
                QTest::addRow("%s%s%s", log ? "log" : "linear", reversed ? ", reversed" : "",
                              vertical ? ", keys vertical" : "")
                    << log << reversed << vertical;
}

// StampedGraph's line over all its data against QCPGraph::getLines: the visible data, adaptively
// sampled, in ascending pixels, each point's bits.
void TestGraphLines::linesAreQCPGraphs()
{
    QFETCH(bool, log);
    QFETCH(bool, reversed);
    QFETCH(bool, vertical);
    QCustomPlot plot;
    layOut(plot, log, reversed);
    QCPAxis *keyAxis = vertical ? plot.yAxis : plot.xAxis;
    QCPAxis *valueAxis = vertical ? plot.xAxis : plot.yAxis;
    // Keys spread over the key axis and beyond it, some values off a log axis, a NaN gap, and more
    // points than pixels (adaptive sampling) for one of them.
    for (const int count : {40, 611, 20000}) {
        auto *graph = new OpenGraph(keyAxis, valueAxis);
        QVector<double> keys, values;
        const QCPRange range = keyAxis->range();
        for (int i = 0; i < count; ++i) {
            const double t = -0.1 + 1.2 * i / (count - 1);
            keys.append(log ? range.lower * std::pow(range.upper / range.lower, t) : range.lower + t * range.size());
            const double v = std::sin(0.37 * i) * std::exp(-0.001 * i);
            values.append(i == count / 3    ? std::numeric_limits<double>::quiet_NaN()
                              : i % 11 == 0 ? -v
                                            : std::abs(v) + 1e-9);
        }
        graph->setData(keys, values, true);
        const QVector<QPointF> exact = graph->exact();
        QVERIFY(exact.size() > 10);
        // Twice: the second time the keys' pixels on a log axis are the remembered ones.
        for (int pass = 0; pass < 2; ++pass)
            if (const QString where = differs(graph->ours(), exact); !where.isEmpty())
                QFAIL(qPrintable(QStringLiteral("%1 points, pass %2, %3").arg(count).arg(pass).arg(where)));
    }
    // No data in view, and none at all.
    auto *empty = new OpenGraph(keyAxis, valueAxis);
    QVERIFY(empty->ours().isEmpty());
    empty->setData(QVector<double> {1e9, 2e9}, QVector<double> {0.5, 0.5}, true);
    QVERIFY(sameBits(empty->ours(), empty->exact()));
}

void TestGraphLines::scattersAreQCPGraphs_data()
{
    QTest::addColumn<bool>("log");
    QTest::addColumn<bool>("reversed");
    QTest::addColumn<bool>("vertical"); // keys on the vertical axis
    QTest::addColumn<int>("skip"); // QCPGraph::setScatterSkip
    for (const bool log : {false, true})
        for (const bool reversed : {false, true})
            for (const bool vertical : {false, true})
                for (const int skip : {0, 1, 3})
                    QTest::addRow("%s%s%s, skip %d", log ? "log" : "linear", reversed ? ", reversed" : "",
                                  vertical ? ", keys vertical" : "", skip)
                        << log << reversed << vertical << skip;
}

// StampedGraph's markers over all its data against QCPGraph::getScatters, adaptively sampled or
// not: the same points chosen (QCPGraph::getOptimizedScatterData: clusters of a key pixel thinned to
// about one a four value pixels, their least and most kept, values off the value axis's range left
// out), in ascending pixels, each point's bits, a NaN value's marker at (0, 0) as QCustomPlot puts it.
void TestGraphLines::scattersAreQCPGraphs()
{
    QFETCH(bool, log);
    QFETCH(bool, reversed);
    QFETCH(bool, vertical);
    QFETCH(int, skip);
    QCustomPlot plot;
    layOut(plot, log, reversed);
    QCPAxis *keyAxis = vertical ? plot.yAxis : plot.xAxis;
    QCPAxis *valueAxis = vertical ? plot.xAxis : plot.yAxis;
    const QCPRange range = keyAxis->range();
    const QCPRange values = valueAxis->range();
    std::mt19937_64 random(20261206 + skip);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    // Few points, about a pixel's, many to a pixel; values spread over the range and beyond it,
    // clusters of one value (no value span: QCustomPlot's modulo from an infinity), runs of NaN.
    for (const int count : {40, 611, 3000, 40000}) {
        for (const bool adaptive : {true, false}) {
            auto *graph = new OpenGraph(keyAxis, valueAxis);
            graph->setLineStyle(QCPGraph::lsNone);
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
            graph->setScatterSkip(skip);
            graph->setAdaptiveSampling(adaptive);
            QVector<double> keys, vals;
            for (int i = 0; i < count; ++i) {
                const double t = -0.05 + 1.1 * i / (count - 1);
                keys.append(log ? range.lower * std::pow(range.upper / range.lower, t)
                                : range.lower + t * range.size());
                const double u = unit(random);
                const double spread = -0.2 + 1.4 * u; // past either end of the range at times
                double v = log ? values.lower * std::pow(values.upper / values.lower, spread)
                               : values.lower + spread * values.size();
                if ((i / 97) % 5 == 2)
                    v = log ? std::sqrt(values.lower * values.upper) : values.center(); // a flat stretch
                if (i % 89 == 3)
                    v = i % 2 == 0 ? values.lower : values.upper; // on the range's ends: left out
                if (i % 131 == 7 || (i > count / 2 && i < count / 2 + 9))
                    v = std::numeric_limits<double>::quiet_NaN();
                vals.append(v);
            }
            graph->setData(keys, vals, true);
            const QVector<QPointF> exact = graph->exactScatters();
            QVERIFY(exact.size() > 5);
            if (const QString where = differs(graph->ourScatters(), exact); !where.isEmpty())
                QFAIL(qPrintable(QStringLiteral("%1 points%2, %3")
                                     .arg(count)
                                     .arg(adaptive ? QStringLiteral(", adaptive") : QString())
                                     .arg(where)));
        }
    }
    // No data in view.
    auto *away = new OpenGraph(keyAxis, valueAxis);
    away->setData(QVector<double> {1e9, 2e9}, QVector<double> {0.5, 0.5}, true);
    QVERIFY(sameBits(away->ourScatters(), away->exactScatters()));
}

void TestGraphLines::scattersOnTheEdges_data()
{
    QTest::addColumn<bool>("log");
    QTest::addColumn<bool>("reversed");
    QTest::addColumn<bool>("vertical");
    QTest::addColumn<bool>("margins"); // false: the axis rect starts at the plot's pixel 0
    for (const bool margins : {true, false})
        for (const bool log : {false, true})
            for (const bool reversed : {false, true})
                for (const bool vertical : {false, true})
                    QTest::addRow("%s%s%s%s", log ? "log" : "linear", reversed ? ", reversed" : "",
                                  vertical ? ", keys vertical" : "", margins ? "" : ", no margins")
                        << log << reversed << vertical << margins;
}

// The markers where QCustomPlot's own arithmetic is at its edges: a pixel out of an int's range
// (keys 1e300 apart, infinite keys: its conversions give INT_MIN and its 2 * span + 2 wraps), a
// pixel before an axis rect at pixel 0 (a truncation toward zero, not down), points in one pixel or one key, one
// or two points, values all NaN or all off the range, skips longer than the data.
void TestGraphLines::scattersOnTheEdges()
{
    QFETCH(bool, log);
    QFETCH(bool, reversed);
    QFETCH(bool, vertical);
    QFETCH(bool, margins);
    QCustomPlot plot;
    if (!margins) {
        plot.axisRect()->setAutoMargins(QCP::msNone);
        plot.axisRect()->setMargins(QMargins());
    }
    layOut(plot, log, reversed);
    QCPAxis *keyAxis = vertical ? plot.yAxis : plot.xAxis;
    QCPAxis *valueAxis = vertical ? plot.xAxis : plot.yAxis;
    const QCPRange keys = keyAxis->range();
    const QCPRange values = valueAxis->range();
    const auto along = [log](const QCPRange &range, double t) {
        return log ? range.lower * std::pow(range.upper / range.lower, t) : range.lower + t * range.size();
    };
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::mt19937_64 random(20261207);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const auto spread = [&](int count, double from, double to, const std::function<double(int)> &value) {
        QVector<double> k, v;
        for (int i = 0; i < count; ++i) {
            k.append(along(keys, from + (to - from) * i / std::max(1, count - 1)));
            v.append(value(i));
        }
        return std::pair {k, v};
    };
    const auto inRange = [&](int) { return along(values, unit(random)); };
    QList<std::tuple<const char *, QVector<double>, QVector<double>>> sets;
    const auto add = [&](const char *name, const std::pair<QVector<double>, QVector<double>> &set) {
        sets.append({name, set.first, set.second});
    };
    add("one key", {QVector<double>(500, along(keys, 0.5)), spread(500, 0, 1, inRange).second});
    add("one pixel", spread(500, 0.5, 0.5 + 1e-6, inRange));
    add("one point", spread(1, 0.3, 0.3, inRange));
    add("two points", spread(2, 0.3, 0.7, inRange));
    add("all NaN", spread(3000, 0, 1, [](int) { return nan; }));
    add("all off the range", spread(3000, 0, 1, [&](int) { return along(values, 1.5 + unit(random)); }));
    add("cut by the range", spread(3000, -3, 4, inRange));
    add("narrow values", spread(40000, 0, 1, [&](int) { return along(values, 0.5 + 1e-3 * unit(random)); }));
    auto infinite = spread(3000, 0, 1, inRange);
    infinite.first.prepend(-inf);
    infinite.second.prepend(inRange(0));
    infinite.first.append(inf);
    infinite.second.append(inRange(0));
    add("infinite keys", infinite);
    // A point a fraction of a pixel below the key range (its pixel below 0 where the rect starts at
    // 0 and the keys rise from there), many a pixel above it.
    const double edge = keyAxis->coordToPixel(keys.lower);
    const int inward = keyAxis->pixelOrientation();
    for (const double before : {0.3, 1.3}) {
        // Values a few pixels apart: each pixel's points thinned, so where its pixels start shows.
        const auto narrow = [&] { return along(values, 0.5 + 1e-2 * unit(random)); };
        QVector<double> k {keyAxis->pixelToCoord(edge - inward * before)}, v {narrow()};
        for (int i = 0; i < 3000; ++i) {
            k.append(keyAxis->pixelToCoord(edge + inward * (0.05 + i * 0.01)));
            v.append(narrow());
        }
        add(before < 1.0 ? "a point 0.3 pixels before" : "a point 1.3 pixels before", {k, v});
    }
    if (!log) {
        QVector<double> k, v;
        for (int i = 0; i < 50; ++i) {
            k.append(-1e300 + i * 4e298);
            v.append(inRange(i));
        }
        add("keys 1e300 apart", {k, v});
        add("ends 1e300 out",
            {{-1e300, along(keys, 0.1), along(keys, 0.1), along(keys, 0.2), 1e300}, {0.1, 0.2, 0.3, 0.4, 0.5}});
    } else {
        QVector<double> k, v;
        for (int i = 0; i < 60; ++i) {
            k.append(std::pow(10.0, -300 + 10 * i));
            v.append(inRange(i));
        }
        add("600 decades", {k, v});
    }
    int compared = 0;
    for (const auto &[name, k, v] : sets)
        for (const int skip : {0, 2, 1000})
            for (const bool adaptive : {true, false}) {
                auto *graph = new OpenGraph(keyAxis, valueAxis);
                graph->setLineStyle(QCPGraph::lsNone);
                graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
                graph->setScatterSkip(skip);
                graph->setAdaptiveSampling(adaptive);
                graph->setData(k, v, false);
                if (const QString where = differs(graph->ourScatters(), graph->exactScatters()); !where.isEmpty())
                    QFAIL(qPrintable(QStringLiteral("%1, skip %2%3: %4")
                                         .arg(QLatin1StringView(name))
                                         .arg(skip)
                                         .arg(adaptive ? QStringLiteral(", adaptive") : QString())
                                         .arg(where)));
                ++compared;
                plot.removeGraph(graph);
            }
    QCOMPARE(compared, sets.size() * 6);
}

// A graph of the same keys after the axis moved, or after its rect changed size, is not given the
// keys' pixels of before.
void TestGraphLines::rememberedKeysFollowTheAxis()
{
    QCustomPlot plot;
    layOut(plot, true, false);
    auto *graph = new OpenGraph(plot.xAxis, plot.yAxis);
    QVector<double> keys, values;
    for (int i = 1; i <= 300; ++i) {
        keys.append(i * 1.7);
        values.append(std::exp(-0.01 * i));
    }
    graph->setData(keys, values, true);
    QVERIFY(sameBits(graph->ours(), graph->exact()));
    plot.xAxis->setRange(0.5, 900.0);
    QVERIFY(sameBits(graph->ours(), graph->exact()));
    plot.xAxis->setRangeReversed(true);
    QVERIFY(sameBits(graph->ours(), graph->exact()));
    plot.resize(300, 200);
    plot.replot();
    QVERIFY(sameBits(graph->ours(), graph->exact()));
    // A key moved by one bit.
    keys[150] = std::nextafter(keys[150], 1e9);
    graph->setData(keys, values, true);
    QVERIFY(sameBits(graph->ours(), graph->exact()));
}

void TestGraphLines::aScreenDrawIsQCPGraphDrawsPixels_data()
{
    addScales();
}

// On screen, every pixel of a plot of StampedGraphs (a line, a line with markers, markers alone, a
// dashed line, a band between two lines) is the pixel of the same plot drawn through QCPGraph::draw, on log-log
// axes sharing their keys and on linear ones; and its lines came from graphLines.
void TestGraphLines::aScreenDrawIsQCPGraphDrawsPixels()
{
    QFETCH(bool, log);
    QFETCH(bool, reversed);
    const auto draw = [&](bool ours) {
        QCustomPlot plot;
        layOut(plot, log, reversed);
        plot.setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
        const auto make = [&](const QPen &) -> QCPGraph * {
            return ours ? new StampedGraph(plot.xAxis, plot.yAxis) : new DrawnAsQCPGraph(plot.xAxis, plot.yAxis);
        };
        const QCPRange x = plot.xAxis->range();
        QVector<double> keys;
        for (int i = 0; i <= 800; ++i)
            keys.append(log ? x.lower * std::pow(x.upper / x.lower, i / 800.0) : x.lower + x.size() * i / 800.0);
        const auto values = [&](double scale, double shift) {
            QVector<double> v;
            for (int i = 0; i <= 800; ++i)
                v.append(log ? 1e-6 + scale * std::exp(-0.004 * i) * (1.5 + std::sin(0.05 * i))
                             : shift + scale * std::sin(0.02 * i));
            return v;
        };
        QCPGraph *line = make(QPen());
        line->setPen(QPen(Qt::black, 1.3));
        line->setData(keys, values(1.0, 0.0), true);
        QCPGraph *marked = make(QPen());
        marked->setPen(QPen(QColor(0, 114, 178), 1.0));
        marked->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black), Qt::white, 7));
        QVector<double> few, fewValues;
        for (int i = 0; i <= 800; i += 50) {
            few.append(keys[i]);
            fewValues.append(values(0.3, -0.4)[i]);
        }
        marked->setData(few, fewValues, true);
        // Markers alone, several a pixel, thinned by adaptive sampling (every third on reversed axes).
        QCPGraph *dots = make(QPen());
        dots->setLineStyle(QCPGraph::lsNone);
        dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(230, 159, 0), 4));
        dots->setScatterSkip(reversed ? 2 : 0);
        QVector<double> dotKeys, dotValues;
        for (int i = 0; i <= 4000; ++i) {
            dotKeys.append(log ? x.lower * std::pow(x.upper / x.lower, i / 4000.0) : x.lower + x.size() * i / 4000.0);
            dotValues.append(
                log ? 1e-6 + 0.2 * std::exp(-0.0008 * i) * (1.5 + std::sin(0.01 * i) + 0.3 * std::sin(1.7 * i))
                    : 0.1 + 0.2 * std::sin(0.004 * i) + 0.1 * std::sin(1.3 * i));
        }
        dots->setData(dotKeys, dotValues, true);
        QCPGraph *dashed = make(QPen());
        dashed->setPen(QPen(QColor(200, 0, 0), 1.5, Qt::DashLine));
        dashed->setData(keys, values(0.05, 0.5), true);
        QCPGraph *low = make(QPen());
        QCPGraph *high = make(QPen());
        low->setPen(QPen(QColor(0, 150, 0), 1.0));
        high->setPen(QPen(QColor(0, 150, 0), 1.0));
        low->setData(keys, values(0.01, -0.9), true);
        high->setData(keys, values(0.02, -0.7), true);
        high->setBrush(QColor(0, 150, 0, 60));
        high->setChannelFillGraph(low);
        const quint64 before = graphLinesMade();
        plot.replot();
        const quint64 made = graphLinesMade() - before;
        return std::make_pair(plot.grab().toImage(), made);
    };
    const auto [image, made] = draw(true);
    const auto [exact, madeByFills] = draw(false);
    QCOMPARE(image.size(), exact.size());
    int differ = 0, inked = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            differ += image.pixel(x, y) != exact.pixel(x, y) ? 1 : 0;
            inked += image.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
        }
    QCOMPARE(differ, 0);
    QVERIFY(inked > 2000);
    // Five lines and two graphs' markers drawn from graphLines, where QCPGraph::draw's twin takes only
    // the band's other side.
    QVERIFY2(made >= madeByFills + 7, qPrintable(QStringLiteral("%1 and %2").arg(made).arg(madeByFills)));
}

POSENC_TEST_MAIN(TestGraphLines)
} // namespace tst_graphlines
#include "tst_graphlines.moc"
