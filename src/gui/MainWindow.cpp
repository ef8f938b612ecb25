#include "MainWindow.h"

#include "ControlPanel.h"
#include "CurvesView.h"
#include "Dashboard.h"
#include "DropoutView.h"
#include "HeatmapView.h"
#include "MagnitudesView.h"
#include "Settings.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace posenc {

MainWindow::MainWindow(const Params &params, QSettings *settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_controls(new ControlPanel)
    , m_heatmap(new HeatmapView)
    , m_curves(new CurvesView)
    , m_magnitudes(new MagnitudesView)
    , m_dropout(new DropoutView)
    , m_dashboard(new Dashboard({m_heatmap, m_curves, m_magnitudes, m_dropout}))
    , m_readout(new QLabel)
{
    setWindowTitle(tr("PosEnc Explorer"));
    setCentralWidget(m_dashboard);
    auto *dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(u"parametersDock"_s);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    dock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    m_readout->setObjectName(u"hoverReadout"_s);
    statusBar()->addWidget(m_readout, 1);
    createMenus();

    connect(m_controls, &ControlPanel::paramsChanged, this, &MainWindow::applyParams);
    for (PlotView *view : views()) {
        connect(view, &PlotView::hovered, this, [this, view](const HoverPoint &point) {
            m_readout->setText(HoverReadout::format(view->params(), point));
            for (PlotView *other : views()) {
                if (other != view)
                    other->setCursorPosition(point.hasPosition ? std::optional(point.position) : std::nullopt);
            }
        });
        connect(view, &PlotView::hoverLeft, this, [this] {
            m_readout->clear();
            for (PlotView *other : views())
                other->setCursorPosition(std::nullopt);
        });
        connect(view, &PlotView::drawn, this, &MainWindow::viewDrawn);
    }
    m_controls->setParams(params);
    applyParams(params);
    resize(1500, 950);
    if (m_settings)
        restoreGeometry(Settings::loadGeometry(*m_settings));
}

QList<PlotView *> MainWindow::views() const
{
    return {m_heatmap, m_curves, m_magnitudes, m_dropout};
}

bool MainWindow::isUpToDate() const
{
    for (const PlotView *view : views()) {
        if (view->isVisibleTo(this) && view->drawnSerial() != view->paramsSerial())
            return false;
    }
    return true;
}

void MainWindow::applyParams(const Params &params)
{
    for (PlotView *view : views())
        view->setParams(params);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Reset all views"), QKeySequence(u"Ctrl+0"_s), this, [this] {
        for (PlotView *v : views())
            v->resetView();
    });
    const QStringList names = {tr("Heatmap"), tr("Curves"), tr("Magnitudes"), tr("Dropout")};
    for (int i = 0; i < 4; ++i) {
        view->addAction(tr("Maximise or restore %1").arg(names[i]), QKeySequence(u"Ctrl+%1"_s.arg(i + 1)), this,
                        [this, i] { m_dashboard->toggleMaximized(views()[i]); });
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_settings) {
        Settings::saveParams(*m_settings, m_controls->params());
        Settings::saveGeometry(*m_settings, saveGeometry());
        m_settings->sync();
    }
    // Nothing waits for a computation: each view's scheduler cancels its job when destroyed.
    for (PlotView *view : views())
        view->scheduler()->cancelAll();
    event->accept();
}

} // namespace posenc
