#include "gui/ControlPanel.h"
#include "gui/Dashboard.h"
#include "gui/MainWindow.h"
#include "gui/ParameterDock.h"
#include "render/Colormaps.h"
#include "support/TestMain.h"

#include "render/data/buckets/BucketsModel.h"
#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include "../core/Reference.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

namespace tst_mainwindow {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;
using namespace WindowFixture;

namespace {

// Every heatmap cell against float64 sin / cos, when each cell is shown one to one.
QString heatmapMismatch(const FigureView &view, const Params &p)
{
    const HeatmapGrid *grid = WindowViews::grid(&view);
    if (!grid)
        return u"no grid"_s;
    if (grid->rows != grid->block.rows || grid->cols != grid->block.cols)
        return u"grid %1 x %2 for block %3 x %4"_s.arg(grid->rows)
            .arg(grid->cols)
            .arg(grid->block.rows)
            .arg(grid->block.cols);
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < grid->cols; ++b) {
            const double exact = reference::exactValue(grid->block.row0 + a, grid->block.col0 + b, p.dModel,
                                                       p.sinusoidal.base, p.sinusoidal.layout);
            if (std::abs(grid->at(a, b) - exact) > 1e-6)
                return u"cell (%1, %2): %3 vs %4"_s.arg(a).arg(b).arg(grid->at(a, b)).arg(exact);
        }
    return {};
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void opensWithinTheScreen_data();
    void opensWithinTheScreen();
    void fitsALaptopScreen();
    void aSmallScreenShowsFewerViews_data();
    void aSmallScreenShowsFewerViews();
    void opensWithTheGivenParametersInFourVisibleViews();
    void dModelChangeReachesEveryViewsData();
    void eachControlReachesTheViews_data();
    void eachControlReachesTheViews();
    void invalidValueKeepsTheLastValidPlots();
    void hundredRapidSliderStepsEndOnTheLastValueWithNothingStaleDrawn();
    void eachResultIsPaintedOnce();
    void zoomRefinesTheHeatmapToTheVisibleCells();
    void wheelRubberBandAndHomeZoomTheHeatmap();
    void heatmapQuantityIsChosen();
    void heatmapColormapIsChosenWithoutRecomputing();
    void hoverShowsTheReadoutAndTheLinkedCursor();
    void aChangeLeavesTheStatusBarsLayoutAlone();
    void anyViewMaximisesAndRestores();
    void closingDuringAComputationExitsCleanly();
    void aFamilyOfRelativePositionsSwapsTheViews();
};

void TestMainWindow::opensWithinTheScreen_data()
{
    QTest::addColumn<QRect>("available");
    QTest::addColumn<QSize>("size");
    QTest::newRow("1920 x 1080, a task bar") << QRect(0, 0, 1920, 1040) << QSize(1500, 950);
    QTest::newRow("1366 x 768") << QRect(0, 0, 1366, 728) << QSize(1346, 688);
    QTest::newRow("1920 x 1080 at 2x") << QRect(0, 0, 960, 520) << QSize(940, 480);
    QTest::newRow("a second screen to the right") << QRect(1920, 0, 1280, 1024) << QSize(1260, 950);
}

void TestMainWindow::opensWithinTheScreen()
{
    QFETCH(QRect, available);
    QFETCH(QSize, size);
    const QRect geometry = MainWindow::initialGeometry(available);
    QCOMPARE(geometry.size(), size);
    QVERIFY(available.contains(geometry));
}

void TestMainWindow::aSmallScreenShowsFewerViews_data()
{
    QTest::addColumn<QSize>("available");
    QTest::addColumn<int>("views");
    QTest::newRow("1920 x 1080") << QSize(1920, 1040) << 4;
    QTest::newRow("1366 x 768") << QSize(1346, 728) << 4;
    QTest::newRow("1920 x 1080 at 2x") << QSize(940, 500) << 1;
}

// On a screen too small for four legible views beside the parameters, the window starts with
// fewer, and its least size fits the screen: at 2x on 1920 x 1080 a 2 x 2 grid overflowed it.
void TestMainWindow::aSmallScreenShowsFewerViews()
{
    QFETCH(QSize, available);
    QFETCH(int, views);
    MainWindow window(small(), nullptr);
    window.fitArrangementTo(available);
    QCOMPARE(Dashboard::viewCount(window.dashboard()->arrangement()), views);
    const QSize least = window.minimumSizeHint();
    QVERIFY2(least.width() <= available.width() && least.height() <= available.height(),
             qPrintable(u"needs %1 x %2"_s.arg(least.width()).arg(least.height())));
}

void TestMainWindow::fitsALaptopScreen()
{
    // At 1366 x 768 the window's own minimum fits, and the parameter panel shows every control
    // whole without a sideways scroll bar: "New seed" is not cut.
    MainWindow window(small(), nullptr);
    const QRect geometry = MainWindow::initialGeometry(QRect(0, 0, 1366, 728));
    window.setGeometry(geometry);
    QVERIFY(WindowFixture::shown(window));
    QVERIFY2(
        window.minimumSizeHint().width() <= geometry.width() && window.minimumSizeHint().height() <= geometry.height(),
        qPrintable(u"needs %1 x %2"_s.arg(window.minimumSizeHint().width()).arg(window.minimumSizeHint().height())));
    QTRY_COMPARE(window.size(), geometry.size());
    QCOMPARE(window.findChild<QDockWidget *>(u"parametersDock"_s), window.parameterDock());
    QScrollArea *scroll = window.parameterDock()->scrollArea();
    QVERIFY(!scroll->horizontalScrollBar()->isVisible());
    auto *seed = window.findChild<QPushButton *>(u"newSeedButton"_s);
    QVERIFY(seed);
    const QRect shown(seed->mapTo(scroll->viewport(), QPoint(0, 0)), seed->size());
    QVERIFY2(shown.right() < scroll->viewport()->width(),
             qPrintable(u"New seed ends at %1 of %2"_s.arg(shown.right()).arg(scroll->viewport()->width())));
    // A family with more rows and wider labels (RoPE's, by a preset) and a scroll bar beside
    // them: every field, its spin arrows and Load… are whole left of the scroll bar.
    ControlPanel *panel = window.controlPanel();
    const auto llama = std::find_if(panel->presets().begin(), panel->presets().end(),
                                    [](const Preset &p) { return p.params.value(u"encoding"_s) == u"rope"_s; });
    QVERIFY(llama != panel->presets().end());
    QVERIFY(panel->choosePreset(int(llama - panel->presets().begin())));
    QTRY_VERIFY(scroll->verticalScrollBar()->isVisible());
    QCoreApplication::processEvents();
    for (QWidget *field : panel->findChildren<QWidget *>()) {
        const bool input = qobject_cast<QAbstractSpinBox *>(field) || qobject_cast<QAbstractButton *>(field)
            || qobject_cast<QComboBox *>(field) || qobject_cast<QLineEdit *>(field);
        if (!input || !field->isVisibleTo(panel) || qobject_cast<QLineEdit *>(field->parentWidget()))
            continue;
        const int right = field->mapTo(scroll->viewport(), QPoint(field->width(), 0)).x();
        QVERIFY2(
            right <= scroll->viewport()->width(),
            qPrintable(u"%1 ends at %2 of %3"_s.arg(field->objectName()).arg(right).arg(scroll->viewport()->width())));
    }
}

void TestMainWindow::opensWithTheGivenParametersInFourVisibleViews()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    QCOMPARE(window.views().size(), 4);
    for (const FigureView *view : window.views()) {
        QVERIFY(view->isVisible());
        QVERIFY(view->params() == small());
    }
    QVERIFY(window.controlPanel()->params() == small());
    QVERIFY(data<DropoutData>(dropoutView(window)));
    QVERIFY(data<MagnitudesData>(magnitudesView(window)));
    QVERIFY(data<CurvesData>(curvesView(window)));
}

