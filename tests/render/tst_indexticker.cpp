// IndexTicker: an axis that counts positions or columns has whole-number ticks, each label the
// exact integer and none repeated, at any range up to a million and beyond, its thousands
// grouped once a label has five digits.
#include "render/IndexTicker.h"
#include "support/TestMain.h"

#include <QSet>
#include <QTest>

#include <cmath>

namespace tst_indexticker {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestIndexTicker : public QObject
{
    Q_OBJECT

private slots:
    void ticksAreDistinctIntegers_data();
    void ticksAreDistinctIntegers();
    void largeAxesGroupTheirThousands_data();
    void largeAxesGroupTheirThousands();
    void installKeepsTheTickCount();
    void shortNumbers_data();
    void shortNumbers();
    void shortNumbersOnAnAxis_data();
    void shortNumbersOnAnAxis();
    void oneFormatAnAxis_data();
    void oneFormatAnAxis();
    void keptTicksAreQCustomPlotsOwn();
    void aTickerMakesTheTicksOfARangeOnce();
    void aTickerKeepsTheLevelsAFittingTries();
};

void TestIndexTicker::ticksAreDistinctIntegers_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<int>("tickCount");
    // Heatmap cells are centred on integers, so index axes run from -0.5.
    QTest::newRow("four cells") << -0.5 << 3.5 << 5;
    QTest::newRow("three cells, many ticks asked") << -0.5 << 2.5 << 8;
    QTest::newRow("a step of 2.5 would be next") << -0.5 << 12.5 << 5;
    QTest::newRow("64 positions") << -0.5 << 63.5 << 5;
    QTest::newRow("near a million") << 1048000.0 << 1048575.5 << 5;
    QTest::newRow("a million wide") << -0.5 << 1048575.5 << 5;
    QTest::newRow("a few around 10^6, many ticks") << 999990.2 << 1000003.7 << 9;
}

void TestIndexTicker::ticksAreDistinctIntegers()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(int, tickCount);
    IndexTicker ticker;
    ticker.setTickCount(tickCount);
    QVector<double> ticks;
    QVector<double> subTicks;
    QVector<QString> labels;
    ticker.generate(QCPRange(lower, upper), QLocale::c(), QLatin1Char('g'), 6, ticks, &subTicks, &labels);
    QVERIFY(!ticks.isEmpty());
    QCOMPARE(labels.size(), ticks.size());
    QSet<QString> seen;
    for (qsizetype i = 0; i < ticks.size(); ++i) {
        QCOMPARE(ticks[i], std::round(ticks[i]));
        bool ok = false;
        QCOMPARE(QString(labels[i]).remove(QLatin1Char(',')).toLongLong(&ok),
                 static_cast<qint64>(std::llround(ticks[i])));
        QVERIFY2(ok, qPrintable(labels[i]));
        QVERIFY2(!seen.contains(labels[i]), qPrintable(labels[i]));
        seen.insert(labels[i]);
    }
    for (double sub : subTicks)
        QCOMPARE(sub, std::round(sub));
}

void TestIndexTicker::largeAxesGroupTheirThousands_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<QStringList>("expected");
    // Written out here, as a reader of the axis expects them.
    QTest::newRow("L 1024: plain") << -0.5 << 1023.5
                                   << QStringList {u"0"_s, u"200"_s, u"400"_s, u"600"_s, u"800"_s, u"1000"_s};
    QTest::newRow("up to 8000: plain") << -0.5 << 8191.5
                                       << QStringList {u"0"_s, u"2000"_s, u"4000"_s, u"6000"_s, u"8000"_s};
    QTest::newRow("past 10,000: every label grouped")
        << -0.5 << 20479.5 << QStringList {u"0"_s, u"5,000"_s, u"10,000"_s, u"15,000"_s, u"20,000"_s};
    QTest::newRow("L 2^20") << -0.5 << 1048575.5 << QStringList {u"0"_s,       u"200,000"_s, u"400,000"_s,
                                                                 u"600,000"_s, u"800,000"_s, u"1,000,000"_s};
}

void TestIndexTicker::largeAxesGroupTheirThousands()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(QStringList, expected);
    IndexTicker ticker;
    ticker.setTickCount(5);
    QVector<double> ticks;
    QVector<QString> labels;
    ticker.generate(QCPRange(lower, upper), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(QStringList(labels.begin(), labels.end()), expected);
}

