// The window at a million positions (docs/ARCHITECTURE.md, "Exact at any size"): rapid changes
// end on the last parameters with nothing stale drawn, the final heatmap is exact and not
// aliased (the fast columns average to the colormap's zero over every pixel), and a preview is
// labelled as one.
#include "gui/ControlPanel.h"
#include "gui/MainWindow.h"
#include "support/TestMain.h"

#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include <QSignalSpy>
#include <QSlider>
#include <QTest>

namespace tst_scaleinteraction {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;

class TestScaleInteraction : public QObject
{
    Q_OBJECT

private slots:
    void rapidChangesAtAMillionPositionsEndExactAndCurrent();
    void aPreviewIsLabelledAsOne();
};

void TestScaleInteraction::rapidChangesAtAMillionPositionsEndExactAndCurrent()
{
    Params p;
    p.dModel = 256;
    p.maxLen = 1 << 20;
    MainWindow window(p, nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 300000);
    QStringList stale;
    QHash<const FigureView *, quint64> lastShown;
    for (FigureView *view : window.views()) {
        connect(view, &FigureView::shown, this, [&stale, &lastShown, view](quint64 serial, Detail) {
            if (serial != view->figureSerial() || serial < lastShown.value(view))
                stale << u"%1 showed %2 while at %3"_s.arg(view->figure().name()).arg(serial).arg(view->figureSerial());
            lastShown[view] = serial;
        });
    }
    auto *slider = window.controlPanel()->findChild<QSlider *>(u"dModelSlider"_s);
    for (int step = 1; step <= 30; ++step) {
        slider->setValue(256 + 2 * step);
        if (step % 3 == 0)
            QCoreApplication::processEvents();
    }
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 300000);
    QVERIFY2(stale.isEmpty(), qPrintable(stale.join(u"\n"_s)));
    for (const FigureView *view : window.views()) {
        QCOMPARE(view->params().dModel, 256 + 60);
        QCOMPARE(view->drawnSerial(), view->paramsSerial());
        QCOMPARE(view->drawnDetail(), std::optional(Detail::Full));
    }
    // The final PE heatmap: every position of the table, exact, and the fast columns (wavelength
    // under 40 positions, ~1000 positions a pixel row) white in every pixel row: nothing sampled,
    // nothing aliased.
    const HeatmapGrid *grid = WindowViews::grid(heatmapView(window));
    QVERIFY(grid);
    QCOMPARE(grid->block, (Block {0, 1 << 20, 0, 316}));
    QVERIFY(!grid->isPreview());
    QVERIFY(grid->rows < 1000);
    const int fast = static_cast<int>(80.0 * grid->cols / grid->block.cols); // columns 0..79
    double largest = 0.0;
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < fast; ++b)
            largest = std::max(largest, std::abs(double(grid->at(a, b))));
    QVERIFY2(largest < 0.01, qPrintable(QString::number(largest)));
}

void TestScaleInteraction::aPreviewIsLabelledAsOne()
{
    // X at a million positions: its random part is computed coarse to fine, and every grid
    // short of the last pass says it is a preview, with its share of rows, in the view's note
    // beside the figure (a title may be given up in a small view; the note never is).
    Params p;
    p.dModel = 64;
    p.maxLen = 1 << 20;
    MainWindow window(p, nullptr);
    QVERIFY(WindowFixture::shown(window));
    FigureView *heatmap = heatmapView(window);
    QStringList notes;
    connect(heatmap, &FigureView::shown, this, [&notes, heatmap](quint64, Detail detail) {
        const HeatmapGrid *g = WindowViews::grid(heatmap);
        if (g && g->quantity == Quantity::Input)
            notes << u"%1|%2|%3"_s.arg(g->isPreview()).arg(detail == Detail::Full).arg(heatmap->screenNote());
    });
    QVERIFY(heatmap->setOption(u"quantity"_s, u"input"_s));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 300000);
    QVERIFY(notes.size() >= 2);
    for (const QString &entry : notes) {
        const QStringList parts = entry.split(u'|');
        const bool preview = parts[0] == u"1"_s;
        QCOMPARE(parts[2].contains(u"preview ("_s) && parts[2].contains(u"% of rows)"_s), preview);
        if (preview)
            QVERIFY2(parts[1] == u"0"_s, qPrintable(entry)); // a preview is never the settled figure
    }
    QVERIFY(!WindowViews::grid(heatmap)->isPreview());
}

POSENC_TEST_MAIN(TestScaleInteraction)
} // namespace tst_scaleinteraction
#include "tst_scaleinteraction.moc"