void TestMainWindow::dModelChangeReachesEveryViewsData()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    window.controlPanel()->findChild<QSpinBox *>(u"dModelSpin"_s)->setValue(24);
    QTRY_VERIFY(allSettled(window));
    Params expected = small();
    expected.dModel = 24;
    for (const FigureView *view : window.views())
        QVERIFY(view->params() == expected);
    const QString mismatch = heatmapMismatch(*heatmapView(window), expected);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    QCOMPARE(grid(heatmapView(window))->block, (Block {0, 60, 0, 24}));
    QCOMPARE(data<MagnitudesData>(magnitudesView(window))->columns.size(), 24);
    QCOMPARE(*data<MagnitudesData>(magnitudesView(window))->expectedPeNorm, std::sqrt(12.0));
    QCOMPARE(data<DropoutData>(dropoutView(window))->mask.block.cols, 24);
    QCOMPARE(data<CurvesData>(curvesView(window))->curves.back().column, 23);
}

void TestMainWindow::eachControlReachesTheViews_data()
{
    QTest::addColumn<QString>("control");
    QTest::addColumn<double>("value");
    QTest::newRow("max_len") << u"maxLenSpin"_s << 80.0;
    QTest::newRow("dropout p") << u"dropoutSpin"_s << 0.6;
    QTest::newRow("seed") << u"seedSpin"_s << 9.0;
    QTest::newRow("layout") << u"layoutCombo"_s << 1.0;
    QTest::newRow("scale") << u"scaleCombo"_s << 0.0;
}

