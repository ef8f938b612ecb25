// What a view draws on its way to being settled: a full result whose fitting moved the axes its
// data was computed for is computed again for them at once (FigureView::fitToRoom), and is not
// drawn in full quality first; each replot in full quality was a fifth of a settled change's time
// on the GUI thread, for pixels the next replot replaced (issue 62).
#include "gui/ControlPanel.h"
#include "gui/Dashboard.h"
#include "gui/FigureView.h"
#include "gui/MainWindow.h"
#include "io/Preset.h"
#include "render/FigureLayoutLoop.h"
#include "render/FigureRegistry.h"
#include "render/QCustomPlot.h"
#include "support/TestMain.h"

#include "render/FigureDefaults.h"

#include <QTest>

#include <algorithm>
#include <map>

namespace tst_figureviewdraws {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestFigureViewDraws : public QObject
{
    Q_OBJECT

private slots:
    void aFullResultIsDrawnForItsOwnAxes_data();
    void aFullResultIsDrawnForItsOwnAxes();
    void panelsMadeEvenComeToRest();
    void aChangeItsTableDoesNotReadIsNotDrawn();
    void aChangeLaysOutNothingAroundThePlots();
};

void TestFigureViewDraws::aFullResultIsDrawnForItsOwnAxes_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("size");
    // Every figure, at a dashboard's quarter and larger: many a full result's texts move the axes
    // from those its data was asked for (the magnitudes figure's), at every opening.
    for (const QString &name : FigureRegistry::names())
        for (const QSize size : {QSize(700, 440), QSize(900, 620)})
            QTest::addRow("%s %dx%d", qPrintable(name), size.width(), size.height()) << name << size;
}

// Opened at the figure's defaults, a view draws in full quality (antialiased, full detail) once:
// the result it settles with. A draft, or a preview, may come before it.
void TestFigureViewDraws::aFullResultIsDrawnForItsOwnAxes()
{
    QFETCH(QString, figure);
    QFETCH(QSize, size);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    FigureView view(*descriptor, false);
    int fullQuality = 0;
    connect(view.plot(), &QCustomPlot::afterReplot, this, [&] {
        if (view.drawnDetail() == Detail::Full && view.plot()->notAntialiasedElements() == QCP::aeNone)
            ++fullQuality;
    });
    view.setParams(FigureBuilds::defaultParams(*descriptor));
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitFor([&] { return view.isSettled(); }, 30000));
    QCOMPARE(fullQuality, 1);
}

// RoPE's rotation figure at Llama 3.1 8B's in a view of the window at 1500 x 950, moved as posenc
// bench moves it (rope_theta, then max_len): its panels side by side made even (EqualPanels) come
// to rest. Two layouts a unit apart each asked for the other's stretch factors, and every room
// step of a fitting went round FigureFit::kMaxRounds layouts without settling (issue 62: RoPE's
// change cost a fifth more on the GUI thread).
void TestFigureViewDraws::panelsMadeEvenComeToRest()
{
    const Preset *preset = Presets::find(u"llama-3-1-8b"_s);
    QVERIFY(preset);
    auto applied = preset->applyTo(Params());
    QVERIFY(std::holds_alternative<Params>(applied));
    Params params = std::get<Params>(std::move(applied));
    params.maxLen = 131072;
    FigureView view(*FigureRegistry::find(u"rope-rotation"_s), false);
    view.setParams(params);
    view.resize(480, 453);
    view.show();
    QVERIFY(QTest::qWaitFor([&] { return view.isSettled(); }, 60000));
    for (const auto &[theta, maxLen] : {std::pair {400000.0, 131072}, std::pair {400000.0, 131008}}) {
        params.rope.theta = theta;
        params.maxLen = maxLen;
        const quint64 layouts = FigureLayoutLoop::layouts(), fittings = FigureLayoutLoop::fittings();
        view.setParams(params);
        QVERIFY(QTest::qWaitFor([&] { return view.isSettled(); }, 60000));
        // One fitting here lays the figure out about twice a room step (26 and 27 times); going
        // round kMaxRounds at its steps took 56 and 57.
        const quint64 perFitting
            = (FigureLayoutLoop::layouts() - layouts) / std::max<quint64>(1, FigureLayoutLoop::fittings() - fittings);
        QVERIFY2(perFitting <= 40,
                 qPrintable(u"theta %1, L %2: %3 layouts a fitting"_s.arg(theta).arg(maxLen).arg(perFitting)));
    }
}

