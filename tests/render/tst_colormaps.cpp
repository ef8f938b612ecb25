#include "render/Colormaps.h"
#include "support/TestMain.h"

#include <QFile>
#include <QTest>

#include <array>
#include <cmath>
#include <vector>

namespace tst_colormaps {
using namespace Qt::StringLiterals;
using posenc::Colormap;
namespace Colormaps = posenc::Colormaps;

namespace {

constexpr int kEntries = 256;

// The 8-bit colour nearest to an entry of matplotlib's table.
QColor nearest(double r, double g, double b)
{
    const auto channel = [](double v) { return static_cast<int>(std::floor(v * 255.0 + 0.5)); };
    return QColor(channel(r), channel(g), channel(b));
}

// tests/data/colormaps/NAME.csv: 256 lines "red,green,blue" taken from matplotlib's published
// data (make_colormaps.py).
std::vector<QColor> referenceTable(const QString &name)
{
    QFile file(QFINDTESTDATA(u"../data/colormaps/%1.csv"_s.arg(name)));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    std::vector<QColor> table;
    while (!file.atEnd()) {
        const QList<QByteArray> fields = file.readLine().trimmed().split(',');
        if (fields.size() != 3)
            return {};
        table.push_back(nearest(fields[0].toDouble(), fields[1].toDouble(), fields[2].toDouble()));
    }
    return table;
}

// The middle of entry i's share of the data range.
double middleOf(int i)
{
    return (i + 0.5) / kEntries;
}

} // namespace

class TestColormaps : public QObject
{
    Q_OBJECT

private slots:
    void namesRoundTrip();
    void divergingIsWhiteAtZeroAndSymmetric();
    void sequentialMapsGrowInLightness_data();
    void sequentialMapsGrowInLightness();
    void everyEntryIsMatplotlibs_data();
    void everyEntryIsMatplotlibs();
    void publishedEntries_data();
    void publishedEntries();
    void signedDataGetsTheDivergingMap();
};

void TestColormaps::namesRoundTrip()
{
    for (const QString &name : Colormaps::names())
        QCOMPARE(Colormaps::name(*Colormaps::fromName(name)), name);
    QVERIFY(!Colormaps::fromName(u"jet"_s));
    // matplotlib's names: coolwarm, NAME_r for every map, and RdBu_r (our diverging map) and so
    // RdBu its reverse. Before: coolwarm and every _r refused.
    QCOMPARE(Colormaps::names().size(), 10);
    QVERIFY(Colormaps::fromName(u"coolwarm"_s) == Colormap::Coolwarm);
    QVERIFY(Colormaps::fromName(u"viridis_r"_s) == Colormap::Viridis.flipped());
    QVERIFY(Colormaps::fromName(u"coolwarm_r"_s) == Colormap::Coolwarm.flipped());
    QVERIFY(Colormaps::fromName(u"RdBu_r"_s) == Colormap::Diverging);
    QVERIFY(Colormaps::fromName(u"RdBu"_s) == Colormap::Diverging.flipped());
    QVERIFY(Colormaps::fromName(u"diverging_r"_s) == Colormap::Diverging.flipped());
    for (const QString &refused : {u"viridis_r_r"_s, u"RdBu_r_r"_s, u"Viridis"_s, u"auto_r"_s})
        QVERIFY2(!Colormaps::fromName(refused), qPrintable(refused));
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
    QTest::newRow("magma") << Colormap::Magma;
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

void TestColormaps::everyEntryIsMatplotlibs_data()
{
    QTest::addColumn<Colormap>("map");
    for (const QString &name : Colormaps::names())
        QTest::newRow(qPrintable(name)) << *Colormaps::fromName(name);
}

// Every map the program offers is matplotlib's table of 256 entries, each at its nearest 8-bit
// colour, and the data in [i/256, (i+1)/256) of the range takes entry i as matplotlib maps it:
// colorAt (legends) and the gradient QCustomPlot colours the heatmaps and colorbars with alike.
// Before, 11 stops interpolated in RGB were up to 13 of 255 off a channel in viridis. coolwarm is
// checked against _cm.py's _coolwarm_data, each NAME_r against matplotlib's own NAME_r
// (tests/data/make_colormaps.py).
void TestColormaps::everyEntryIsMatplotlibs()
{
    QFETCH(Colormap, map);
    const std::vector<QColor> reference = referenceTable(Colormaps::name(map));
    QCOMPARE(int(reference.size()), kEntries);
    QCPColorGradient gradient = Colormaps::gradient(map);
    const QCPRange range(0.0, 1.0);
    const auto check = [&](double t, int entry) {
        const QColor expected = reference[static_cast<std::size_t>(entry)];
        const QColor fromColorAt = Colormaps::colorAt(map, t);
        const QColor fromGradient = QColor::fromRgb(gradient.color(t, range));
        QVERIFY2(
            fromColorAt == expected,
            qPrintable(
                u"t %1: colorAt %2, entry %3 is %4"_s.arg(t).arg(fromColorAt.name()).arg(entry).arg(expected.name())));
        QVERIFY2(fromGradient == expected,
                 qPrintable(u"t %1: gradient %2, entry %3 is %4"_s.arg(t)
                                .arg(fromGradient.name())
                                .arg(entry)
                                .arg(expected.name())));
    };
    for (int i = 0; i < kEntries; ++i) {
        check(middleOf(i), i);
        check(double(i) / kEntries, i);
    }
    check(1.0, kEntries - 1);
    check(-0.5, 0);
    check(1.5, kEntries - 1);
}

void TestColormaps::publishedEntries_data()
{
    QTest::addColumn<Colormap>("map");
    QTest::addColumn<int>("entry");
    QTest::addColumn<QColor>("color");
    // Typed from matplotlib's _cm_listed.py (the lists of 256 floats).
    QTest::newRow("viridis 0") << Colormap::Viridis << 0 << nearest(0.267004, 0.004874, 0.329415);
    QTest::newRow("viridis 128") << Colormap::Viridis << 128 << nearest(0.127568, 0.566949, 0.550556);
    QTest::newRow("viridis 255") << Colormap::Viridis << 255 << nearest(0.993248, 0.906157, 0.143936);
    QTest::newRow("cividis 0") << Colormap::Cividis << 0 << nearest(0.000000, 0.135112, 0.304751);
    QTest::newRow("cividis 128") << Colormap::Cividis << 128 << nearest(0.488697, 0.485318, 0.471008);
    QTest::newRow("cividis 255") << Colormap::Cividis << 255 << nearest(0.995737, 0.909344, 0.217772);
    QTest::newRow("magma 0") << Colormap::Magma << 0 << nearest(0.001462, 0.000466, 0.013866);
    QTest::newRow("magma 128") << Colormap::Magma << 128 << nearest(0.716387, 0.214982, 0.475290);
    QTest::newRow("magma 255") << Colormap::Magma << 255 << nearest(0.987053, 0.991438, 0.749504);
    // RdBu reversed passes through ColorBrewer's 11 colours at every 25.5 entries: the whole ones.
    QTest::newRow("diverging 0") << Colormap::Diverging << 0 << QColor(0x053061);
    QTest::newRow("diverging 51") << Colormap::Diverging << 51 << QColor(0x4393c3);
    QTest::newRow("diverging 102") << Colormap::Diverging << 102 << QColor(0xd1e5f0);
    QTest::newRow("diverging 153") << Colormap::Diverging << 153 << QColor(0xfddbc7);
    QTest::newRow("diverging 204") << Colormap::Diverging << 204 << QColor(0xd6604d);
    QTest::newRow("diverging 255") << Colormap::Diverging << 255 << QColor(0x67001f);
    // Typed from matplotlib's _cm.py, _coolwarm_data (Moreland's CoolWarmFloat33): its first and
    // last points; a reversed map starts where its map ends.
    QTest::newRow("coolwarm 0") << Colormap::Coolwarm << 0 << nearest(0.2298057, 0.298717966, 0.753683153);
    QTest::newRow("coolwarm 255") << Colormap::Coolwarm << 255 << nearest(0.705673158, 0.01555616, 0.150232812);
    QTest::newRow("coolwarm_r 0") << Colormap::Coolwarm.flipped() << 0 << nearest(0.705673158, 0.01555616, 0.150232812);
    QTest::newRow("viridis_r 0") << Colormap::Viridis.flipped() << 0 << nearest(0.993248, 0.906157, 0.143936);
    QTest::newRow("diverging_r 255") << Colormap::Diverging.flipped() << 255 << QColor(0x053061);
}

void TestColormaps::publishedEntries()
{
    QFETCH(Colormap, map);
    QFETCH(int, entry);
    QFETCH(QColor, color);
    QCOMPARE(Colormaps::colorAt(map, middleOf(entry)).name(), color.name());
    // The reference tables agree with the published values too.
    QCOMPARE(referenceTable(Colormaps::name(map)).at(static_cast<std::size_t>(entry)).name(), color.name());
}

void TestColormaps::signedDataGetsTheDivergingMap()
{
    QCOMPARE(Colormaps::forSignedData(true), Colormap::Diverging);
    QVERIFY(Colormaps::forSignedData(false) != Colormap::Diverging);
}

POSENC_TEST_MAIN(TestColormaps)
} // namespace tst_colormaps
#include "tst_colormaps.moc"