void TestMainWindow::eachControlReachesTheViews()
{
    QFETCH(QString, control);
    QFETCH(double, value);
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    QSignalSpy dropoutShown(dropoutView(window), &FigureView::shown);
    QWidget *w = window.controlPanel()->findChild<QWidget *>(control);
    if (auto *spin = qobject_cast<QSpinBox *>(w))
        spin->setValue(int(value));
    else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(w))
        dspin->setValue(value);
    else if (auto *combo = qobject_cast<QComboBox *>(w))
        combo->setCurrentIndex(int(value));
    QTRY_VERIFY(allSettled(window));
    const Params now = window.controlPanel()->params();
    QVERIFY(!(now == small()));
    for (const FigureView *view : window.views())
        QVERIFY(view->params() == now);
    // The data follows: the PE heatmap matches the formula for the new parameters, and the
    // dropout view was recomputed.
    const QString mismatch = heatmapMismatch(*heatmapView(window), now);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    QVERIFY(dropoutShown.count() >= 1);
    QCOMPARE(data<DropoutData>(dropoutView(window))->params.dropout, now.dropout);
}

void TestMainWindow::invalidValueKeepsTheLastValidPlots()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    const HeatmapGrid *grid = WindowViews::grid(heatmapView(window));
    const quint64 serial = heatmapView(window)->paramsSerial();
    QList<QSignalSpy *> shown;
    for (FigureView *view : window.views())
        shown.append(new QSignalSpy(view, &FigureView::shown));
    const auto deleteSpies = qScopeGuard([&shown] { qDeleteAll(shown); });
    auto *base = window.controlPanel()->findChild<QLineEdit *>(u"baseEdit"_s);
    base->setText(u"0.5"_s);
    emit base->editingFinished();
    QVERIFY(window.controlPanel()->errorText(u"base"_s).contains(u"greater than 1"_s));
    auto *label = window.controlPanel()->findChild<QLabel *>(u"baseError"_s);
    QVERIFY(label->isVisible());
    QCoreApplication::processEvents();
    for (const FigureView *view : window.views())
        QVERIFY(view->params() == small());
    QCOMPARE(heatmapView(window)->paramsSerial(), serial);
    QCOMPARE(WindowViews::grid(heatmapView(window)), grid);
    for (const QSignalSpy *spy : shown)
        QCOMPARE(spy->count(), 0); // nothing was computed or drawn for the invalid value
    QVERIFY(allSettled(window));
}

