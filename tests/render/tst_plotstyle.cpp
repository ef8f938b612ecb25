// PlotStyle's logarithmic axis: decades read as powers of ten, and a range shorter than a decade,
// which QCustomPlot ticks in linear steps, reads as plain numbers (60, not 6·10¹).
// Decades are written 10⁻⁵, one text at the axis's size, and so are a linear axis's powers.
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_plotstyle {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestPlotStyle : public QObject
{
    Q_OBJECT

private slots:
    void logAxisLabels_data();
    void logAxisLabels();
    void powersOfTenInSuperscript();
    void linearAxesWriteTheirPowersInOneText();
    void rememberedLabelsAreThoseWrittenAnew();
    void keptTicksFollowTheRangeAndTheTickersSettings();
    void anEmptyCollapsibleTextTakesNoRoom();
};

void TestPlotStyle::powersOfTenInSuperscript()
{
    QCOMPARE(PlotStyle::powerOfTen(0), u"10⁰"_s);
    QCOMPARE(PlotStyle::powerOfTen(-5), u"10⁻⁵"_s);
    QCOMPARE(PlotStyle::powerOfTen(12), u"10¹²"_s);
}

// A linear axis styled by PlotStyle writes 5·10⁻¹⁴ in one text, where QCustomPlot's "gbd" format
// would draw the exponent at three quarters of the axis's size; an axis ticked by a figure's own
// ticker keeps it.
void TestPlotStyle::linearAxesWriteTheirPowersInOneText()
{
    QCOMPARE(PlotStyle::withPowers(u"5e-14"_s), u"5·10⁻¹⁴"_s);
    QCOMPARE(PlotStyle::withPowers(u"-2.5e-07"_s), u"-2.5·10⁻⁷"_s);
    QCOMPARE(PlotStyle::withPowers(u"1e+06"_s), u"10⁶"_s);
    QCOMPARE(PlotStyle::withPowers(u"-1e-14"_s), u"-10⁻¹⁴"_s);
    QCOMPARE(PlotStyle::withPowers(u"0.25"_s), u"0.25"_s);
    QCOMPARE(PlotStyle::withPowers(u"-3"_s), u"-3"_s);

    QCustomPlot plot;
    PlotStyle::styleAxisRect(plot.axisRect());
    plot.yAxis->setRange(-2e-14, 2e-14);
    QVector<double> ticks;
    QVector<QString> labels;
    plot.yAxis->ticker()->generate(plot.yAxis->range(), QLocale::c(), plot.yAxis->numberFormat().at(0),
                                   plot.yAxis->numberPrecision(), ticks, nullptr, &labels);
    QVERIFY(ticks.size() >= 3);
    for (qsizetype i = 0; i < ticks.size(); ++i) {
        if (ticks[i] == 0.0)
            continue;
        // No "e" left for QCustomPlot's painter to split into a smaller exponent.
        QVERIFY2(!labels[i].contains(u'e') && labels[i].contains(u"10⁻¹"_s), qPrintable(labels[i]));
    }
    QSharedPointer<QCPAxisTicker> own(new QCPAxisTickerFixed);
    plot.xAxis->setTicker(own);
    PlotStyle::styleAxisRect(plot.axisRect());
    QCOMPARE(plot.xAxis->ticker(), own);
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

// The styled ticker remembers its labels: each is what QLocale writes for that tick, locale, format
// and precision, asked in any order and again (0 and -0, 1e-14 in "g" and in "f", C and German).
namespace {
struct LabelsOf : QCPAxisTicker
{
    using QCPAxisTicker::createLabelVector; // protected in QCustomPlot; asks getTickLabel of each tick
};
} // namespace

void TestPlotStyle::rememberedLabelsAreThoseWrittenAnew()
{
    QCustomPlot plot;
    PlotStyle::styleAxisRect(plot.axisRect());
    QCPAxisTicker *ticker = plot.yAxis->ticker().data();
    const QVector<double> ticks {0.0, -0.0, 1e-14, -2.5e-7, 0.25, 1e6, 131072.0};
    const QList<QLocale> locales {QLocale::c(), QLocale(QLocale::German, QLocale::Germany)};
    for (int round = 0; round < 2; ++round) {
        for (const QLocale &locale : locales) {
            for (const char format : {'g', 'f', 'e'}) {
                for (const int precision : {1, 3, 6}) {
                    const QVector<QString> labels = (ticker->*(&LabelsOf::createLabelVector))(
                        ticks, locale, QChar::fromLatin1(format), precision);
                    QCOMPARE(labels.size(), ticks.size());
                    for (qsizetype i = 0; i < ticks.size(); ++i)
                        QCOMPARE(labels[i], PlotStyle::withPowers(locale.toString(ticks[i], format, precision)));
                }
            }
        }
    }
}

// The styled ticker keeps the ticks of its last range: they are QCustomPlot's own linear ticker's for
// each range and locale asked, again when asked twice, and after its tick count, step strategy or
// origin changed between two asks of one range.
void TestPlotStyle::keptTicksFollowTheRangeAndTheTickersSettings()
{
    QCustomPlot plot;
    PlotStyle::styleAxisRect(plot.axisRect());
    QCPAxisTicker *styled = plot.yAxis->ticker().data();
    QCPAxisTicker plain;
    const auto same = [&](const QCPRange &range, const QLocale &locale, int precision) {
        QVector<double> ticks, subTicks, plainTicks, plainSubTicks;
        QVector<QString> labels, plainLabels;
        styled->generate(range, locale, u'g', precision, ticks, &subTicks, &labels);
        plain.generate(range, locale, u'g', precision, plainTicks, &plainSubTicks, &plainLabels);
        for (QString &label : plainLabels)
            label = PlotStyle::withPowers(label);
        QVector<double> alone;
        styled->generate(range, locale, u'g', precision, alone, nullptr, nullptr);
        return ticks == plainTicks && subTicks == plainSubTicks && labels == plainLabels && alone == plainTicks;
    };
    const QCPRange first(-0.5, 131071.5), second(1e-14, 3e-13);
    const QLocale german(QLocale::German, QLocale::Germany);
    QVERIFY(same(first, QLocale::c(), 6));
    QVERIFY(same(first, QLocale::c(), 6));
    QVERIFY(same(first, german, 6));
    QVERIFY(same(first, QLocale::c(), 2));
    QVERIFY(same(second, QLocale::c(), 6));
    for (QCPAxisTicker *ticker : {styled, &plain})
        ticker->setTickCount(3);
    QVERIFY(same(second, QLocale::c(), 6));
    for (QCPAxisTicker *ticker : {styled, &plain})
        ticker->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    QVERIFY(same(second, QLocale::c(), 6));
    for (QCPAxisTicker *ticker : {styled, &plain})
        ticker->setTickOrigin(0.37);
    QVERIFY(same(first, QLocale::c(), 6));
    QVERIFY(same(QCPRange(-1.0, 1.0), QLocale::c(), 6));
}

// A caption the figure leaves out (set to "") takes no room, margins included: the panel above
// it reaches the foot of the figure, as if the caption's row were not there. Held at a unit's
// height with its margins, it took 5 units and its row's spacing from the plots. Set again, it
// takes its line and its margins back.
void TestPlotStyle::anEmptyCollapsibleTextTakesNoRoom()
{
    QCustomPlot plot;
    plot.setGeometry(0, 0, 400, 300);
    QCPLayoutGrid *layout = plot.plotLayout();
    layout->setRowSpacing(0);
    auto *caption = new posenc::MeasuredTextElement(&plot, u"a caption"_s, plot.font());
    layout->addElement(1, 0, caption);
    const QMargins margins = caption->margins();
    const auto laidOut = [&] {
        layout->setOuterRect(QRect(0, 0, 400, 300));
        for (const auto phase :
             {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            layout->update(phase);
    };
    posenc::PlotStyle::setCollapsibleText(caption, QString());
    laidOut();
    QCOMPARE(caption->outerRect().height(), 0);
    QCOMPARE(plot.axisRect()->outerRect().height(), 300);
    posenc::PlotStyle::setCollapsibleText(caption, u"a caption"_s);
    laidOut();
    QCOMPARE(caption->margins(), margins);
    QCOMPARE(caption->outerRect().height(),
             QFontMetrics(caption->font()).boundingRect(0, 0, 0, 0, Qt::TextDontClip, u"a caption"_s).height()
                 + margins.top() + margins.bottom());
    QCOMPARE(plot.axisRect()->outerRect().height(), 300 - caption->outerRect().height());
}

POSENC_TEST_MAIN(TestPlotStyle)
} // namespace tst_plotstyle
#include "tst_plotstyle.moc"
