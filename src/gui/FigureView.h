#pragma once

#include "ComputeScheduler.h"
#include "FigureJob.h"
#include "LinkedCursor.h"
#include "ParamsChange.h"

#include "core/Engine.h"
#include "render/FigureDescriptor.h"
#include "render/FigureLayoutLoop.h"
#include "render/SqueezedLayout.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>

class QKeyEvent;
class QLabel;

namespace posenc {

class FigureOptionBar;
class SteadyRoom;

// A view of the window: hosts any figure through its descriptor (docs/ARCHITECTURE.md, "One
// descriptor per figure"). A title bar with the figure's options, a QCustomPlot the descriptor builds and
// fills, and a compute scheduler of its own, so one view zooming never cancels another's work.
//
// The figure's state (options and the axes' ranges) is a value kept here: the axes report
// every zoom into it. Changes of parameters, options or visible region are coalesced into one
// request per turn of the event loop, computed off the GUI thread as a quick preview then in
// full (Detail), the latest request winning; a change of a parameter none of the figure's
// inputs reads leaves it as drawn. A result is shown on a turn of the event loop of its own
// (FigureTurns), not with other views' results. Redraws are queued replots.
class FigureView : public QWidget
{
    Q_OBJECT

public:
    // `chooser`: the title bar offers every figure (the dashboard's views), or names this one.
    FigureView(const FigureDescriptor &figure, bool chooser = true, QWidget *parent = nullptr);
    ~FigureView() override;

    const FigureDescriptor &figure() const { return *m_figure; }
    // Shows another figure, in `state` (its defaults and default view when empty).
    void setFigure(const FigureDescriptor &figure, const FigureState &state = {});
    // The figure's state as shown.
    const FigureState &state() const { return m_state; }
    // Shows `state`: its options and its ranges (the default view for those it lacks).
    void setState(const FigureState &state);
    // Sets one option as its control does; false (and the control marked) when the figure refuses it.
    bool setOption(const QString &key, const QString &text);
    // The panels a lesson's text refers to (Lesson::keptPanels), which the room steps give up last,
    // as on the lesson's slide (FigureStyle::keptPanels); none outside a lesson, nor for another
    // figure shown in the view.
    void setKeptPanels(const QStringList &panels);
    const QStringList &keptPanels() const { return m_keptPanels; }

    // The parameters of `change`, whose engine the views share; the figure is computed again only
    // when a changed key is read by its inputs.
    void setParams(const ParamsChange &change);
    // The same, for a view on its own.
    void setParams(const Params &params);
    const Params &params() const { return m_engine->params(); }
    std::shared_ptr<const Engine> engine() const { return m_engine; }
    QString title() const { return m_figure->model().title(); }
    // What the view says of the screen's pixels beside the figure (FigurePlot::screenNote).
    QString screenNote() const;
    QCustomPlot *plot() const { return m_plot; }
    // What the plot shows, from its paint buffers (SqueezablePlot::shownPixels): Copy figure's.
    QPixmap shownPixels() const;
    FigurePlot *figurePlot() const { return m_figurePlot.get(); }
    // The data drawn now, if any.
    const std::shared_ptr<const FigureData> &data() const { return m_data; }
    // What keeps the figure from being drawn for the current parameters (shown in its place).
    const QList<ParamError> &problems() const { return m_problems; }
    ComputeScheduler *scheduler() const { return m_scheduler; }

    // Every setParams() gets a serial; drawnSerial() == paramsSerial() means the view is up to date.
    quint64 paramsSerial() const { return m_paramsSerial; }
    quint64 drawnSerial() const { return m_drawnSerial; }
    // The paramsSerial of the last change that altered this view's figure.
    quint64 figureSerial() const { return m_figureSerial; }
    std::optional<Detail> drawnDetail() const { return m_drawnDetail; }
    // Drawn in full detail for the current parameters and view, with nothing left to do.
    bool isSettled() const;

