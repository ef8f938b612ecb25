// A curve's segments marked in a plot's cells (DirectLabels::Cells::segment) as the points along it
// every half unit fall: a level or upright segment (a band's columns, a rule) and one within a
// cell (a dense curve's) marked as runs, not point by point, mark the same cells.
#include "render/DirectLabelCells.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <set>

using namespace posenc;

class TestDirectLabelCells : public QObject
{
    Q_OBJECT

private slots:
    void segmentsMarkTheCellsOfTheirPoints();
};

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

QTEST_MAIN(TestDirectLabelCells)
#include "tst_directlabelcells.moc"
