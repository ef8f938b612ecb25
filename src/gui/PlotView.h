#pragma once

#include "ComputeScheduler.h"
#include "HoverReadout.h"

#include "core/Engine.h"
#include "io/TableExport.h"
#include "render/data/Detail.h"
#include "render/FigureRenderer.h"
#include "render/QCustomPlot.h"

#include <QTimer>
#include <QWidget>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace posenc {

// A view of the dashboard: a title bar with the view's own options, a QCustomPlot filled by
// a figure builder of src/render, and a compute scheduler of its own, so one view zooming
// never cancels another's work.
//
// Changes of parameters or of the visible region are coalesced into one request per turn
// of the event loop; each request is computed as a quick preview then refined (Detail),
// and the latest request wins. Redraws are queued replots.
class PlotView : public QWidget
{
    Q_OBJECT

public:
    explicit PlotView(const QString &title, QWidget *parent = nullptr);

    void setParams(const Params &params);
    // The view's name, as its title bar shows it.
    QString title() const { return m_title; }
    const Params &params() const { return m_engine->params(); }
    // The engine of the current parameters, shared with the jobs that compute for it.
    std::shared_ptr<const Engine> engine() const { return m_engine; }
    QCustomPlot *plot() const { return m_plot; }
    ComputeScheduler *scheduler() const { return m_scheduler; }

    // Every setParams() gets a serial; drawnSerial() is the serial of the parameters the
    // plot last drew, so drawnSerial() == paramsSerial() means the view is up to date.
    quint64 paramsSerial() const { return m_paramsSerial; }
    quint64 drawnSerial() const { return m_drawnSerial; }
    // The paramsSerial of the last change that altered this view's figure: the serial a
    // job is computed for.
    quint64 figureSerial() const { return m_figureSerial; }
    std::optional<Detail> drawnDetail() const { return m_drawnDetail; }
    // Drawn in full detail for the current parameters and view, with nothing left to do.
    bool isSettled() const;

    // Marks `position` in this view (the linked cursor), or clears the mark.
    virtual void setCursorPosition(std::optional<std::int64_t> position) = 0;
    // Shows the whole table again (Home).
    virtual void resetView() = 0;
    // The figure this view shows now, for FigureRenderer to draw at any size; nothing for a
    // view the exporter has no figure of.
    virtual std::optional<FigureOptions> figureOptions() const { return std::nullopt; }
    // The table behind what this view shows now (Export data); nothing when the view has none
    // or shows no cell of it.
    virtual std::optional<TableRequest> tableRequest() const { return std::nullopt; }

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

protected:
    // Each view's job computes serially in its scheduler's thread: the four views already run
    // side by side, and a serial job stops within one tile when it is cancelled.
    static constexpr int kJobThreads = 1;
    // A job refines its preview only once the controls have rested this long: while a
    // slider moves, refinements would only take the processor from the next preview.
    static constexpr std::chrono::milliseconds kRestBeforeRefining {80};
    // Sleeps in the job's thread for `rest`; false as soon as the job is cancelled.
    static bool restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::milliseconds rest);
    // The body of a view's job: compute(detail) for a preview, then, once the controls rest, in
    // full (in full at once when `small`), each result handed to deliver(shared result, detail)
    // on the GUI thread. Stops when compute returns nothing (cancelled) or the job is cancelled.
    template<typename Compute, typename Deliver>
    static void previewThenFull(bool small, const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish,
                                Compute &&compute, Deliver deliver)
    {
        for (const Detail detail : {Detail::Preview, Detail::Full}) {
            if (detail == Detail::Preview && small)
                continue;
            if (detail == Detail::Full && !small && !restUnlessCancelled(cancel, kRestBeforeRefining))
                return;
            auto result = compute(detail);
            if (!result)
                return;
            auto shared = std::make_shared<const typename decltype(result)::value_type>(std::move(*result));
            publish([deliver, shared, detail] { deliver(shared, detail); });
        }
    }

    // The job for the current parameters and view, its inputs captured by value.
    virtual ComputeScheduler::Job makeJob() = 0;
    // Whether the figure for `after` differs from the one for `before`; when it does not, a
    // change of parameters leaves the view as drawn (no computing, no repaint).
    virtual bool figureDiffers(const Params &before, const Params &after) const { return !(before == after); }
    // The parameters changed; `shapeChanged` when the table's size did.
    virtual void paramsChanged(bool shapeChanged) { Q_UNUSED(shapeChanged); }
    // The hover point at a widget position, if the mouse is over data.
    virtual std::optional<HoverPoint> hoverAt(const QPointF &pixel) const = 0;

    void requestCompute();
    // Called by a job's result on the GUI thread, after the figure was filled with the
    // result computed for `figureSerial`.
    void resultShown(quint64 figureSerial, Detail detail);
    QHBoxLayout *toolBar() const { return m_toolBar; }
    // A horizontal or vertical line in `rect` on the cursor layer, hidden until placed.
    QCPItemStraightLine *addCursorLine(QCPAxisRect *rect);
    static void placeCursorLine(QCPItemStraightLine *line, std::optional<double> coordinate, bool horizontal);
    void replotCursor();
    // Pixels of the axis rect along the two axes, in device pixels.
    static QSize devicePixels(const QCPAxisRect *rect);
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void submitNow();
    // The rectangles of the plot's axis rects: what a request's pixel counts come from.
    QList<QRect> axisRectGeometry() const;
    void mouseMoved(QMouseEvent *event);
    void mousePressed(QMouseEvent *event);

    QString m_title;
    QCustomPlot *m_plot;
    ComputeScheduler *m_scheduler;
    QHBoxLayout *m_toolBar;
    QTimer m_requestTimer;
    std::shared_ptr<const Engine> m_engine;
    quint64 m_paramsSerial = 0;
    quint64 m_drawnSerial = 0;
    quint64 m_shownSerial = 0;
    quint64 m_figureSerial = 0; // paramsSerial of the last change that altered the figure
    quint64 m_shownFigureSerial = 0;
    std::optional<Detail> m_shownDetail;
    std::optional<Detail> m_drawnDetail;
    bool m_awaitingReplot = false;
    QList<QRect> m_requestedGeometry;
    static constexpr int kMaxGeometryRequests = 2;
    int m_geometryRequests = 0;
};

} // namespace posenc
