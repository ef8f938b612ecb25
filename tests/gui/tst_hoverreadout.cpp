#include "gui/HoverReadout.h"

#include "../core/Reference.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestHoverReadout : public QObject
{
    Q_OBJECT

private slots:
    void namesPositionColumnPairFrequencyWavelengthAndValue();
    void splitLayoutPairs();
    void concatHasNoPeInTheEmbeddingColumns();
    void columnOnlyPointHasNoPosition();
};

void TestHoverReadout::namesPositionColumnPairFrequencyWavelengthAndValue()
{
    Params p; // d 512, interleaved, base 10000
    HoverPoint point;
    point.position = 37;
    point.column = 5;
    point.value = 0.25;
    point.valueName = u"PE"_s;
    const QString text = HoverReadout::format(p, point);
    const double w = reference::omega(2, 512, 10000.0);
    QVERIFY2(text.contains(u"position 37"_s), qPrintable(text));
    QVERIFY2(text.contains(u"column 5"_s), qPrintable(text));
    QVERIFY2(text.contains(u"pair 2 (cos)"_s), qPrintable(text));
    QVERIFY2(text.contains(u"ω = %1"_s.arg(w, 0, 'g', 5)), qPrintable(text));
    QVERIFY2(text.contains(u"λ = %1"_s.arg(2.0 * M_PI / w, 0, 'g', 5)), qPrintable(text));
    QVERIFY2(text.contains(u"PE = 0.25"_s), qPrintable(text));
}

void TestHoverReadout::splitLayoutPairs()
{
    Params p;
    p.dModel = 10;
    p.layout = Layout::Split;
    HoverPoint point;
    point.column = 7; // cos of pair 2 in the split layout (h = 5)
    QVERIFY(HoverReadout::format(p, point).contains(u"pair 2 (cos)"_s));
    point.column = 4;
    QVERIFY(HoverReadout::format(p, point).contains(u"pair 4 (sin)"_s));
}

void TestHoverReadout::concatHasNoPeInTheEmbeddingColumns()
{
    Params p;
    p.dModel = 100;
    p.compose = Compose::Concat;
    p.peDims = 20; // X columns 80..99 hold PE columns 0..19
    QCOMPARE(HoverReadout::peColumnOf(p, 79, false), std::nullopt);
    QCOMPARE(HoverReadout::peColumnOf(p, 83, false), std::optional<std::int64_t>(3));
    QCOMPARE(HoverReadout::peColumnOf(p, 3, true), std::optional<std::int64_t>(3));
    HoverPoint point;
    point.column = 10;
    QVERIFY(HoverReadout::format(p, point).contains(u"no PE"_s));
}

void TestHoverReadout::columnOnlyPointHasNoPosition()
{
    HoverPoint point;
    point.hasPosition = false;
    point.column = 0;
    const QString text = HoverReadout::format(Params {}, point);
    QVERIFY2(text.startsWith(u"column 0"_s) && !text.contains(u"position 0"_s), qPrintable(text));
}

QTEST_GUILESS_MAIN(TestHoverReadout)
#include "tst_hoverreadout.moc"
