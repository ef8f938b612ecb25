// Every figure exported twice is the same file, byte for byte (docs/ARCHITECTURE.md, "Exporting"):
// its layout, and the texts its metadata lists as set aside, follow no QHash's order. Qt seeds its
// hashes afresh in every process, and QCustomPlot's QCPAxisRect::axes() lists a rect's axes in its
// hash's order: taken so, dropout-anatomy's export listed its set-aside axis labels in either order
// from run to run, and a room step could take either axis's label first. Here each row is built
// under Qt's fixed seed and then under fresh random ones, as separate runs of `posenc export` are,
// and written as SVG and PNG (their title and description included) each time.
#include "render/FigureFile.h"
#include "render/FigureRoomChanges.h"
#include "support/TestMain.h"

#include "FigureDefaults.h"
#include "support/FigureBuilds.h"

#include <QFile>
#include <QHashSeed>
#include <QTest>

#include <algorithm>
#include <utility>

namespace tst_figurerepeat {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Builds under random seeds after the fixed one. A figure whose export follows a hash's order
// differs under a new seed with odds near even: before axesInOrder, three runs of this test found
// 4, 5 and 2 rows different (of dropout-anatomy, similarity, nope-order and alibi-attention at the
// two sizes), so one random seed a row is enough to see such a fault.
// POSENC_REPEAT_SEEDS=N tries N, to hunt a rarer one.
int randomSeeds()
{
    bool ok = false;
    const int asked = qEnvironmentVariableIntValue("POSENC_REPEAT_SEEDS", &ok);
    return ok && asked > 0 ? asked : 1;
}

struct Files
{
    QByteArray svg;
    QByteArray png;
};

Files exported(const QString &figure, const FigureSize &page, const FigureStyle &style)
{
    const Params params = FigureBuilds::defaultParams(FigureBuilds::figure(figure));
    const auto built = FigureBuilds::build(figure, params, page, {}, style);
    if (built->error())
        return {};
    return {FigureFile::encode(*built, FigureFormat::Svg, style), FigureFile::encode(*built, FigureFormat::Png, style)};
}

// Where `b` first differs from `a`, with the text around it in each. POSENC_REPEAT_DIR=path writes
// both files there too (first.EXT, again.EXT), to diff a layout.
QString difference(const QByteArray &a, const QByteArray &b, const QString &extension)
{
    if (const QString dir = qEnvironmentVariable("POSENC_REPEAT_DIR"); !dir.isEmpty())
        for (const auto &[name, bytes] : {std::pair {u"first"_s, a}, std::pair {u"again"_s, b}})
            if (QFile file(dir + u'/' + name + u'.' + extension); file.open(QIODevice::WriteOnly))
                file.write(bytes);
    const qsizetype i = std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
    const auto around
        = [i](const QByteArray &bytes) { return QString::fromUtf8(bytes.mid(std::max<qsizetype>(0, i - 60), 140)); };
    return u"%1 and %2 bytes, first different at byte %3:\n%4\n---\n%5"_s.arg(a.size()).arg(b.size()).arg(i).arg(
        around(a), around(b));
}

} // namespace

class TestFigureRepeat : public QObject
{
    Q_OBJECT

private slots:
    void everyFigureExportsTheSameBytesUnderAnySeed_data();
    void everyFigureExportsTheSameBytesUnderAnySeed();
    void everyFigureExportsTheSameBytesAfterOthers();
    void aPanelsMarginGroupReadsBackUnderAnySeed();
    void cleanupTestCase() { QHashSeed::resetRandomGlobalSeed(); }
};

void TestFigureRepeat::everyFigureExportsTheSameBytesUnderAnySeed_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("size");
    QTest::addColumn<double>("points");
    // A column, where the room steps shorten and set aside labels; 6 x 4 cm, where they give up most;
    // a column at 8 pt, where the panels' names of dropout-compare overhang their cells, taken in a
    // hash's order until EqualPanels' letNamesOverhang took them from left to right.
    for (const QString &name : FigureRegistry::names())
        for (const auto &[size, points] : {std::pair {u"column"_s, 9.0}, {u"6x4cm"_s, 9.0}, {u"column"_s, 8.0}})
            QTest::newRow(qPrintable(u"%1 %2 %3pt"_s.arg(name, size).arg(points))) << name << size << points;
}