    // Marks `position` in this view (the linked cursor), or clears the mark.
    void setCursorPosition(std::optional<std::int64_t> position);
    // Shows the figure's default view again (Home).
    void resetView();
    // The table behind what this view shows now (Export data).
    std::optional<TableRequest> tableRequest() const;

signals:
    void hovered(const posenc::HoverPoint &point);
    void hoverLeft();
    void maximizeRequested();
    // The figure was filled with a result computed for `figureSerial` (always the current one).
    void shown(quint64 figureSerial, posenc::Detail detail);
    // The plot was repainted with a result for the parameters of `serial`.
    void drawn(quint64 serial, posenc::Detail detail);
    // The plot took the keyboard focus (a click): the view the figure actions act on.
    void plotFocused();
    // A context menu was asked for over the plot, at `globalPos`.
    void contextMenuRequested(const QPoint &globalPos);
    // The user chose another figure or option in the view's bar (Edit > Undo takes it back).
    void stateEdited();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void build();
    void showView(bool redraw = true);
    void requestCompute(FigureJob::Start start = FigureJob::Start::WithPreview);
    void submitNow();
    void fitToRoom(Detail detail);
    void fillFigure();
    void showResult(const FigureResult &result, quint64 figureSerial, Detail detail,
                    const std::shared_ptr<const PreparedDrawing> &prepared);
    void showProblems();
    void markDrawnWithoutData();
    void afterReplot();
    void setDraft(bool draft);
    void finishDraft();
    void optionEdited(const QString &key, const QString &text);
    void rangeChanged();
    void mouseMoved(QMouseEvent *event);
    // The plot's keys: arrows pan, + and - zoom, 0 resets, Shift with the arrows moves the
    // keyboard cursor over the cells. True when the key was one of them.
    bool keyPressed(const QKeyEvent &event);
    void moveKeyboardCursor(int dx, int dy);

    const FigureDescriptor *m_figure;
    FigureState m_state;
    QStringList m_keptPanels;
    FigureOptionBar *m_bar;
    SqueezablePlot *m_plot;
    SteadyRoom *m_room; // the plot's room in the layout, which it fills
    QLabel *m_message; // over the plot: why there is no figure
    FigureLayoutLoop m_layout;
    std::unique_ptr<FigurePlot> m_figurePlot;
    bool m_compact = false; // what the figure was last made (FigurePlot::setCompact)
    LinkedCursor m_cursor;
    ComputeScheduler *m_scheduler;
    QTimer m_requestTimer;
    QTimer m_finishTimer; // draws a draft in full quality once the controls have rested
    QElapsedTimer m_sinceChange; // since the last change of parameters that altered the figure
    bool m_draft = false; // drawn as a draft (setDraft)
    // Fitted to its room (fitToRoom) since its figure was built, sized or given an option: a draft
    // may keep what that gave up (FigureLayoutLoop::refitKeepingRoom).
    bool m_roomFitted = false;
    bool m_roomKept = false; // the draft on screen kept its room: finishDraft fits it in full
    FigureJob::Start m_start = FigureJob::Start::WithPreview; // of the request on its way
    FigureJob::Clock::time_point m_inputAt; // of the last request with a preview: the input its rest counts from
    std::shared_ptr<const Engine> m_engine;
    std::shared_ptr<const FigureData> m_data;
    std::shared_ptr<const PreparedDrawing> m_prepared; // what the job's drawing made of m_data
    QList<PanelExtent> m_requestPanels; // of the request last submitted
    bool m_requestGuessed = false; // its sizes those of the last full result, not the plot's now
    QList<PanelExtent> m_fullPanels; // as the last full result was laid out, for this size and figure
    QList<ParamError> m_problems;
    bool m_applyingRanges = false;

    quint64 m_paramsSerial = 0;
    quint64 m_drawnSerial = 0;
    quint64 m_shownSerial = 0;
    quint64 m_figureSerial = 0; // paramsSerial of the last change that altered the figure
    quint64 m_shownFigureSerial = 0;
    std::optional<Detail> m_shownDetail;
    std::optional<Detail> m_drawnDetail;
    bool m_awaitingReplot = false;
    // Where Shift and the arrows put the cursor, in the plot's pixels; none before the first.
    std::optional<QPointF> m_keyCursor;
};

} // namespace posenc
