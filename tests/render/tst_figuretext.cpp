// FigureText: the numbers of a title in words (ratios with thousands grouped) and the legend of a
// log axis counting what lies below it. The quantities' labels and the parameters' parts of a
// title are the quantity table's (tst_quantitytable).
#include "render/data/FigureText.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_figuretext {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestFigureText : public QObject
{
    Q_OBJECT

private slots:
    void ratiosGroupThousands();
    void namesCountWhatLiesBelowTheAxis();
};

void TestFigureText::ratiosGroupThousands()
{
    // Cells a pixel in a title: three significant digits, never an exponent.
    QCOMPARE(FigureText::formatRatio(1.4142), u"1.41"_s);
    QCOMPARE(FigureText::formatRatio(17.83), u"17.8"_s);
    QCOMPARE(FigureText::formatRatio(318.0), u"318"_s);
    QCOMPARE(FigureText::formatRatio(1048576.0 / 339.0), u"3,090"_s); // 3093.1
    QCOMPARE(FigureText::formatRatio(1048576.0 / 2.0), u"524,000"_s);
    QCOMPARE(FigureText::formatRatio(999.6), u"1,000"_s);
}

void TestFigureText::namesCountWhatLiesBelowTheAxis()
{
    const QList<double> a {0.0, 1e-6, 0.5, -2e-4, std::nan("")};
    const QList<double> b {3e-3, 1e-3};
    // Zeros and magnitudes under the floor count; the floor itself, larger values and NaN do not.
    QCOMPARE(FigureText::belowAxisName(u"|mean| of PE[:, j]"_s, {&a, &b}, 1e-3),
             u"|mean| of PE[:, j] (3 below the axis)"_s);
    QCOMPARE(FigureText::belowAxisName(u"std"_s, {&b}, 1e-3), u"std"_s);
}

POSENC_TEST_GUILESS_MAIN(TestFigureText)
} // namespace tst_figuretext
#include "tst_figuretext.moc"
