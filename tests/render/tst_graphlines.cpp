// A StampedGraph's line takes its pixels with the axes read once (graphLines, AxisPixels): the
// same bits as QCustomPlot's QCPAxis::coordToPixel and QCPGraph::getLines, on linear and log axes,
// horizontal and vertical, reversed or not, for coordinates a log axis has no place for, and for
// keys remembered from another graph of the same keys until the axis moves.
#include "render/GraphLines.h"
#include "render/StampedGraph.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace posenc;

class TestGraphLines : public QObject
{
    Q_OBJECT

private slots:
    void pixelsAreCoordToPixels_data();
    void pixelsAreCoordToPixels();
    void linesAreQCPGraphs_data();
    void linesAreQCPGraphs();
    void rememberedKeysFollowTheAxis();
    void aScreenReplotDrawsQCPGraphsLine();
};

namespace {

// QCPGraph's own line over all its data (getLines is protected).
class ExactGraph : public QCPGraph
{
public:
    using QCPGraph::QCPGraph;
    QVector<QPointF> lines() const
    {
        QVector<QPointF> out;
        getLines(&out, QCPDataRange(0, dataCount()));
        return out;
    }
    // The data getLines turns into pixels: visible, sampled, in ascending pixels.
    QVector<QCPGraphData> lineData() const
    {
        QCPGraphDataContainer::const_iterator begin, end;
        getVisibleDataBounds(begin, end, QCPDataRange(0, dataCount()));
        QVector<QCPGraphData> data;
        if (begin == end)
            return data;
        getOptimizedLineData(&data, begin, end);
        if (mKeyAxis->rangeReversed() != (mKeyAxis->orientation() == Qt::Vertical))
            std::reverse(data.begin(), data.end());
        return data;
    }
};

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameBits(const QVector<QPointF> &a, const QVector<QPointF> &b)
{
    return a.size() == b.size() && std::memcmp(a.constData(), b.constData(), std::size_t(a.size()) * sizeof(QPointF)) == 0;
}

// A plot of 517 x 383 pixels laid out, its axes as the row says.
void layOut(QCustomPlot &plot, bool log, bool reversed, bool swapped)
{
    plot.resize(517, 383);
    for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) {
        axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        axis->setRangeReversed(reversed);
    }
    plot.xAxis->setRange(log ? QCPRange(0.37, 81234.5) : QCPRange(-3.25, 17.75));
    plot.yAxis->setRange(log ? QCPRange(1.3e-7, 2.71) : QCPRange(-1.1, 0.93));
    Q_UNUSED(swapped);
    plot.replot(); // lays the axis rect out
}

void addRows()
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

} // namespace

void TestGraphLines::pixelsAreCoordToPixels_data()
{
    addRows();
}

