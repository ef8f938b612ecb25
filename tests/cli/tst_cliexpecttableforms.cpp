// `posenc check X --expect-table REF` where REF is no sinusoid or RoPE table: a vector of ALiBi slopes
// (the mistake named as the reference's reading, get_slopes(H), declared would name it; once "no
// mistake the check knows explains it" where `posenc check X` alone names alibi-slopes), and an
// integer map of offsets negated (its sign-flip said of whole numbers, not of sines; an odd map of
// the offset negated is the other difference's, relative-position-reversed: nntrainer#3982's
// DeBERTa p2c). Every tensor is a float64 formula here.
#include "CheckReportText.h"
#include "CliRun.h"
#include "support/AlibiReference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>

namespace tst_cliexpecttableforms {
using namespace Qt::StringLiterals;

namespace {

std::vector<float> asFloat(const std::vector<double> &v)
{
    return std::vector<float>(v.begin(), v.end());
}

using CheckReportText::mistakesOf;
using CheckReportText::shown;

} // namespace

class TestCliExpectTableForms : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_count = 0;

    QString written(const std::vector<qint64> &shape, const std::vector<float> &values)
    {
        const QString file = m_dir.filePath(u"t%1.npy"_s.arg(m_count++));
        return CliRun::writeNpyShaped(file, shape, values) ? file : QString();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Slopes against a dump of get_slopes(H): the mistake the reference's reading names, said of it.
    void slopesNamedByTheReference_data()
    {
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<bool>("shapedAsHeads");
        QTest::addColumn<QString>("words");
        // aprender#2143: 2^(-8h/8), the exponent one head early.
        QTest::newRow("8 heads, exponent from 0") << qint64(8) << false << u"the exponent starting at 0"_s;
        // mlx#3071: the power-of-two formula at 12 heads, as [1, H, 1, 1].
        QTest::newRow("12 heads, geometric, [1, H, 1, 1]") << qint64(12) << true << u"which is no power of two"_s;
    }
    void slopesNamedByTheReference()
    {
        QFETCH(qint64, heads);
        QFETCH(bool, shapedAsHeads);
        QFETCH(QString, words);
        std::vector<double> buggy;
        for (qint64 h = 0; h < heads; ++h)
            buggy.push_back(heads == 8 ? std::pow(2.0, -8.0 * double(h) / 8.0)
                                       : std::pow(std::pow(2.0, 8.0), -double(h + 1) / double(heads)));
        const std::vector<qint64> shape
            = shapedAsHeads ? std::vector<qint64> {1, heads, 1, 1} : std::vector<qint64> {heads};
        const QString fixedFile = written(shape, asFloat(alibiref::slopes(heads)));
        const QString buggyFile = written(shape, asFloat(buggy));
        QVERIFY(!fixedFile.isEmpty() && !buggyFile.isEmpty());
        const QJsonObject same = CliRun::checked(fixedFile, {u"--expect-table"_s, fixedFile, u"--quiet"_s});
        QVERIFY2(same[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(same)));
        const QJsonObject o = CliRun::checked(buggyFile, {u"--expect-table"_s, fixedFile, u"--quiet"_s});
        QVERIFY2(o[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(o) == QStringList {u"alibi-slopes"_s},
                 qPrintable(shown(o)));
        const QString d = o[u"diagnosis"_s].toString();
        QVERIFY2(d.startsWith(u"the reference table reads, without a declaration, as get_slopes(%1)"_s.arg(heads)),
                 qPrintable(shown(o)));
        QVERIFY2(d.contains(words), qPrintable(shown(o)));
    }

    // An integer map negated: whole numbers, no sines. Odd in the offset (DeBERTa's exact buckets of
    // i − j below its 128), negated in every cell it is the map of j − i; not odd (a clamped one-sided
    // map), or negated in some rows only, its values negated and nothing more.
    void integerMapNegated_data()
    {
        QTest::addColumn<bool>("odd");
        QTest::addColumn<bool>("everyRow");
        QTest::newRow("odd map of i - j") << true << true;
        QTest::newRow("map of |i - j| capped at 9") << false << true;
        // Rows 40..59 alone negated: no map of j - i either.
        QTest::newRow("odd map of i - j, rows 40..59 negated") << true << false;
    }
    void integerMapNegated()
    {
        QFETCH(bool, odd);
        QFETCH(bool, everyRow);
        constexpr qint64 n = 100;
        std::vector<double> fixed, buggy;
        for (qint64 i = 0; i < n; ++i) {
            for (qint64 j = 0; j < n; ++j) {
                const double v = odd ? double(i - j) : double(std::min<qint64>(std::abs(i - j), 9) + 1);
                fixed.push_back(v);
                buggy.push_back(everyRow || (i >= 40 && i < 60) ? -v : v);
            }
        }
        odd = odd && everyRow;
        const QString fixedFile = written({n, n}, asFloat(fixed));
        const QString buggyFile = written({n, n}, asFloat(buggy));
        const QJsonObject o = CliRun::checked(buggyFile, {u"--expect-table"_s, fixedFile, u"--quiet"_s});
        const QStringList expected
            = odd ? QStringList {u"sign-flipped"_s, u"relative-position-reversed"_s} : QStringList {u"sign-flipped"_s};
        QVERIFY2(o[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(o) == expected, qPrintable(shown(o)));
        const QString d = o[u"diagnosis"_s].toString();
        QVERIFY2(d.contains(u"the reference holds whole numbers"_s) && !d.contains(u"cosines"_s)
                     && !d.contains(u"position 0"_s),
                 qPrintable(shown(o)));
        QCOMPARE(d.contains(u"the offsets mirrored"_s), odd);
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectTableForms)
} // namespace tst_cliexpecttableforms
#include "tst_cliexpecttableforms.moc"