void TestFigureRepeat::everyFigureExportsTheSameBytesUnderAnySeed()
{
    QFETCH(QString, figure);
    QFETCH(QString, size);
    QFETCH(double, points);
    const auto inches = FigureSizes::parsePhysical(size);
    QVERIFY(std::holds_alternative<QSizeF>(inches));
    const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(inches), 300.0);
    FigureStyle style;
    style.fontPointSize = points;
    QHashSeed::setDeterministicGlobalSeed();
    const Files first = exported(figure, page, style);
    QVERIFY2(!first.svg.isEmpty() && !first.png.isEmpty(), "the figure was not built");
    for (int round = 0, seeds = randomSeeds(); round < seeds; ++round) {
        QHashSeed::resetRandomGlobalSeed();
        const Files again = exported(figure, page, style);
        // QVERIFY2 would build its message (and write the files) when they are equal too.
        if (again.svg != first.svg)
            QFAIL(qPrintable(u"SVG: "_s + difference(first.svg, again.svg, u"svg"_s)));
        if (again.png != first.png)
            QFAIL(qPrintable(u"PNG: "_s + difference(first.png, again.png, u"png"_s)));
    }
}

// A figure's layout is a function of its inputs alone, not of what the process drew before it: the
// measures remembered per thread (MeasuredText, the tickers' labels, KeepsClear::shortNumber),
// the statistics kept between exports (ComposeCompareCompute) and Qt's font caches must give what a
// fresh measure would. Each figure is exported at a column after those registered before it, then
// again after all of them, in the reverse order, and its SVG (every text's place and the figure's
// set-aside texts) is the same file. (tst_figuresizes' dropout-anatomy column once laid out at
// 48.2 % under ctest and 52.2 % alone; the seeds above, not the order, were found to move it.)
void TestFigureRepeat::everyFigureExportsTheSameBytesAfterOthers()
{
    QHashSeed::setDeterministicGlobalSeed();
    const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(u"column"_s)), 300.0);
    FigureStyle style;
    style.fontPointSize = 9.0;
    const auto svgOf = [&](const QString &figure) {
        const auto built
            = FigureBuilds::build(figure, FigureBuilds::defaultParams(FigureBuilds::figure(figure)), page, {}, style);
        return built->error() ? QByteArray() : FigureFile::encode(*built, FigureFormat::Svg, style);
    };
    const QStringList names = FigureRegistry::names();
    QList<QByteArray> first;
    for (const QString &name : names)
        first.append(svgOf(name));
    for (qsizetype i = names.size() - 1; i >= 0; --i) {
        QVERIFY2(!first[i].isEmpty(), qPrintable(names[i] + u" was not built"_s));
        const QByteArray again = svgOf(names[i]);
        if (again != first[i])
            QFAIL(qPrintable(names[i] + u": "_s + difference(first[i], again, u"svg"_s)));
    }
}

// What a room step reads of a panel's margin groups (FigureRoom::marginGroupOf) is what the figure set,
// under any seed: a panel in one group for its sides and another for its top and bottom, as
// dropout-anatomy's are, and again after it left its left group and rejoined it (giveBackMargins,
// then the undo before the next fitting). Read with QCPLayoutElement::marginGroup, 41 of 3,000 seeds
// read back no group (measured with Debian's QCustomPlot 2.1 and Qt 6.4.2; the count is logged, not
// asserted: it is the library's): dropout-anatomy's export at a column then kept the margin the
// panel should have given back, 1 run in about 100.
void TestFigureRepeat::aPanelsMarginGroupReadsBackUnderAnySeed()
{
    constexpr int kSeeds = 2000;
    int missed = 0, libraryMissed = 0;
    const QCP::MarginSide sides[] {QCP::msLeft, QCP::msRight, QCP::msTop, QCP::msBottom};
    for (int round = 0; round < kSeeds; ++round) {
        QHashSeed::resetRandomGlobalSeed();
        QCustomPlot plot;
        auto *rect = new QCPAxisRect(&plot);
        plot.plotLayout()->addElement(0, 1, rect);
        auto *panel = new QCPMarginGroup(&plot), *across = new QCPMarginGroup(&plot), *row = new QCPMarginGroup(&plot);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, panel);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, across);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, row);
        for (const bool rejoined : {false, true}) {
            if (rejoined) {
                rect->setMarginGroup(QCP::msLeft, nullptr);
                rect->setMarginGroup(QCP::msLeft, across);
            }
            for (const QCP::MarginSide side : sides) {
                QCPMarginGroup *const set = side == QCP::msLeft || side == QCP::msRight ? across : row;
                missed += FigureRoom::marginGroupOf(*rect, side) != set;
                libraryMissed += rect->marginGroup(side) != set;
            }
        }
    }
    qInfo("QCPLayoutElement::marginGroup read back a wrong group %d times in %d seeds", libraryMissed, kSeeds);
    QCOMPARE(missed, 0);
}

POSENC_TEST_MAIN(TestFigureRepeat)
} // namespace tst_figurerepeat
#include "tst_figurerepeat.moc"
