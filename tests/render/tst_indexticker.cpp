// IndexTicker: an axis that counts positions or columns has whole-number ticks, each label the
// exact integer and none repeated, at any range up to a million and beyond, its thousands
// grouped once a label has five digits.
#include "render/IndexTicker.h"

#include <QSet>
#include <QTest>

#include <cmath>

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

QTEST_MAIN(TestIndexTicker)
#include "tst_indexticker.moc"
