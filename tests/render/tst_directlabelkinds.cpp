// A label's places of each kind (beside its curve, off it with a leader, over it on a white ground)
// are sought once a scene for its curves and size (DirectLabels' spotsOf): DirectLabels::place
// searches beside the curves first, then with leaders, then with grounds too, on the same scenes,
// and each pass sought the places of the kinds before it again (a third of the label searches of a
// change of DeBERTa's window). The places found, and the labels placed from them, are those of a
// search on scenes made afresh for each pass.
#include "render/DirectLabelPlaces.h"
#include "render/DirectLabelScene.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_directlabelkinds {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace posenc::DirectLabels;

namespace {

// A 300 x 200 plot of three waves one over the other, a label of one form for each.
struct Waves
{
    QCustomPlot plot;
    QList<Wanted> wanted;

    Waves()
    {
        plot.setViewport(QRect(0, 0, 300, 200));
        plot.xAxis->setRange(0.0, 10.0);
        plot.yAxis->setRange(-1.5, 1.5);
        for (int c = 0; c < 3; ++c) {
            QList<double> x, y;
            for (int i = 0; i <= 400; ++i) {
                x.append(10.0 * i / 400.0);
                y.append(0.3 * std::sin(x.constLast() * (1.0 + 0.4 * c) + c) + 0.9 * (c - 1));
            }
            QCPGraph *graph = plot.addGraph();
            graph->setData(x, y, true);
            graph->setPen(QPen(QColor::fromHsv(120 * c, 200, 180), 1.5));
            graph->setName(u"wave %1"_s.arg(c));
            wanted.append(Wanted::of(graph, {u"wave number %1"_s.arg(c)}));
        }
        plot.replot();
    }
};

// Each label's places and the place it took, in words.
QStringList placesOf(const QList<Wanted> &wanted)
{
    QStringList words;
    const auto spot = [](const Spot &s) {
        return u"%1 %2 %3 %4 %5 %6"_s.arg(s.box.x(), 0, 'g', 17)
            .arg(s.box.y(), 0, 'g', 17)
            .arg(s.box.width(), 0, 'g', 17)
            .arg(s.box.height(), 0, 'g', 17)
            .arg(s.over)
            .arg(s.anchor ? u"%1,%2"_s.arg(s.anchor->x(), 0, 'g', 17).arg(s.anchor->y(), 0, 'g', 17) : u"-"_s);
    };
    for (const Wanted &label : wanted) {
        QStringList spots;
        for (const Spot &s : label.spots)
            spots.append(spot(s));
        words.append(label.text + u": "_s + spots.join(u"; "_s) + u" at "_s + (label.at ? spot(*label.at) : u"none"_s));
    }
    return words;
}

} // namespace

class TestDirectLabelKinds : public QObject
{
    Q_OBJECT

private slots:
    void eachKindIsSoughtOnceAScene();
};

void TestDirectLabelKinds::eachKindIsSoughtOnceAScene()
{
    Waves waves;
    QFont font(PinnedFont::family());
    font.setPointSizeF(9.0);
    const QList<std::pair<bool, bool>> passes {{false, false}, {true, false}, {true, true}};
    // Each pass on scenes of its own: every kind it asks is sought.
    QList<QStringList> fresh;
    for (const auto &[leaders, grounds] : passes) {
        QList<Wanted> wanted = waves.wanted;
        Scenes scenes;
        placeAll(wanted, font, {}, &scenes, leaders, grounds);
        fresh.append(placesOf(wanted));
    }
    // The passes on one scene, as DirectLabels::place makes them: each kind once for each label.
    Scenes scenes;
    const qsizetype labels = waves.wanted.size();
    const QList<qsizetype> sought {labels, labels, labels}; // beside; then off with leaders; then over on grounds
    for (qsizetype pass = 0; pass < passes.size(); ++pass) {
        QList<Wanted> wanted = waves.wanted;
        const quint64 before = placesSought();
        placeAll(wanted, font, {}, &scenes, passes[pass].first, passes[pass].second);
        QCOMPARE(placesOf(wanted), fresh[pass]);
        QCOMPARE(qsizetype(placesSought() - before), sought[pass]);
    }
    // The places of every kind were there to find: the test asks each of them.
    const QString last = fresh[2].join(u'\n');
    QVERIFY(last.contains(u" 1 -"_s)); // over its line, on a ground
    QVERIFY(last.contains(u',')); // off it, a leader's point given
}

POSENC_TEST_MAIN(TestDirectLabelKinds)
} // namespace tst_directlabelkinds
#include "tst_directlabelkinds.moc"
