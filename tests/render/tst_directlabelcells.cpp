// A curve's segments marked in a plot's cells (DirectLabels::Cells::segment) as the points along it
// every half unit fall: a level or upright segment (a band's columns, a rule) and one within a
// cell (a dense curve's) marked as runs, not point by point, mark the same cells.
#include "render/DirectLabelCells.h"
#include "support/TestMain.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <set>

namespace tst_directlabelcells {
using namespace posenc;

class TestDirectLabelCells : public QObject
{
    Q_OBJECT

private slots:
    void segmentsMarkTheCellsOfTheirPoints();
    void aDenseCurveMarksTheCellsOfItsPoints();
};

namespace {

// The cells of the points every half unit or less along a..b within `room` (a plot's, a unit
// wider each way: a segment is clipped to it before its points are taken), as a curve's segment falls.
void addPoints(std::set<std::pair<int, int>> &cells, QPointF a, QPointF b, const QRectF &room)
{
    const auto t = clippedSegment(a, b, room);
    if (!t)
        return;
    const QPointF from = a + (b - a) * t->first, to = a + (b - a) * t->second;
    a = from;
    b = to;
    const int steps = std::max(1, int(std::ceil(std::hypot(b.x() - a.x(), b.y() - a.y()) * 2.0)));
    for (int i = 0; i <= steps; ++i) {
        const QPointF p = a + (b - a) * (double(i) / steps);
        cells.insert({int(std::floor(p.x())), int(std::floor(p.y()))});
    }
}

} // namespace

void TestDirectLabelCells::segmentsMarkTheCellsOfTheirPoints()
{
    QRandomGenerator random(11);
    const QRect rect(3, -2, 150, 70);
    const auto within = [&] {
        return QPointF(rect.left() + random.bounded(double(rect.width())),
                       rect.top() + random.bounded(double(rect.height())));
    };
    for (int trial = 0; trial < 300; ++trial) {
        QPointF a = within(), b = within();
        switch (trial % 5) {
        case 0: b.setX(a.x()); break; // upright
        case 1: b.setY(a.y()); break; // level
        case 2: b = QPointF(std::floor(a.x()) + random.bounded(1.0), std::floor(a.y()) + random.bounded(1.0)); break;
        case 3: b = a + QPointF(random.bounded(2.0) - 1.0, random.bounded(2.0) - 1.0); break; // a dense curve's
        default: break;
        }
        DirectLabels::Cells cells(rect);
        cells.segment(a, b);
        cells.finish();
        // The points every half unit or less from a on, each in its cell.
        std::set<std::pair<int, int>> expected;
        const int steps = std::max(1, int(std::ceil(std::hypot(b.x() - a.x(), b.y() - a.y()) * 2.0)));
        for (int i = 0; i <= steps; ++i) {
            const QPointF p = a + (b - a) * (double(i) / steps);
            expected.insert({int(std::floor(p.x())), int(std::floor(p.y()))});
        }
        for (int y = rect.top() - 1; y <= rect.bottom() + 1; ++y)
            for (int x = rect.left() - 1; x <= rect.right() + 1; ++x) {
                const bool inside = x >= rect.left() && x <= rect.left() + rect.width() && y >= rect.top()
                    && y <= rect.top() + rect.height();
                QCOMPARE(cells.meets(QRectF(x + 0.25, y + 0.25, 0.5, 0.5)), inside && expected.count({x, y}) > 0);
            }
    }
}

void TestDirectLabelCells::aDenseCurveMarksTheCellsOfItsPoints()
{
    // Curves of many points a column, swinging up and down (their segments within a column joined
    // into one run), some past the plot's edges and some with gaps a column wide between swings,
    // with level and slanted stretches between: the cells of every point along them, as above.
    QRandomGenerator random(29);
    const QRect rect(-4, 5, 90, 60);
    for (int trial = 0; trial < 40; ++trial) {
        DirectLabels::Cells cells(rect);
        std::set<std::pair<int, int>> expected;
        QPointF p(rect.left() - 3.0, rect.top() + random.bounded(double(rect.height())));
        const double swing = trial % 4 == 0 ? 90.0 : 30.0;
        for (int k = 0; k < 3000 && p.x() < rect.right() + 3.0; ++k) {
            const double dx = k % 97 < 80 ? random.bounded(0.08) : random.bounded(3.0);
            const double dy = k % 97 < 80 ? random.bounded(2.0 * swing) - swing : random.bounded(6.0) - 3.0;
            const QPointF q(p.x() + dx, std::clamp(p.y() + dy, rect.top() - 20.0, rect.bottom() + 20.0));
            cells.segment(p, q);
            addPoints(expected, p, q, QRectF(rect).adjusted(-1.0, -1.0, 1.0, 1.0));
            p = q;
        }
        cells.finish();
        for (int y = rect.top() - 1; y <= rect.bottom() + 1; ++y)
            for (int x = rect.left() - 1; x <= rect.right() + 1; ++x) {
                const bool inside = x >= rect.left() && x <= rect.left() + rect.width() && y >= rect.top()
                    && y <= rect.top() + rect.height();
                QCOMPARE(cells.meets(QRectF(x + 0.25, y + 0.25, 0.5, 0.5)), inside && expected.count({x, y}) > 0);
            }
    }
}

POSENC_TEST_MAIN(TestDirectLabelCells)
} // namespace tst_directlabelcells
#include "tst_directlabelcells.moc"