void TestIndexTicker::installKeepsTheTickCount()
{
    QCustomPlot plot;
    QCPAxis *axis = plot.xAxis;
    axis->ticker()->setTickCount(3);
    IndexTicker::install(axis);
    QVERIFY(dynamic_cast<IndexTicker *>(axis->ticker().data()));
    QCOMPARE(axis->ticker()->tickCount(), 3);
}

void TestIndexTicker::shortNumbers_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("expected");
    // Written out here: only whole thousands (millions, ...) that read shorter, the number kept.
    QTest::newRow("1000") << u"1000"_s << u"1k"_s;
    QTest::newRow("20000") << u"20000"_s << u"20k"_s;
    QTest::newRow("grouped 10,000") << u"10,000"_s << u"10k"_s;
    QTest::newRow("grouped 1,000,000") << u"1,000,000"_s << u"1M"_s;
    QTest::newRow("negative") << u"-2000"_s << u"-2k"_s;
    QTest::newRow("exponent") << u"1e+06"_s << u"1M"_s;
    QTest::newRow("two decimals") << u"2500000"_s << u"2.5M"_s;
    QTest::newRow("1250: not shorter") << u"1250"_s << u"1250"_s;
    QTest::newRow("1500: as long") << u"1500"_s << u"1500"_s;
    QTest::newRow("1,024: not whole") << u"1,024"_s << u"1,024"_s;
    QTest::newRow("999") << u"999"_s << u"999"_s;
    QTest::newRow("a power") << u"10³"_s << u"10³"_s;
    QTest::newRow("words") << u"Llama"_s << u"Llama"_s;
    QTest::newRow("blank") << QString() << QString();
}

void TestIndexTicker::shortNumbers()
{
    QFETCH(QString, label);
    QFETCH(QString, expected);
    // Written, then remembered: both times the same.
    QCOMPARE(KeepsClear::shortNumber(label), expected);
    QCOMPARE(KeepsClear::shortNumber(label), expected);
}

void TestIndexTicker::shortNumbersOnAnAxis_data()
{
    // The rows above: each label written short is the number its tick is, and never longer.
    largeAxesGroupTheirThousands_data();
}

void TestIndexTicker::shortNumbersOnAnAxis()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(QStringList, expected);
    IndexTicker ticker;
    ticker.setTickCount(5);
    ticker.setShortNumbers(true);
    QVector<double> ticks;
    QVector<QString> labels;
    ticker.generate(QCPRange(lower, upper), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(labels.size(), expected.size());
    // Each label the number its tick is: "1k" is 1000, "20k" 20000.
    for (qsizetype i = 0; i < labels.size(); ++i) {
        QString plain = labels[i];
        double unit = 1.0;
        if (plain.endsWith(u'k'))
            unit = 1e3;
        else if (plain.endsWith(u'M'))
            unit = 1e6;
        if (unit > 1.0)
            plain.chop(1);
        bool ok = false;
        const double value = QLocale::c().toDouble(plain.remove(u','), &ok) * unit;
        QVERIFY2(ok, qPrintable(labels[i]));
        QCOMPARE(value, ticks[i]);
        QVERIFY(labels[i].size() <= expected[i].size());
    }
    QCOMPARE(labels.constLast(), upper > 1e6 ? u"1M"_s : upper > 10000 ? u"20k"_s : upper > 2000 ? u"8k"_s : u"1k"_s);
}

void TestIndexTicker::oneFormatAnAxis_data()
{
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QStringList>("expected");
    // sum-vs-concat's positions on a 14-pt slide for Whisper read "750, 1k, 1250": one axis, one
    // format, as matplotlib's EngFormatter writes every tick of its axis in its units.
    QTest::newRow("1250 cannot be shorter: none")
        << QStringList {u"0"_s, u"250"_s, u"500"_s, u"750"_s, u"1000"_s, u"1250"_s}
        << QStringList {u"0"_s, u"250"_s, u"500"_s, u"750"_s, u"1000"_s, u"1250"_s};
    QTest::newRow("1.5k as long as 1500: all") << QStringList {u"0"_s, u"500"_s, u"1000"_s, u"1500"_s, u"2000"_s}
                                               << QStringList {u"0"_s, u"500"_s, u"1k"_s, u"1.5k"_s, u"2k"_s};
    QTest::newRow("grouped") << QStringList {u"0"_s, u"10,000"_s, u"20,000"_s, u"30,000"_s}
                             << QStringList {u"0"_s, u"10k"_s, u"20k"_s, u"30k"_s};
    QTest::newRow("1,024 not said in two decimals: none")
        << QStringList {u"0"_s, u"1,000"_s, u"1,024"_s} << QStringList {u"0"_s, u"1,000"_s, u"1,024"_s};
    QTest::newRow("millions") << QStringList {u"500000"_s, u"1000000"_s, u"1500000"_s}
                              << QStringList {u"500k"_s, u"1M"_s, u"1.5M"_s};
    QTest::newRow("blanks kept") << QStringList {u"0"_s, QString(), u"2000"_s}
                                 << QStringList {u"0"_s, QString(), u"2k"_s};
}

