#pragma once

#include "core/Params.h"

#include <QMainWindow>

class QLabel;
class QSettings;

namespace posenc {

class ControlPanel;
class CurvesView;
class Dashboard;
class DropoutView;
class HeatmapView;
class MagnitudesView;
class PlotView;

// Wires the parts together: controls -> parameters -> views, hover -> status bar and linked
// cursor, settings on open and close. It computes and plots nothing itself.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // `settings` (may be null) is read for the geometry and written on close.
    MainWindow(const Params &params, QSettings *settings, QWidget *parent = nullptr);

    ControlPanel *controlPanel() const { return m_controls; }
    Dashboard *dashboard() const { return m_dashboard; }
    HeatmapView *heatmapView() const { return m_heatmap; }
    CurvesView *curvesView() const { return m_curves; }
    MagnitudesView *magnitudesView() const { return m_magnitudes; }
    DropoutView *dropoutView() const { return m_dropout; }
    QList<PlotView *> views() const;
    // Every view drew the current parameters (at least their preview).
    bool isUpToDate() const;

signals:
    // A view drew a result; isUpToDate() tells whether all of them are current.
    void viewDrawn();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void applyParams(const Params &params);
    void createMenus();

    QSettings *m_settings;
    ControlPanel *m_controls;
    HeatmapView *m_heatmap;
    CurvesView *m_curves;
    MagnitudesView *m_magnitudes;
    DropoutView *m_dropout;
    Dashboard *m_dashboard;
    QLabel *m_readout;
};

} // namespace posenc