void TestMainWindow::hundredRapidSliderStepsEndOnTheLastValueWithNothingStaleDrawn()
{
    Params p;
    p.dModel = 64;
    p.maxLen = 2048;
    MainWindow window(p, nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    // Every result shown must be computed for the view's current figure (the last change of
    // parameters that altered it), and a view must never go back to older parameters.
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
    for (int step = 1; step <= 100; ++step) {
        slider->setValue(64 + 3 * step);
        // Let some results arrive between steps, as they would while a user drags.
        if (step % 4 == 0)
            QCoreApplication::processEvents();
    }
    QTRY_VERIFY(allSettled(window));
    QVERIFY2(stale.isEmpty(), qPrintable(stale.join(u"\n"_s)));
    const std::int64_t last = 64 + 300;
    for (const FigureView *view : window.views()) {
        QCOMPARE(view->params().dModel, last);
        QCOMPARE(view->drawnSerial(), view->paramsSerial());
    }
    QCOMPARE(grid(heatmapView(window))->block.cols, last);
    QCOMPARE(data<MagnitudesData>(magnitudesView(window))->columns.size(), last);
    QCOMPARE(data<CurvesData>(curvesView(window))->curves.back().column, last - 1);
}

void TestMainWindow::eachResultIsPaintedOnce()
{
    // A change of parameters paints each view once per result it shows: not the old data in the
    // new view first, and not once more for each round of fitting its text to the room. A result
    // drawn as a draft while the controls moved (FigureView::setDraft) is painted once more in full
    // quality when they rest, and a settled view is never a draft.
    Params p;
    p.dModel = 256;
    p.maxLen = 4096;
    MainWindow window(p, nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    QList<QSignalSpy *> shown, painted;
    const auto deleteSpies = qScopeGuard([&] {
        qDeleteAll(shown);
        qDeleteAll(painted);
    });
    for (FigureView *view : window.views()) {
        shown.append(new QSignalSpy(view, &FigureView::shown));
        painted.append(new QSignalSpy(view->plot(), &QCustomPlot::afterReplot));
    }
    window.controlPanel()->findChild<QSpinBox *>(u"dModelSpin"_s)->setValue(200);
    QTRY_VERIFY(allSettled(window));
    for (qsizetype i = 0; i < shown.size(); ++i) {
        const QString name = window.views()[i]->figure().name();
        QVERIFY2(shown[i]->count() >= 1, qPrintable(name));
        QVERIFY2(
            painted[i]->count() <= shown[i]->count() + 1,
            qPrintable(u"%1: %2 paintings for %3 results"_s.arg(name).arg(painted[i]->count()).arg(shown[i]->count())));
        QCOMPARE(window.views()[i]->plot()->notAntialiasedElements(), QCP::AntialiasedElements(QCP::aeNone));
    }
}

void TestMainWindow::zoomRefinesTheHeatmapToTheVisibleCells()
{
    Params p;
    p.dModel = 256;
    p.maxLen = 4096;
    MainWindow window(p, nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    FigureView *view = heatmapView(window);
    QVERIFY(grid(view)->rows < 4096); // area averaged: more positions than pixels
    QCPAxisRect *rect = heatmapPanel(view).axisRect();
    rect->axis(QCPAxis::atBottom)->setRange(99.5, 119.5);
    rect->axis(QCPAxis::atLeft)->setRange(2999.5, 3029.5);
    QTRY_VERIFY(allSettled(window) && grid(view)->block == (Block {3000, 30, 100, 20}));
    const QString mismatch = heatmapMismatch(*view, p);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    // Home shows the whole table again.
    view->resetView();
    QTRY_VERIFY(allSettled(window) && grid(view)->block == (Block {0, 4096, 0, 256}));
}

void TestMainWindow::wheelRubberBandAndHomeZoomTheHeatmap()
{
    Params p;
    p.dModel = 256;
    p.maxLen = 4096;
    MainWindow window(p, nullptr);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTRY_VERIFY(allSettled(window));
    FigureView *view = heatmapView(window);
    QCPAxisRect *rect = heatmapPanel(view).axisRect();
    QCPAxis *x = rect->axis(QCPAxis::atBottom);
    QCPAxis *y = rect->axis(QCPAxis::atLeft);
    const QPoint centre = rect->center();

    // The wheel zooms in around the mouse.
    QWheelEvent wheel(centre, view->plot()->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view->plot(), &wheel);
    QVERIFY(x->range().size() < 256.0 && y->range().size() < 4096.0);
    QTRY_VERIFY(allSettled(window) && grid(view)->block.rows < 4096 && grid(view)->block.cols < 256);

    // Shift-drag draws a rubber band and zooms into it.
    const QPoint from = centre - QPoint(30, 20), to = centre + QPoint(30, 20);
    const double x0 = x->pixelToCoord(from.x()), x1 = x->pixelToCoord(to.x());
    const double y0 = y->pixelToCoord(from.y()), y1 = y->pixelToCoord(to.y());
    QTest::mousePress(view->plot(), Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(view->plot(), centre);
    QTest::mouseMove(view->plot(), to);
    QTest::mouseRelease(view->plot(), Qt::LeftButton, Qt::ShiftModifier, to);
    // Within two pixels of the band's edges.
    const double xPixel = std::abs(x1 - x0) / 60.0, yPixel = std::abs(y1 - y0) / 40.0;
    QVERIFY2(std::abs(x->range().lower - std::min(x0, x1)) < 2 * xPixel
                 && std::abs(x->range().upper - std::max(x0, x1)) < 2 * xPixel,
             qPrintable(u"x %1..%2, band %3..%4"_s.arg(x->range().lower).arg(x->range().upper).arg(x0).arg(x1)));
    QVERIFY2(std::abs(y->range().lower - std::min(y0, y1)) < 2 * yPixel
                 && std::abs(y->range().upper - std::max(y0, y1)) < 2 * yPixel,
             qPrintable(u"y %1..%2, band %3..%4"_s.arg(y->range().lower).arg(y->range().upper).arg(y0).arg(y1)));
    // The cells in view are computed at the resolution shown.
    const Block band = HeatmapResampler::visibleBlock({4096, 256}, x->range().lower, x->range().upper, y->range().lower,
                                                      y->range().upper);
    QTRY_VERIFY(allSettled(window) && grid(view)->block == band);

    // Home in the view shows the whole table again.
    view->plot()->setFocus();
    QTest::keyClick(view->plot(), Qt::Key_Home);
    QTRY_VERIFY(allSettled(window) && grid(view)->block == (Block {0, 4096, 0, 256}));
}

void TestMainWindow::heatmapQuantityIsChosen()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    heatmapView(window)->setOption(u"quantity"_s, u"mask"_s);
    QTRY_VERIFY(allSettled(window) && grid(heatmapView(window))->quantity == Quantity::Mask);
    int dropped = 0;
    for (const float v : grid(heatmapView(window))->values) {
        QVERIFY(v == 0.0f || v == 1.0f);
        dropped += v == 0.0f;
    }
    QVERIFY(dropped > 0); // p = 0.1 over 2,400 cells
    // The chooser names X as the parameters form it: s·E alone without a position term, the
    // concatenation in concat.
    // Found anew each time: a family switch may give the view its figure again, with new controls.
    const auto labelOfX = [&window] {
        const auto *box = heatmapView(window)->findChild<QComboBox *>(u"quantityBox"_s);
        return box ? box->itemText(box->findData(u"input"_s)) : QString();
    };
    QCOMPARE(labelOfX(), u"X = s·E + PE"_s);
    Params none = small();
    none.encoding = Encoding::None;
    window.controlPanel()->applyParams(none);
    QTRY_COMPARE(labelOfX(), u"X = s·E"_s);
    Params concat = small();
    concat.compose = Compose::Concat;
    window.controlPanel()->applyParams(concat);
    QTRY_COMPARE(labelOfX(), u"X = [s·E | PE]"_s);
}

void TestMainWindow::heatmapColormapIsChosenWithoutRecomputing()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    FigureView *view = heatmapView(window);
    QVERIFY(heatmapPanel(view).colorScale()->gradient() == Colormaps::gradient(Colormap::Diverging));
    const HeatmapGrid *grid = WindowViews::grid(view);
    QSignalSpy shown(view, &FigureView::shown);
    auto *box = view->findChild<QComboBox *>(u"colormapBox"_s);
    box->setCurrentIndex(box->findText(u"viridis"_s));
    QVERIFY(heatmapPanel(view).colorScale()->gradient() == Colormaps::gradient(Colormap::Viridis));
    QCOMPARE(WindowViews::grid(view), grid);
    QCoreApplication::processEvents();
    QCOMPARE(shown.count(), 0); // recoloured, not recomputed
    // PE keeps its fixed range [-1, 1] whatever the map.
    QCOMPARE(heatmapPanel(view).colorScale()->dataRange(), QCPRange(-1.0, 1.0));
}

void TestMainWindow::hoverShowsTheReadoutAndTheLinkedCursor()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    FigureView *heatmap = heatmapView(window);
    QCPAxisRect *rect = heatmapPanel(heatmap).axisRect();
    const QPoint at(int(rect->axis(QCPAxis::atBottom)->coordToPixel(7.0)),
                    int(rect->axis(QCPAxis::atLeft)->coordToPixel(21.0)));
    QTest::mouseMove(heatmap->plot(), at);
    auto *readout = window.findChild<QLabel *>(u"hoverReadout"_s);
    QTRY_VERIFY(!readout->text().isEmpty());
    const QString text = readout->text();
    for (const QString &part : {u"position 21"_s, u"column 7"_s, u"pair 3 (cos)"_s, u"w = "_s, u"λ = "_s, u"PE = "_s})
        QVERIFY2(text.contains(part), qPrintable(text));
    const double exact = reference::exactValue(21, 7, 40, 10000.0, Layout::Interleaved);
    QVERIFY2(text.contains(u"PE = %1"_s.arg(double(float(exact)), 0, 'g', 6)), qPrintable(text));
    // The other views mark position 21.
    for (FigureView *view : {curvesView(window), magnitudesView(window), dropoutView(window)}) {
        bool marked = false;
        for (int i = 0; i < view->plot()->itemCount(); ++i) {
            auto *line = qobject_cast<QCPItemStraightLine *>(view->plot()->item(i));
            marked = marked
                || (line && line->visible()
                    && (line->point1->coords().x() == 21.0 || line->point1->coords().y() == 21.0));
        }
        QVERIFY2(marked, qPrintable(view->figure().name()));
    }
    // A change of parameters clears the readout: its values were of the old ones.
    Params changed = small();
    changed.seed += 1;
    window.controlPanel()->applyParams(changed);
    QTRY_VERIFY(readout->text().isEmpty());
}

// An empty readout cleared again laid the status bar out, and the whole window after it, at every
// change of parameters (QLabel::clear relays out even a label that shows nothing).
void TestMainWindow::aChangeLeavesTheStatusBarsLayoutAlone()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    struct LayoutRequests : QObject
    {
        int count = 0;
        bool eventFilter(QObject *, QEvent *event) override
        {
            count += event->type() == QEvent::LayoutRequest ? 1 : 0;
            return false;
        }
    } requests;
    window.statusBar()->installEventFilter(&requests);
    Params changed = small();
    changed.seed += 1;
    window.controlPanel()->applyParams(changed);
    QTRY_VERIFY(allSettled(window));
    QCOMPARE(requests.count, 0);
}

