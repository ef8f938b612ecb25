// RoPE tables whose positions start past 1: the angle of a pair's first row then lies past the
// branch of acos or asin, and every pair's frequency must still be read. Each table is HF's cos or
// sin (modeling_rope_utils.py, _compute_default_rope_parameters; the rotate_half layout
// cat((freqs, freqs)) or the interleaved one), written here in float64 from p + offset; the check
// names position-offset with the offset, never "learned".
#include "CheckTables.h"

#include "core/check/TableMatch.h"

#include <QtTest>

#include <cmath>

using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

class TestTableCheckRopeOffset : public QObject
{
    Q_OBJECT

private slots:
    void offsetIsNamed_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("headDim");
        QTest::addColumn<double>("theta");
        QTest::addColumn<bool>("half");
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<qint64>("offset");
        for (const qint64 offset : {2, 3, 5, 11, 20, 33, 50, 64}) {
            for (const bool half : {true, false}) {
                for (const bool cosine : {true, false}) {
                    QTest::addRow("%s %s from %lld, 192 x 128", half ? "half" : "interleaved", cosine ? "cos" : "sin",
                                  offset)
                        << qint64(192) << qint64(128) << 10000.0 << half << cosine << offset;
                }
            }
            QTest::addRow("sin from %lld, theta 500000, 1024 x 64", offset)
                << qint64(1024) << qint64(64) << 500000.0 << true << false << offset;
        }
    }
    void offsetIsNamed()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, headDim);
        QFETCH(double, theta);
        QFETCH(bool, half);
        QFETCH(bool, cosine);
        QFETCH(qint64, offset);
        const qint64 pairs = headDim / 2;
        const Checked c = check(table(rows, headDim, [&](std::int64_t p, std::int64_t col) {
            const std::int64_t pair = half ? col % pairs : col / 2;
            const double angle = double(p + offset) * std::pow(theta, -2.0 * double(pair) / double(headDim));
            return cosine ? std::cos(angle) : std::sin(angle);
        }));
        QVERIFY2(c.match.verdict == CheckVerdict::Mistake, qPrintable(c.match.diagnosis));
        QCOMPARE(c.match.mistakes, QStringList {CheckMistakes::kPositionOffset});
        QCOMPARE(c.match.table, cosine ? u"rope-cos"_s : u"rope-sin"_s);
        QCOMPARE(c.match.positionOffset.value_or(-1), offset);
        QCOMPARE(word(c.match, u"layout"_s), half ? u"half"_s : u"interleaved"_s);
        QCOMPARE(number(c.match, u"base"_s), theta);
        QVERIFY2(c.match.diagnosis.contains(u"positions start at %1"_s.arg(offset)), qPrintable(c.match.diagnosis));
    }
};

QTEST_APPLESS_MAIN(TestTableCheckRopeOffset)
#include "tst_tablecheckropeoffset.moc"
