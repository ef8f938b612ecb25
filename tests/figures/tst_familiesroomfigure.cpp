// The families figure on little room (docs/ARCHITECTURE.md, Exporting: the families figure
// chooses its panels for its room, FigureRoom gives up the others): the panel kept holds the
// offset axis's numbers and label, on a page and in a view of the window of a few hundred pixels.
#include "render/FigureBuild.h"

#include "FamiliesFigureSums.h"
#include "support/FigureBuilds.h"

#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace posenc;

using namespace FamiliesFigureTest;

class TestFamiliesRoomFigure : public QObject
{
    Q_OBJECT

private slots:
    void theLastPanelKeptHoldsTheOffsetAxis_data();
    void theLastPanelKeptHoldsTheOffsetAxis();
};

void TestFamiliesRoomFigure::theLastPanelKeptHoldsTheOffsetAxis_data()
{
    QTest::addColumn<QSizeF>("cm"); // a page at 300 dpi, or where empty a view of the window:
    QTest::addColumn<QSize>("pixels");
    QTest::newRow("6 x 4 cm") << QSizeF(6.0, 4.0) << QSize();
    QTest::newRow("column, 8.5 x 6 cm") << QSizeF(8.5, 6.0) << QSize();
    QTest::newRow("double, 17.5 x 9 cm") << QSizeF(17.5, 9.0) << QSize();
    QTest::newRow("a quarter of a 1366 x 768 window, 420 x 320 px") << QSizeF() << QSize(420, 320);
    QTest::newRow("400 x 300 px") << QSizeF() << QSize(400, 300);
}

// At 6 x 4 cm the one panel the others give way to, and in a quarter of the window the one the room's
// steps kept, were drawn without the offset axis's tick labels and label: they were the bottom
// panel's, which had gone. The lowest panel drawn of each column holds them, whatever the page.
void TestFamiliesRoomFigure::theLastPanelKeptHoldsTheOffsetAxis()
{
    QFETCH(QSizeF, cm);
    QFETCH(QSize, pixels);
    const FigureSize size = cm.isEmpty() ? FigureSize::fromPixels(pixels) : FigureSize::fromInches(cm / 2.54, 300.0);
    const auto built = FigureBuilds::build(u"families"_s, settings(1024), size, {}, FigureStyle());
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*built->plot());
    QVERIFY(!rects.isEmpty());
    for (const QCPAxisRect *rect : rects) {
        const bool lowest = std::none_of(rects.cbegin(), rects.cend(), [&](const QCPAxisRect *other) {
            return other->left() == rect->left() && other->top() > rect->top();
        });
        const QCPAxis *axis = rect->axis(QCPAxis::atBottom);
        QVERIFY2(!lowest || (axis->tickLabels() && !axis->label().isEmpty()),
                 qPrintable(u"%1: the offset axis unlabelled"_s.arg(rect->axis(QCPAxis::atLeft)->label())));
    }
}

QTEST_MAIN(TestFamiliesRoomFigure)
#include "tst_familiesroomfigure.moc"
