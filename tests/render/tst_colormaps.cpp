#include "render/Colormaps.h"

#include <QTest>

using namespace Qt::StringLiterals;
using posenc::Colormap;
namespace Colormaps = posenc::Colormaps;

Q_DECLARE_METATYPE(posenc::Colormap)

class TestColormaps : public QObject
{
    Q_OBJECT

private slots:
    void namesRoundTrip();
    void divergingIsWhiteAtZeroAndSymmetric();
    void sequentialMapsGrowInLightness_data();
    void sequentialMapsGrowInLightness();
    void endsAreThePublishedColours_data();
    void endsAreThePublishedColours();
    void signedDataGetsTheDivergingMap();
};

void TestColormaps::namesRoundTrip()
{
    for (const QString &name : Colormaps::names())
        QCOMPARE(Colormaps::name(*Colormaps::fromName(name)), name);
    QVERIFY(!Colormaps::fromName(u"jet"_s));
}

void TestColormaps::divergingIsWhiteAtZeroAndSymmetric()
{
    // The data range of signed data is symmetric, so t = 0.5 is the value zero.
    const QColor centre = Colormaps::colorAt(Colormap::Diverging, 0.5);
    QVERIFY2(centre.red() > 240 && centre.green() > 240 && centre.blue() > 240, qPrintable(centre.name()));
    // Equal distances from zero are equally light, blue below and red above.
    for (const double t : {0.05, 0.2, 0.35, 0.45}) {
        const QColor below = Colormaps::colorAt(Colormap::Diverging, 0.5 - t);
        const QColor above = Colormaps::colorAt(Colormap::Diverging, 0.5 + t);
        QVERIFY2(below.blue() > below.red(), qPrintable(below.name()));
        QVERIFY2(above.red() > above.blue(), qPrintable(above.name()));
        QVERIFY2(std::abs(below.lightnessF() - above.lightnessF()) < 0.12,
                 qPrintable(u"t %1: %2 vs %3"_s.arg(t).arg(below.name(), above.name())));
    }
}

void TestColormaps::sequentialMapsGrowInLightness_data()
{
    QTest::addColumn<Colormap>("map");
    QTest::newRow("viridis") << Colormap::Viridis;
    QTest::newRow("cividis") << Colormap::Cividis;
}

void TestColormaps::sequentialMapsGrowInLightness()
{
    QFETCH(Colormap, map);
    // Perceptually uniform maps are monotonic in lightness: magnitude reads as brightness.
    // Relative luminance (Rec. 709 on linearised sRGB) is an independent measure of it.
    const auto luminance = [](const QColor &c) {
        const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
    };
    double previous = -1.0;
    for (int i = 0; i <= 50; ++i) {
        const double y = luminance(Colormaps::colorAt(map, i / 50.0));
        QVERIFY2(y > previous, qPrintable(u"not brighter at t = %1"_s.arg(i / 50.0)));
        previous = y;
    }
}

void TestColormaps::endsAreThePublishedColours_data()
{
    QTest::addColumn<Colormap>("map");
    QTest::addColumn<QColor>("low");
    QTest::addColumn<QColor>("high");
    QTest::newRow("viridis") << Colormap::Viridis << QColor(0x44, 0x01, 0x54) << QColor(0xfd, 0xe7, 0x25);
    QTest::newRow("cividis") << Colormap::Cividis << QColor(0x00, 0x22, 0x4e) << QColor(0xfe, 0xe8, 0x38);
    QTest::newRow("diverging") << Colormap::Diverging << QColor(0x05, 0x30, 0x61) << QColor(0x67, 0x00, 0x1f);
}

void TestColormaps::endsAreThePublishedColours()
{
    QFETCH(Colormap, map);
    QFETCH(QColor, low);
    QFETCH(QColor, high);
    const auto close = [](const QColor &a, const QColor &b) {
        return std::abs(a.red() - b.red()) <= 2 && std::abs(a.green() - b.green()) <= 2
            && std::abs(a.blue() - b.blue()) <= 2;
    };
    QVERIFY2(close(Colormaps::colorAt(map, 0.0), low), qPrintable(Colormaps::colorAt(map, 0.0).name()));
    QVERIFY2(close(Colormaps::colorAt(map, 1.0), high), qPrintable(Colormaps::colorAt(map, 1.0).name()));
}

void TestColormaps::signedDataGetsTheDivergingMap()
{
    QCOMPARE(Colormaps::forSignedData(true), Colormap::Diverging);
    QVERIFY(Colormaps::forSignedData(false) != Colormap::Diverging);
}

QTEST_MAIN(TestColormaps)
#include "tst_colormaps.moc"
