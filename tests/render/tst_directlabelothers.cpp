// What a label keeps off, asked of the other curves' cells united for a pad
// (DirectLabels::OthersCells): for random curves, inks, lines, labels' own curves, boxes and pads,
// the same answer as each curve's cells asked in turn (Scene::othersMeet), and as the cells marked,
// held in the test, that the box grown by the pad or a thicker curve's ink covers.
#include "render/DirectLabelScene.h"
#include "support/TestMain.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace tst_directlabelothers {
using namespace posenc;

class TestDirectLabelOthers : public QObject
{
    Q_OBJECT

private slots:
    void unitedCellsAnswerAsEachCurve();
};

namespace {

using Marked = std::set<std::pair<int, int>>;

// Whether `box` meets a cell of `marked` as a plot's cells count it: every cell from the one its
// left or top edge falls in to the one its right or bottom edge falls in.
bool covers(const Marked &marked, const QRectF &box)
{
    const int x0 = int(std::floor(box.left())), x1 = int(std::floor(box.right()));
    const int y0 = int(std::floor(box.top())), y1 = int(std::floor(box.bottom()));
    return std::any_of(marked.begin(), marked.end(), [&](const std::pair<int, int> &cell) {
        return cell.first >= x0 && cell.first <= x1 && cell.second >= y0 && cell.second <= y1;
    });
}

} // namespace

void TestDirectLabelOthers::unitedCellsAnswerAsEachCurve()
{
    QRandomGenerator random(62);
    QCustomPlot plot;
    QList<QCPGraph *> graphs;
    for (int i = 0; i < 6; ++i)
        graphs.append(plot.addGraph());
    const QRect rect(7, -3, 140, 90);
    const double pads[] = {0.0, 0.5, 0.75, 1.0, 2.0, 3.0};
    for (int trial = 0; trial < 60; ++trial) {
        DirectLabels::Scene scene;
        scene.rect = rect;
        std::map<const QCPAbstractPlottable *, Marked> marked;
        Marked lines;
        // Each curve a few scattered cells and a short run, its ink 0.5 to 3.5 units.
        for (QCPGraph *graph : graphs) {
            if (random.bounded(5) == 0)
                continue;
            auto cells = std::make_shared<DirectLabels::Cells>(rect);
            Marked &own = marked[graph];
            for (int k = 0; k < 12; ++k) {
                const int x = rect.left() + random.bounded(rect.width() + 1);
                const int y = rect.top() + random.bounded(rect.height() + 1);
                cells->mark(QPointF(x + 0.5, y + 0.5), 0.0);
                own.insert({x, y});
            }
            cells->finish();
            scene.curves.emplace(graph, cells);
            scene.inks.emplace(graph, 0.5 * double(1 + random.bounded(7)));
        }
        if (trial % 2 == 0) {
            DirectLabels::Cells cells(rect);
            for (int k = 0; k < 8; ++k) {
                const int x = rect.left() + random.bounded(rect.width() + 1);
                const int y = rect.top() + random.bounded(rect.height() + 1);
                cells.mark(QPointF(x + 0.5, y + 0.5), 0.0);
                lines.insert({x, y});
            }
            cells.finish();
            scene.lines = std::move(cells);
        }
        // A label naming none, one or two of the curves.
        QList<const QCPAbstractPlottable *> own;
        for (int k = random.bounded(3); k > 0; --k)
            own.append(graphs[random.bounded(graphs.size())]);
        const DirectLabels::OthersCells others(scene, own);
        for (int k = 0; k < 400; ++k) {
            const QRectF box(rect.left() - 5.0 + random.bounded(rect.width() + 10.0),
                             rect.top() - 5.0 + random.bounded(rect.height() + 10.0),
                             k % 4 == 0 ? 0.0 : random.bounded(30.0), k % 4 == 0 ? 0.0 : random.bounded(12.0));
            const double pad = pads[k % 6];
            bool expected = covers(lines, box.adjusted(-pad, -pad, pad, pad));
            for (const auto &[curve, cells] : marked) {
                const double r = std::max(pad, scene.inks.at(curve));
                expected = expected || (!own.contains(curve) && covers(cells, box.adjusted(-r, -r, r, r)));
            }
            QCOMPARE(scene.othersMeet(box, own, pad), expected);
            QCOMPARE(others.meet(box, pad), expected);
        }
    }
}

POSENC_TEST_MAIN(TestDirectLabelOthers)
} // namespace tst_directlabelothers
#include "tst_directlabelothers.moc"