// A change of parameters that leaves a view's data as it was neither computes nor replots it: the
// sinusoid's heatmap reads the PE's keys alone (HeatmapModel::readingAt), not s, which its inputs
// for any parameters (X among them) read; a change of d_model draws it again. The view showing X
// recomputes for s.
void TestFigureViewDraws::aChangeItsTableDoesNotReadIsNotDrawn()
{
    Params params;
    params.dModel = 64;
    params.maxLen = 256;
    FigureView natural(*FigureRegistry::find(u"heatmap"_s), false), input(*FigureRegistry::find(u"heatmap"_s), false);
    QVERIFY(input.setOption(u"quantity"_s, u"input"_s));
    int naturalDrawn = 0, inputDrawn = 0;
    connect(natural.plot(), &QCustomPlot::afterReplot, this, [&] { ++naturalDrawn; });
    connect(input.plot(), &QCustomPlot::afterReplot, this, [&] { ++inputDrawn; });
    for (FigureView *view : {&natural, &input}) {
        view->setParams(params);
        view->resize(600, 400);
        view->show();
    }
    const auto settled = [&] { return natural.isSettled() && input.isSettled(); };
    QVERIFY(QTest::qWaitFor(settled, 30000));
    const quint64 serial = natural.drawnSerial();
    naturalDrawn = inputDrawn = 0;
    params.scaleKind = params.scaleKind == ScaleKind::Sqrt ? ScaleKind::One : ScaleKind::Sqrt;
    for (FigureView *view : {&natural, &input})
        view->setParams(params);
    QVERIFY(QTest::qWaitFor(settled, 30000));
    QCOMPARE(naturalDrawn, 0);
    QVERIFY(natural.drawnSerial() > serial); // drawn for the new parameters: what it shows is theirs
    QVERIFY(inputDrawn > 0);
    params.dModel = 72;
    natural.setParams(params);
    QVERIFY(QTest::qWaitFor(settled, 30000));
    QVERIFY(naturalDrawn > 0);
}

// The sinusoid's page of the window, changed through d_model, max_len and the scale: no widget around
// the plots is laid out again. A change moves the plots' axes and their labels, and with them the
// least sizes QCustomPlot gives its layout elements (AxisRoom::holdLabelWords, QCPColorScale::update),
// which it announces as the plot widget's size hints (QWidget::updateGeometry), and the heatmap's
// note of the screen takes a new text; the views' layouts read neither (the plot's room is the view's
// share of the dashboard, the note's width what its row leaves), yet each laid out the view, the
// dashboard and the main window with its docks again, several times a change (issue 62).
void TestFigureViewDraws::aChangeLaysOutNothingAroundThePlots()
{
    Params params;
    params.dModel = 256;
    params.maxLen = 2048;
    MainWindow window(params, nullptr);
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(QTest::qWaitFor([&] { return window.isSettled(); }, 60000));

    struct LayoutRequests : QObject
    {
        std::map<QString, int> counts; // by the widget's class and name
        bool eventFilter(QObject *watched, QEvent *event) override
        {
            if (event->type() == QEvent::LayoutRequest)
                ++counts[QString::fromLatin1(watched->metaObject()->className()) + u' ' + watched->objectName()];
            return false;
        }
    } requests;
    window.installEventFilter(&requests);
    window.dashboard()->installEventFilter(&requests);
    for (FigureView *view : window.views()) {
        view->setObjectName(view->figure().name());
        view->installEventFilter(&requests);
    }
    for (int i = 0; i < 3; ++i) {
        Params changed = params;
        changed.dModel = i == 0 ? 264 : params.dModel;
        changed.maxLen = i == 1 ? 1984 : params.maxLen;
        changed.scaleKind = i == 2 ? ScaleKind::One : params.scaleKind;
        window.controlPanel()->applyParams(changed);
        QVERIFY(QTest::qWaitFor([&] { return window.isSettled(); }, 60000));
        params = changed;
    }
    QStringList laidOut;
    for (const auto &[widget, count] : requests.counts)
        laidOut.append(u"%1 %2 times"_s.arg(widget).arg(count));
    QVERIFY2(laidOut.isEmpty(), qPrintable(laidOut.join(u", "_s)));
}

POSENC_TEST_MAIN(TestFigureViewDraws)
} // namespace tst_figureviewdraws
#include "tst_figureviewdraws.moc"