void TestIndexTicker::oneFormatAnAxis()
{
    QFETCH(QStringList, labels);
    QFETCH(QStringList, expected);
    QCOMPARE(KeepsClear::shortNumbers(labels), expected);
}

namespace {

struct Made
{
    QVector<double> ticks, subTicks;
    QVector<QString> labels;
    bool operator==(const Made &) const = default;
};

Made made(QCPAxisTicker &ticker, const QCPRange &range, const QLocale &locale, QChar format, int precision,
          bool withSubTicks, bool withLabels)
{
    Made out;
    ticker.generate(range, locale, format, precision, out.ticks, withSubTicks ? &out.subTicks : nullptr,
                    withLabels ? &out.labels : nullptr);
    return out;
}

} // namespace

// A KeepClearTicker (and its log kind) keeps the ticks of its last range and settings: whatever
// it is asked, in whatever order, it answers as a fresh QCustomPlot ticker of the same settings,
// the reference, answers the same question (QCPAxisTicker::generate, QCPAxisTickerLog's).
void TestIndexTicker::keptTicksAreQCustomPlotsOwn()
{
    KeepClearTicker linear;
    KeepClearLogTicker log;
    IndexTicker index;
    const QList<QCPRange> ranges {{0.0, 1.0}, {0.0, 1.0}, {-0.0, 1.0},    {0.0, 1.0000000000000002}, {1e-3, 5e4},
                                  {2.0, 7.5}, {2.0, 7.5}, {1e-14, 3e-14}, {1.0, 131072.0},           {0.0, 1.0}};
    const QList<QLocale> locales {QLocale::c(), QLocale(QLocale::German, QLocale::Germany)};
    const auto sameAsOwn = [&](const QString &step) {
        for (const QLocale &locale : locales)
            for (const QChar format : {QLatin1Char('g'), QLatin1Char('f')})
                for (const int precision : {1, 6})
                    for (const QCPRange &range : ranges)
                        for (const bool sub : {true, false})
                            for (const bool labels : {true, false}) {
                                QCPAxisTicker ownLinear;
                                ownLinear.setTickCount(linear.tickCount());
                                ownLinear.setTickStepStrategy(linear.tickStepStrategy());
                                ownLinear.setTickOrigin(linear.tickOrigin());
                                QCPAxisTickerLog ownLog;
                                ownLog.setTickCount(log.tickCount());
                                ownLog.setLogBase(log.logBase());
                                ownLog.setSubTickCount(log.subTickCount());
                                ownLog.setTickStepStrategy(log.tickStepStrategy());
                                const QString where = u"%1: [%2, %3] %4 %5"_s.arg(step)
                                                          .arg(range.lower, 0, 'g', 17)
                                                          .arg(range.upper, 0, 'g', 17)
                                                          .arg(format)
                                                          .arg(precision);
                                QVERIFY2(made(linear, range, locale, format, precision, sub, labels)
                                             == made(ownLinear, range, locale, format, precision, sub, labels),
                                         qPrintable(where));
                                // An IndexTicker's reference is a fresh one of its settings.
                                IndexTicker freshIndex;
                                freshIndex.setTickCount(index.tickCount());
                                freshIndex.setTickStepStrategy(index.tickStepStrategy());
                                freshIndex.setTickOrigin(index.tickOrigin());
                                freshIndex.setLone(index.isLone());
                                const QCPRange counted(range.lower * 1000.0, range.upper * 1000.0);
                                QVERIFY2(made(index, counted, locale, format, precision, sub, labels)
                                             == made(freshIndex, counted, locale, format, precision, sub, labels),
                                         qPrintable(u"index "_s + where));
                                const QCPRange positive(std::max(range.lower, 1e-3), range.upper);
                                QVERIFY2(made(log, positive, locale, format, precision, sub, labels)
                                             == made(ownLog, positive, locale, format, precision, sub, labels),
                                         qPrintable(u"log "_s + where));
                            }
    };
    sameAsOwn(u"defaults"_s);
    linear.setTickCount(3);
    log.setTickCount(3);
    index.setTickCount(1);
    sameAsOwn(u"fewer ticks"_s);
    index.setLone(true);
    sameAsOwn(u"a lone index tick"_s);
    linear.setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    log.setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    index.setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    sameAsOwn(u"meet the count"_s);
    linear.setTickOrigin(0.25);
    log.setLogBase(2.0);
    index.setTickOrigin(3.0);
    sameAsOwn(u"origin, base 2"_s);
    log.setSubTickCount(3);
    sameAsOwn(u"three sub-ticks"_s);
}

