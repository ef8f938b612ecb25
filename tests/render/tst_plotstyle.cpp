// PlotStyle's logarithmic axis: decades read as powers of ten, and a range shorter than a decade,
// which QCustomPlot ticks in linear steps, reads as plain numbers (60, not 6·10¹).
// Decades are written 10⁻⁵, one text at the axis's size.
#include "render/PlotStyle.h"

#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestPlotStyle : public QObject
{
    Q_OBJECT

private slots:
    void logAxisLabels_data();
    void logAxisLabels();
    void powersOfTenInSuperscript();
};

void TestPlotStyle::powersOfTenInSuperscript()
{
    QCOMPARE(PlotStyle::powerOfTen(0), u"10⁰"_s);
    QCOMPARE(PlotStyle::powerOfTen(-5), u"10⁻⁵"_s);
    QCOMPARE(PlotStyle::powerOfTen(12), u"10¹²"_s);
}

void TestPlotStyle::logAxisLabels_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<bool>("decades");
    QTest::newRow("ratio 20 to 90") << 20.0 << 90.0 << false;
    QTest::newRow("0.3 to 1.5") << 0.3 << 1.5 << false;
    QTest::newRow("1e-4 to 1e4") << 1e-4 << 1e4 << true;
    QTest::newRow("0.01 to 1000") << 0.01 << 1000.0 << true;
}

void TestPlotStyle::logAxisLabels()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(bool, decades);
    QCustomPlot plot;
    PlotStyle::setLogAxis(plot.yAxis);
    plot.yAxis->setRange(lower, upper);
    QVector<double> ticks;
    QVector<QString> labels;
    plot.yAxis->ticker()->generate(plot.yAxis->range(), QLocale::c(), plot.yAxis->numberFormat().at(0),
                                   plot.yAxis->numberPrecision(), ticks, nullptr, &labels);
    QVERIFY(!ticks.isEmpty());
    QCOMPARE(labels.size(), ticks.size());
    for (qsizetype i = 0; i < ticks.size(); ++i) {
        const double exponent = std::log10(ticks[i]);
        if (decades) {
            QCOMPARE(exponent, std::round(exponent));
            // One text at the axis's size: the exponent in superscript digits, where QCustomPlot
            // would draw it smaller than the size asked for.
            QCOMPARE(labels[i], PlotStyle::powerOfTen(static_cast<int>(std::round(exponent))));
            continue;
        }
        // A plain number: the tick's value, to four significant digits.
        bool ok = false;
        const double read = labels[i].toDouble(&ok);
        QVERIFY2(ok, qPrintable(labels[i]));
        QVERIFY2(std::abs(read - ticks[i]) <= 1e-3 * std::abs(ticks[i]), qPrintable(labels[i]));
    }
}

QTEST_MAIN(TestPlotStyle)
#include "tst_plotstyle.moc"