void TestGraphLines::pixelsAreCoordToPixels()
{
    QFETCH(bool, log);
    QFETCH(bool, reversed);
    QFETCH(bool, vertical);
    QCustomPlot plot;
    layOut(plot, log, reversed, vertical);
    std::mt19937_64 random(20261206);
    std::uniform_real_distribution<double> exponent(-12.0, 12.0);
    QList<double> coords {0.0, -0.0, -1.0, 1.0, 1e-300, -1e300, std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
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
    addRows();
}

void TestGraphLines::linesAreQCPGraphs()
{
    QFETCH(bool, log);
    QFETCH(bool, reversed);
    QFETCH(bool, vertical);
    QCustomPlot plot;
    layOut(plot, log, reversed, vertical);
    QCPAxis *keyAxis = vertical ? plot.yAxis : plot.xAxis;
    QCPAxis *valueAxis = vertical ? plot.xAxis : plot.yAxis;
    // Keys spread over the key axis and beyond it, some values off a log axis, a NaN gap, and more
    // points than pixels (adaptive sampling) for one of them.
    for (const int count : {40, 611, 20000}) {
        auto *graph = new ExactGraph(keyAxis, valueAxis);
        QVector<double> keys, values;
        const QCPRange range = keyAxis->range();
        for (int i = 0; i < count; ++i) {
            const double t = -0.1 + 1.2 * i / (count - 1);
            keys.append(log ? range.lower * std::pow(range.upper / range.lower, t) : range.lower + t * range.size());
            const double v = std::sin(0.37 * i) * std::exp(-0.001 * i);
            values.append(i == count / 3 ? std::numeric_limits<double>::quiet_NaN() : i % 11 == 0 ? -v : std::abs(v) + 1e-9);
        }
        graph->setData(keys, values, true);
        const QVector<QPointF> exact = graph->lines();
        QVERIFY(exact.size() > 10);
        // Twice: the second time the keys' pixels on a log axis are the remembered ones.
        for (int pass = 0; pass < 2; ++pass) {
            const QVector<QPointF> ours = graphLines(*keyAxis, *valueAxis, graph->lineData());
            QCOMPARE(ours.size(), exact.size());
            for (qsizetype i = 0; i < exact.size(); ++i) {
                const bool same = (sameBits(ours[i].x(), exact[i].x()) || (std::isnan(ours[i].x()) && std::isnan(exact[i].x())))
                    && (sameBits(ours[i].y(), exact[i].y()) || (std::isnan(ours[i].y()) && std::isnan(exact[i].y())));
                if (!same)
                    QFAIL(qPrintable(QStringLiteral("%1 points, pass %2, point %3: (%4, %5), getLines (%6, %7)")
                                         .arg(count).arg(pass).arg(i)
                                         .arg(ours[i].x(), 0, 'g', 17).arg(ours[i].y(), 0, 'g', 17)
                                         .arg(exact[i].x(), 0, 'g', 17).arg(exact[i].y(), 0, 'g', 17)));
            }
        }
    }
}

// A graph of the same keys after the axis moved, or after its rect changed size, is not given the
// keys' pixels of before.
void TestGraphLines::rememberedKeysFollowTheAxis()
{
    QCustomPlot plot;
    layOut(plot, true, false, false);
    auto *graph = new ExactGraph(plot.xAxis, plot.yAxis);
    QVector<double> keys, values;
    for (int i = 1; i <= 300; ++i) {
        keys.append(i * 1.7);
        values.append(std::exp(-0.01 * i));
    }
    graph->setData(keys, values, true);
    QVERIFY(sameBits(graphLines(*plot.xAxis, *plot.yAxis, graph->lineData()), graph->lines()));
    plot.xAxis->setRange(0.5, 900.0);
    QVERIFY(sameBits(graphLines(*plot.xAxis, *plot.yAxis, graph->lineData()), graph->lines()));
    plot.xAxis->setRangeReversed(true);
    QVERIFY(sameBits(graphLines(*plot.xAxis, *plot.yAxis, graph->lineData()), graph->lines()));
    plot.resize(300, 200);
    plot.replot();
    QVERIFY(sameBits(graphLines(*plot.xAxis, *plot.yAxis, graph->lineData()), graph->lines()));
    // A key moved by one bit.
    keys[150] = std::nextafter(keys[150], 1e9);
    graph->setData(keys, values, true);
    QVERIFY(sameBits(graphLines(*plot.xAxis, *plot.yAxis, graph->lineData()), graph->lines()));
}

// On screen a StampedGraph on log axes draws the pixels its QCPGraph twin's line gives, simplified
// as before: the same image as a StampedGraph drawn through QCPGraph::draw (an export's painter is
// QCPGraph's path; here the two screens are compared).
void TestGraphLines::aScreenReplotDrawsQCPGraphsLine()
{
    const auto draw = [](bool twoGraphs) {
        QCustomPlot plot;
        layOut(plot, true, false, false);
        plot.setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
        QVector<double> keys, values;
        for (int i = 1; i <= 800; ++i) {
            keys.append(std::pow(81234.5 / 0.37, i / 800.0) * 0.37);
            values.append(1e-6 + std::exp(-0.002 * i));
        }
        // A first graph of the same keys, drawn first, leaves its keys' pixels remembered.
        if (twoGraphs) {
            auto *first = new StampedGraph(plot.xAxis, plot.yAxis);
            first->setPen(QPen(Qt::red, 1.3));
            first->setData(keys, values, true);
        }
        auto *graph = new StampedGraph(plot.xAxis, plot.yAxis);
        graph->setPen(QPen(Qt::black, 1.3));
        QVector<double> shifted = values;
        for (double &v : shifted)
            v *= 0.01;
        graph->setData(keys, shifted, true);
        plot.replot();
        return std::make_pair(plot.toPixmap(517, 383).toImage(), plot.grab().toImage());
    };
    const auto [exportedOne, screenOne] = draw(false);
    const auto [exportedTwo, screenTwo] = draw(true);
    QVERIFY(!screenOne.isNull());
    // The black line's pixels: the same whether its keys' pixels were remembered or not.
    int black = 0;
    for (int y = 0; y < screenOne.height(); ++y)
        for (int x = 0; x < screenOne.width(); ++x) {
            const QRgb a = screenOne.pixel(x, y);
            if (qRed(a) < 60 && qGreen(a) < 60 && qBlue(a) < 60) {
                ++black;
                const QRgb b = screenTwo.pixel(x, y);
                QVERIFY2(qRed(b) < 60 && qGreen(b) < 60 && qBlue(b) < 60, qPrintable(QStringLiteral("pixel %1, %2").arg(x).arg(y)));
            }
        }
    QVERIFY(black > 500);
}

QTEST_MAIN(TestGraphLines)
#include "tst_graphlines.moc"
