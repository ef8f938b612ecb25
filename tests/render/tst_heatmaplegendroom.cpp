// A heatmap's key of its marks and its colour bar stand where the figure's room put them for the
// layout it fitted (FigureRoom: the bar across beside the key in a strip that takes the key's cell,
// the key in its plot's corner) until the room is undone; a grid set in between (a draft filled on
// the room kept, FigureView::fillFigure) leaves them there, shows the key's entries of the new grid
// or none, and Qt says nothing. Before: the panel put its key back in its cell under the heatmap,
// which the strip held, and Qt wrote "QCPLayoutGrid::addElement: There is already an element in the
// specified row/column: 1 0" on standard error (the GUI monkey, after a family's page changed).
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "render/HeatmapPanel.h"
#include "render/SwatchLegend.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_heatmaplegendroom {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QStringList g_messages;

void keepMessage(QtMsgType, const QMessageLogContext &, const QString &text)
{
    g_messages.append(text);
}

// An 8 x 8 grid of one value; `dropped` marks one cell the mask zeroed, which the key names.
HeatmapGrid gridOf(bool dropped)
{
    HeatmapGrid grid;
    grid.block = {0, 8, 0, 8};
    grid.rows = 8;
    grid.cols = 8;
    grid.values.assign(64, 0.25f);
    grid.minValue = grid.maxValue = 0.25;
    if (dropped) {
        grid.marks.assign(64, CellMark::None);
        grid.marks[9] = CellMark::Dropped;
    }
    return grid;
}

HeatmapStyle styleOf(bool categorical)
{
    HeatmapStyle style;
    style.colorbarLabel = u"Y"_s;
    if (categorical) {
        style.dataRange = {0.0, 1.0};
        style.categories = {{0.0, u"dropped"_s}, {1.0, u"kept"_s}};
    }
    return style;
}

// The key that names the dropped cells, wherever it stands.
QCPLegend *marksKey(QCustomPlot &plot)
{
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(element))
            for (int i = 0; i < legend->itemCount(); ++i)
                if (SwatchLegend::label(legend->item(i)) == u"dropped (no value)"_s)
                    return legend;
    return nullptr;
}

// The key's entries' labels.
QStringList labelsOf(const QCPLegend *legend)
{
    QStringList labels;
    for (int i = 0; legend && i < legend->itemCount(); ++i)
        if (legend->item(i))
            labels.append(SwatchLegend::label(legend->item(i)));
    return labels;
}

struct Page
{
    QCustomPlot plot;
    std::unique_ptr<HeatmapPanel> panel;
    QCPLegend *key = nullptr;

    Page()
    {
        plot.setViewport(QRect(0, 0, 400, 300));
        plot.resize(400, 300);
        plot.plotLayout()->clear();
        panel = std::make_unique<HeatmapPanel>(&plot, plot.plotLayout(), 0, 0);
        panel->setGrid(gridOf(true), styleOf(false));
        panel->showBlock(gridOf(true).block);
        plot.replot();
        key = marksKey(plot);
    }
};

} // namespace

class TestHeatmapLegendRoom : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        g_messages.clear();
        qInstallMessageHandler(keepMessage);
    }
    void cleanup() { qInstallMessageHandler(nullptr); }

    void aGridSetBesideTheBarLeavesTheKeyInItsStrip();
    void aGridSetWithTheKeyInItsPlotLeavesItThere();
    void aGridOfNoMarksHidesTheKeyTheRoomHolds();
    void theCategoriesReplaceTheBarTheStripHolds();
};

void TestHeatmapLegendRoom::aGridSetBesideTheBarLeavesTheKeyInItsStrip()
{
    Page page;
    QVERIFY(page.key);
    QCPLayout *cell = page.key->layout();
    QVERIFY(FigureRoom::Changes::of(&page.plot).barBeside(page.panel->colorScale(), page.key));
    page.plot.replot();
    QVERIFY(page.key->layout() != cell);
    // A draft of the grid, filled on the room kept.
    page.panel->setGrid(gridOf(true), styleOf(false));
    page.plot.replot();
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    QVERIFY(page.key->layout() != cell);
    QVERIFY(page.key->realVisibility());
    QCOMPARE(labelsOf(page.key), QStringList {u"dropped (no value)"_s});
    // Undone, the key and the bar are back in their cells, and a grid set then keeps them there.
    FigureRoom::restore(&page.plot);
    page.panel->setGrid(gridOf(true), styleOf(false));
    page.plot.replot();
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    QCOMPARE(page.key->layout(), cell);
    QCOMPARE(page.panel->colorScale()->layout(), cell);
    QVERIFY(page.key->realVisibility() && page.panel->colorScale()->realVisibility());
}

