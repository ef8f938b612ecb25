#pragma once

#include "core/Params.h"

#include <QMainWindow>

class QLabel;
class QMenu;
class QTabWidget;
class QSettings;

namespace posenc {

class ControlPanel;
class CurvesView;
class Dashboard;
class DropoutView;
class HeatmapView;
class MagnitudesView;
class EmbeddingsController;
class ExportController;
class LearnedView;
class MatrixLoader;
class PlotView;
class SessionController;

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
    LearnedView *learnedView() const { return m_learned; }
    SessionController *sessions() const { return m_sessions; }
    EmbeddingsController *embeddings() const { return m_embeddings; }
    ExportController *exports() const { return m_exports; }
    QTabWidget *tabs() const { return m_tabs; }
    MatrixLoader *matrixLoader() const { return m_loader; }
    QList<PlotView *> views() const;
    // The dashboard's views and the learned-vs-sinusoidal view.
    QList<PlotView *> allViews() const;
    // Every view drew the current parameters (at least their preview).
    bool isUpToDate() const;
    // Every view, the learned one included, drew the current parameters in full detail.
    bool isSettled() const;

signals:
    // A view drew a result; isUpToDate() tells whether all of them are current.
    void viewDrawn();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void applyParams(const Params &params);
    void createMenus();
    void createSessionMenu(QMenu *file);
    void createEmbeddingsMenu(QMenu *file);
    void createExportActions(QMenu *file);
    // File > Load embeddings…: a file, then a matrix of it when it holds several.
    void chooseEmbeddings();
    void embeddingsChanged();
    // A problem the user must see: a dialog that does not block the event loop.
    void showProblem(const QString &title, const QString &text);

    QSettings *m_settings;
    ControlPanel *m_controls;
    HeatmapView *m_heatmap;
    CurvesView *m_curves;
    MagnitudesView *m_magnitudes;
    DropoutView *m_dropout;
    Dashboard *m_dashboard;
    LearnedView *m_learned;
    QTabWidget *m_tabs;
    QLabel *m_readout;
    MatrixLoader *m_loader;
    EmbeddingsController *m_embeddings;
    SessionController *m_sessions;
    ExportController *m_exports;
    QAction *m_positionTableAction = nullptr;
    QAction *m_randomAction = nullptr;
};

} // namespace posenc
