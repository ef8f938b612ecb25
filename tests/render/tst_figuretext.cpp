// FigureText: the words a figure uses for what it shows follow the parameters: concat's X is
// [s·E | PE], embedding-only dropout is dropout(s·E) + PE, masked-fill never claims Y = X, and
// the parameter parts of titles name the values that matter.
#include "render/data/FigureText.h"

#include <QTest>

#include <cmath>

using namespace posenc;
using namespace Qt::StringLiterals;

class TestFigureText : public QObject
{
    Q_OBJECT

private slots:
    void quantityFollowsParameters_data();
    void quantityFollowsParameters();
    void parameterParts();
    void ratiosGroupThousands();
    void namesCountWhatLiesBelowTheAxis();
};

void TestFigureText::quantityFollowsParameters_data()
{
    QTest::addColumn<int>("quantity");
    QTest::addColumn<Params>("params");
    QTest::addColumn<QString>("label");
    const Params base;
    Params concat = base;
    concat.compose = Compose::Concat;
    Params embedding = base;
    embedding.dropoutMode = DropoutMode::Embedding;
    Params embeddingConcat = embedding;
    embeddingConcat.compose = Compose::Concat;
    Params evaluation = base;
    evaluation.training = false;
    Params noDropout = base;
    noDropout.dropout = 0.0;
    Params maskedFill = base;
    maskedFill.dropoutMode = DropoutMode::MaskedFill;
    maskedFill.seqLen = 100;
    Params maskedFillEval = maskedFill;
    maskedFillEval.training = false;
    Params maskedFillNoPadding = maskedFill;
    maskedFillNoPadding.seqLen.reset();
    Params protect = base;
    protect.dropoutMode = DropoutMode::ProtectSpecial;

    const int input = static_cast<int>(Quantity::Input);
    const int output = static_cast<int>(Quantity::Output);
    QTest::newRow("sum X") << input << base << u"X = s·E + PE"_s;
    QTest::newRow("concat X") << input << concat << u"X = [s·E | PE]"_s;
    QTest::newRow("sum Y") << output << base << u"Y = dropout(X)"_s;
    QTest::newRow("embedding Y") << output << embedding << u"Y = dropout(s·E) + PE"_s;
    QTest::newRow("embedding concat Y") << output << embeddingConcat << u"Y = [dropout(s·E) | PE]"_s;
    QTest::newRow("protect-special Y") << output << protect << u"Y = dropout(X), special rows kept"_s;
    QTest::newRow("evaluation Y") << output << evaluation << u"Y = X"_s;
    QTest::newRow("p = 0 Y") << output << noDropout << u"Y = X"_s;
    QTest::newRow("masked-fill Y") << output << maskedFill << u"Y = dropout(X, padding rows zeroed)"_s;
    QTest::newRow("masked-fill evaluation Y") << output << maskedFillEval << u"Y = X, padding rows zeroed"_s;
    QTest::newRow("masked-fill without padding") << output << maskedFillNoPadding << u"Y = dropout(X)"_s;
    QTest::newRow("mask") << static_cast<int>(Quantity::Mask) << base << u"mask (1 kept, 0 dropped)"_s;
}

void TestFigureText::quantityFollowsParameters()
{
    QFETCH(int, quantity);
    QFETCH(Params, params);
    QFETCH(QString, label);
    QCOMPARE(FigureText::quantityLabel(static_cast<Quantity>(quantity), params), label);
}

void TestFigureText::parameterParts()
{
    Params params;
    params.dModel = 512;
    params.maxLen = 1024;
    QCOMPARE(FigureText::tableText(params), u"d = 512, L = 1,024"_s);
    QCOMPARE(FigureText::scaleText(params), u"s = √d = %1"_s.arg(NumberText::compact(std::sqrt(512.0))));
    params.scaleKind = ScaleKind::One;
    QCOMPARE(FigureText::scaleText(params), u"s = 1"_s);
    QCOMPARE(FigureText::sigmaText(params), u"σ = 1"_s);
    params.init = InitKind::ScaledNormal;
    QCOMPARE(FigureText::sigmaText(params), u"σ = d^-1/2 = %1"_s.arg(NumberText::compact(1.0 / std::sqrt(512.0))));
    QCOMPARE(FigureText::dropoutText(params), u"p = 0.1, dropout mode sum"_s);
    params.training = false;
    QCOMPARE(FigureText::dropoutText(params), u"evaluation: no dropout"_s);
}

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

QTEST_GUILESS_MAIN(TestFigureText)
#include "tst_figuretext.moc"