void TestHeatmapLegendRoom::aGridSetWithTheKeyInItsPlotLeavesItThere()
{
    Page page;
    QVERIFY(page.key);
    QCPLayout *cell = page.key->layout();
    FigureRoom::Changes::of(&page.plot).moveInside(page.key, page.panel->axisRect(), Qt::AlignTop | Qt::AlignRight, 1);
    page.plot.replot();
    page.panel->setGrid(gridOf(true), styleOf(false));
    page.plot.replot();
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    QCOMPARE(page.key->layout(), static_cast<QCPLayout *>(page.panel->axisRect()->insetLayout()));
    FigureRoom::restore(&page.plot);
    page.plot.replot();
    QCOMPARE(page.key->layout(), cell);
    QVERIFY(g_messages.isEmpty());
}

// The key the room holds, its grid's marks gone, is drawn no more, there or in its cell once the
// room is undone, where it takes no room: the heatmap is as tall as one that never had marks.
void TestHeatmapLegendRoom::aGridOfNoMarksHidesTheKeyTheRoomHolds()
{
    Page page;
    QVERIFY(page.key);
    QVERIFY(FigureRoom::Changes::of(&page.plot).barBeside(page.panel->colorScale(), page.key));
    page.plot.replot();
    page.panel->setGrid(gridOf(false), styleOf(false));
    page.plot.replot();
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    QVERIFY(!page.key->realVisibility());
    FigureRoom::restore(&page.plot);
    page.plot.replot();
    QVERIFY(!page.key->realVisibility());
    QVERIFY(labelsOf(page.key).isEmpty());
    // The next grid of no marks takes it out of its cell; one with marks shows it again.
    page.panel->setGrid(gridOf(false), styleOf(false));
    page.plot.replot();
    QCustomPlot unmarked;
    unmarked.setViewport(page.plot.viewport());
    unmarked.resize(page.plot.size());
    unmarked.plotLayout()->clear();
    HeatmapPanel alone(&unmarked, unmarked.plotLayout(), 0, 0);
    alone.setGrid(gridOf(false), styleOf(false));
    alone.showBlock(gridOf(false).block);
    unmarked.replot();
    QCOMPARE(page.panel->axisRect()->rect(), alone.axisRect()->rect());
    page.panel->setGrid(gridOf(true), styleOf(false));
    page.plot.replot();
    QVERIFY(page.key->realVisibility());
    QCOMPARE(labelsOf(page.key), QStringList {u"dropped (no value)"_s});
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
}

// The mask's grid, kept and dropped, named by a key of its categories where the bar stood: the bar
// is taken from the strip the room laid it in, and comes back beside the heatmap after.
void TestHeatmapLegendRoom::theCategoriesReplaceTheBarTheStripHolds()
{
    Page page;
    QVERIFY(page.key);
    QCPLayout *cell = page.key->layout();
    QVERIFY(FigureRoom::Changes::of(&page.plot).barBeside(page.panel->colorScale(), page.key));
    page.plot.replot();
    page.panel->setGrid(gridOf(true), styleOf(true));
    page.plot.replot();
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    QVERIFY(!page.panel->colorScale()->realVisibility());
    FigureRoom::restore(&page.plot);
    page.panel->setGrid(gridOf(true), styleOf(false));
    page.plot.replot();
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    QCOMPARE(page.panel->colorScale()->layout(), cell);
    QVERIFY(page.panel->colorScale()->realVisibility());
}

POSENC_TEST_MAIN(TestHeatmapLegendRoom)
} // namespace tst_heatmaplegendroom
#include "tst_heatmaplegendroom.moc"