void TestMainWindow::anyViewMaximisesAndRestores()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    for (FigureView *view : window.views()) {
        view->findChild<QToolButton *>(u"maximizeButton"_s)->click();
        for (const FigureView *other : window.views())
            QCOMPARE(other->isVisible(), other == view);
        QTRY_VERIFY(view->width() > window.dashboard()->width() * 0.9);
        view->findChild<QToolButton *>(u"maximizeButton"_s)->click();
        for (const FigureView *other : window.views())
            QVERIFY(other->isVisible());
    }
}

void TestMainWindow::closingDuringAComputationExitsCleanly()
{
    Params p;
    p.dModel = 2048;
    p.maxLen = 1 << 20; // seconds of full-detail work per view
    QPointer<MainWindow> window = new MainWindow(p, nullptr);
    window->setAttribute(Qt::WA_DeleteOnClose);
    QVERIFY(WindowFixture::shown(*window));
    QTRY_VERIFY(!heatmapView(*window)->scheduler()->isIdle());
    QVERIFY(window->close());
    QTRY_VERIFY(window.isNull());
}

// ALiBi, T5 and DeBERTa open on their own views, and a change of family swaps the views that do not
// apply to it for its own, as for rope: the families figure, which applies to every family, stays.
void TestMainWindow::aFamilyOfRelativePositionsSwapsTheViews()
{
    const auto figures = [](const MainWindow &window) {
        QStringList names;
        for (const FigureView *view : window.views())
            names.append(view->figure().name());
        return names;
    };
    Params alibi = small();
    alibi.encoding = Encoding::Alibi;
    alibi.alibi.heads = 12;
    MainWindow window(alibi, nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY(allSettled(window));
    QCOMPARE(figures(window), (QStringList {u"alibi-bias"_s, u"alibi-attention"_s, u"alibi-slopes"_s, u"families"_s}));
    for (const FigureView *view : window.views()) {
        QVERIFY2(view->problems().isEmpty(), qPrintable(view->figure().name()));
        QVERIFY(view->data());
    }
    const FigureView *families = window.views().back();
    // T5: the ALiBi views take T5's figures at their places; families applies and stays.
    Params t5 = small();
    t5.encoding = Encoding::T5;
    window.controlPanel()->applyParams(t5);
    QTRY_VERIFY(allSettled(window) && figures(window).front() == u"buckets"_s);
    QCOMPARE(figures(window), (QStringList {u"buckets"_s, u"families"_s, u"heatmap"_s, u"families"_s}));
    QCOMPARE(window.views().back(), families);
    QTRY_VERIFY(data<BucketsData>(window.viewOf(u"buckets"_s))
                && data<BucketsData>(window.viewOf(u"buckets"_s))->family == Encoding::T5);
    // DeBERTa: the buckets view applies and draws DeBERTa's map now.
    Params deberta = small();
    deberta.encoding = Encoding::Deberta;
    window.controlPanel()->applyParams(deberta);
    QTRY_VERIFY(allSettled(window) && data<BucketsData>(window.viewOf(u"buckets"_s))
                && data<BucketsData>(window.viewOf(u"buckets"_s))->family == Encoding::Deberta);
    QCOMPARE(figures(window).front(), u"buckets"_s);
    // Back to the sinusoid: ALiBi's and the buckets' views give way, the families figure stays.
    window.controlPanel()->applyParams(small());
    QTRY_VERIFY(allSettled(window) && figures(window).front() == u"heatmap"_s);
    QVERIFY(figures(window).contains(u"families"_s));
    QVERIFY(!figures(window).contains(u"buckets"_s));
}

POSENC_TEST_MAIN(TestMainWindow)
} // namespace tst_mainwindow
#include "tst_mainwindow.moc"
