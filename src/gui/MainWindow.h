#pragma once

#include "core/Params.h"
#include "render/data/FigureState.h"

#include <QMainWindow>

class QLabel;
class QSettings;

namespace posenc {

class ControlPanel;
class Dashboard;
class EmbeddingsController;
class ExportController;
class FigureView;
class LessonController;
class MatrixLoader;
class ParameterDock;
class SessionController;
class UndoHistory;
class WindowMenus;

// Wires the parts together: controls -> parameters -> views, hover -> status bar and linked
// cursor, settings on open and close. It computes and plots nothing itself.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // The figures of the dashboard's views for an encoding family: what the window opens on, and
    // what a view that cannot show its figure for a newly chosen family takes instead.
    static QList<std::pair<QString, FigureState>> defaultFigures(Encoding encoding = Encoding {});
    // The size the window opens at where the screen has room for it.
    static constexpr QSize kDefaultSize {1500, 950};
    // Where the window opens on a screen whose available geometry (without task bars, in
    // device-independent pixels, so at 2x a 1920 x 1080 screen gives 960 x 540) is `available`:
    // kDefaultSize, or as much of the screen as it leaves, centred.
    static QRect initialGeometry(const QRect &available);
    // `geometry` no larger than `available` leaves beside a window frame's title bar and borders,
    // moved onto it: a window remembered from a larger screen, or grown by its contents.
    static QRect withinScreen(const QRect &geometry, const QRect &available);
    // On a screen too small for the views' arrangement beside the parameters (1920 x 1080 at 2x
    // leaves 960 x 540), fewer views: the grid's stack in one column, then one view alone, so that
    // nothing overflows the screen. A larger screen keeps the arrangement as it is.
    void fitArrangementTo(const QSize &available);
    // The window kept within its screen: the arrangement fitted to it, then the window no larger
    // than the screen leaves and moved onto it. At the start and whenever a family brings its own
    // views and rows; a window of a given size (setSizeGiven) keeps that size.
    void fitToScreen();
    // A size given on the command line (--size, a screenshot's): kept whatever the screen, and
    // not remembered as the user's when the window closes.
    void setSizeGiven(bool given) { m_sizeGiven = given; }
    // A message in the status bar for `milliseconds` (0: until the next). Under a screenshot
    // (setMessagesStay) every message stays until the next: the picture is taken when the figures
    // are drawn, however long they take, and shows what the window said as it opened.
    void showStatus(const QString &text, int milliseconds);
    void setMessagesStay(bool stay) { m_messagesStay = stay; }

    // `settings` (may be null) is read for the geometry and the docks' layout, and written on close.
    MainWindow(const Params &params, QSettings *settings, QWidget *parent = nullptr);

    ControlPanel *controlPanel() const { return m_controls; }
    // The Parameters dock, which folds to a strip.
    ParameterDock *parameterDock() const { return m_parameterDock; }
    Dashboard *dashboard() const { return m_dashboard; }
    SessionController *sessions() const { return m_sessions; }
    LessonController *lessons() const { return m_lessons; }
    EmbeddingsController *embeddings() const { return m_embeddings; }
    ExportController *exports() const { return m_exports; }
    UndoHistory *history() const { return m_history; }
    MatrixLoader *matrixLoader() const { return m_loader; }
    // The menus: File > Check a table… and File > Open model config… open their dialogs there.
    WindowMenus *menus() const { return m_menus; }
    // The loaded matrix's statistics beside the PE's closed forms (empty without a matrix).
    QString matrixNote() const;
    // The dashboard's views.
    QList<FigureView *> views() const;
    // The first dashboard view showing the figure `name`, if any.
    FigureView *viewOf(const QString &name) const;
    // Every view drew the current parameters (at least their preview).
    bool isUpToDate() const;
    // Every view drew the current parameters in full detail, and a lesson's panel shows its text
    // for them.
    bool isSettled() const;
    // A session or a matrix given to the window (posenc FILE): WindowMenus::openFile. Files
    // dropped on the window are opened so too.
    void openFile(const QString &path, bool mayAsk = true);

signals:
    // A view drew a result; isUpToDate() tells whether all of them are current.
    void viewDrawn();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // Hands the change to `params` to every view, worked out once (ParamsChange); views that
    // cannot show their figure for a newly chosen family take the family's.
    void applyParams(const Params &params);
    void clearReadout();
    void restoreLayout();
    void connectView(FigureView *view);
    void embeddingsChanged();
    // A session was opened from or saved to its file: the title names it, unchanged since.
    void sessionFileChanged();
    // A problem the user must see: a dialog that does not block the event loop.
    void showProblem(const QString &title, const QString &text);

    QSettings *m_settings;
    ControlPanel *m_controls;
    ParameterDock *m_parameterDock;
    Dashboard *m_dashboard;
    Params m_params; // what the views show
    QLabel *m_readout;
    QLabel *m_matrixNote;
    MatrixLoader *m_loader;
    EmbeddingsController *m_embeddings;
    SessionController *m_sessions;
    ExportController *m_exports;
    LessonController *m_lessons;
    UndoHistory *m_history;
    WindowMenus *m_menus = nullptr;
    bool m_sizeGiven = false;
    bool m_messagesStay = false;
    bool m_settingsProblemSaid = false; // a failed save of the settings, said once
};

} // namespace posenc