namespace {

// A log ticker that counts the tick vectors it makes.
class CountingLogTicker : public KeepClearLogTicker
{
public:
    int made = 0;

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override
    {
        ++made;
        return QCPAxisTickerLog::createTickVector(tickStep, range);
    }
};

} // namespace

namespace {

// An index ticker that counts the tick steps it works out.
class CountingIndexTicker : public IndexTicker
{
public:
    int made = 0;

protected:
    double getTickStep(const QCPRange &range) override
    {
        ++made;
        return IndexTicker::getTickStep(range);
    }
};

} // namespace

// An axis asks for its ticks at every layout and fitting round, most often for the range it asked
// for before: its ticker makes them once, and again for another range or other settings.
void TestIndexTicker::aTickerMakesTheTicksOfARangeOnce()
{
    CountingLogTicker ticker;
    QVector<double> ticks;
    QVector<QString> labels;
    for (int i = 0; i < 3; ++i)
        ticker.generate(QCPRange(1.0, 1e5), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(ticker.made, 1);
    ticker.generate(QCPRange(1.0, 1e6), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(ticker.made, 2);
    ticker.setSubTickCount(2);
    ticker.generate(QCPRange(1.0, 1e6), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(ticker.made, 3);
    ticker.generate(QCPRange(1.0, 1e6), QLocale(QLocale::German), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(ticker.made, 4);

    CountingIndexTicker index;
    for (int i = 0; i < 3; ++i)
        index.generate(QCPRange(0.0, 24.0), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(index.made, 1);
    QCOMPARE(labels, (QVector<QString> {u"0"_s, u"5"_s, u"10"_s, u"15"_s, u"20"_s}));
    index.setLone(true);
    index.generate(QCPRange(0.0, 24.0), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    QCOMPARE(index.made, 2);
}

// FigureFit's fitTicks tries an axis's levels from its figure's own count down at every fitting
// round, and the layout asks for the level set: each level's ticks are made once, and each is the
// ticks a ticker that never made another gives.
void TestIndexTicker::aTickerKeepsTheLevelsAFittingTries()
{
    const QCPRange range(-0.5, 63.5);
    const auto labelsOf = [&](IndexTicker &ticker) {
        QVector<double> ticks;
        QVector<QString> labels;
        ticker.generate(range, QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
        return labels;
    };
    const auto fresh = [&](int count, bool lone) {
        IndexTicker ticker;
        ticker.setTickCount(count);
        ticker.setLone(lone);
        return labelsOf(ticker);
    };
    CountingIndexTicker index;
    for (int round = 0; round < 3; ++round)
        for (const int count : {8, 6, 5, 4, 3, 2, 1}) {
            index.setTickCount(count);
            QCOMPARE(labelsOf(index), fresh(count, false));
        }
    QCOMPARE(index.made, 7);
    index.setLone(true);
    QCOMPARE(labelsOf(index), fresh(1, true));
    QCOMPARE(index.made, 8);
    // One more than it keeps: the one made longest ago is made again.
    index.setLone(false);
    index.setTickCount(9);
    QCOMPARE(labelsOf(index), fresh(9, false));
    QCOMPARE(index.made, 9);
    index.setTickCount(8);
    QCOMPARE(labelsOf(index), fresh(8, false));
    QCOMPARE(index.made, 10);
}

POSENC_TEST_MAIN(TestIndexTicker)
} // namespace tst_indexticker
#include "tst_indexticker.moc"
