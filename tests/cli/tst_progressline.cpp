// The progress line's text (cli/ProgressLine.h): the stage, the share done, the time taken and,
// once a thousandth is done, the time left at the rate so far, t (1 - f) / f.
#include "cli/ProgressLine.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_progressline {
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using posenc::ProgressLine;

class TestProgressLine : public QObject
{
    Q_OBJECT

private slots:
    void textGivesShareTimeAndTimeLeft_data();
    void textGivesShareTimeAndTimeLeft();
};

void TestProgressLine::textGivesShareTimeAndTimeLeft_data()
{
    QTest::addColumn<double>("fraction");
    QTest::addColumn<bool>("counted");
    QTest::addColumn<qint64>("elapsedMs");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not counted") << 0.0 << false << qint64(5000) << u"stage: 5 s (Ctrl+C stops)"_s;
    // Below a thousandth: no estimate yet.
    QTest::newRow("too early to estimate") << 0.0005 << true << qint64(20000) << u"stage: 0.0%, 20 s (Ctrl+C stops)"_s;
    // The audit's 6-hour column-stats after 20 s: 20 (1 - 0.002) / 0.002 = 9980 s left.
    QTest::newRow("hours left") << 0.002 << true << qint64(20000)
                                << u"stage: 0.2%, 20 s, about 2 h 46 min left (Ctrl+C stops)"_s;
    // 72 (1 - 0.37) / 0.37 = 122.6 s.
    QTest::newRow("minutes left") << 0.37 << true << qint64(72000)
                                  << u"stage: 37%, 1 min 12 s, about 2 min 3 s left (Ctrl+C stops)"_s;
    QTest::newRow("done") << 1.0 << true << qint64(3000) << u"stage: 100%, 3 s (Ctrl+C stops)"_s;
}

void TestProgressLine::textGivesShareTimeAndTimeLeft()
{
    QFETCH(double, fraction);
    QFETCH(bool, counted);
    QFETCH(qint64, elapsedMs);
    QFETCH(QString, expected);
    QCOMPARE(ProgressLine::text(u"stage"_s, fraction, counted, std::chrono::milliseconds(elapsedMs)), expected);
}

POSENC_TEST_GUILESS_MAIN(TestProgressLine)
} // namespace tst_progressline
#include "tst_progressline.moc"
