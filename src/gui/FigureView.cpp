#include "FigureView.h"

#include "FigureJob.h"
#include "FigureOptionBar.h"
#include "FigureTurns.h"
#include "ParamLabels.h"
#include "SteadyRoom.h"

#include "render/FigureBuild.h"
#include "render/FigureRegistry.h"
#include "render/FigureRoom.h"
#include "render/KeptPanels.h"
#include "render/MapOptions.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/SqueezedLayout.h"

#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPointer>
#include <QShortcut>
#include <QVBoxLayout>

#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A view's preview takes every core, as its full pass does (FigureJob): the pools' threads are kept
// and share the job's lowered priority (ThreadPools), so the GUI thread still comes first. On one
// thread the sinusoid's heatmap preview (L 8192, d 1024: its edges' closed forms) took 8 ms while
// the other views' took under 1 ms, and a change's p95 (`posenc bench --views sinusoidal`, two runs
// each) was 13.8-14.3 ms; on every core 10.6-10.9 ms.
constexpr int kJobThreads = 0;

constexpr QSize kMinimumPlotSize(120, 90); // room enough for QCustomPlot to paint into, whatever the view's share

} // namespace

FigureView::FigureView(const FigureDescriptor &figure, bool chooser, QWidget *parent)
    : QWidget(parent)
    , m_figure(&figure)
    , m_bar(new FigureOptionBar(chooser, this))
    , m_plot(new SqueezablePlot(this))
    , m_message(new QLabel(m_plot))
    , m_layout(m_plot)
    , m_cursor(m_plot)
    , m_scheduler(new ComputeScheduler(this))
    , m_engine(std::make_shared<const Engine>(Params {}))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addWidget(m_bar);
    // The plot's room is the view's share of the dashboard, whatever its figure: QCustomPlot's size hints
    // follow its axis rects' least sizes, so a figure that refits itself to its room would otherwise
    // resize every view, and refit, round after round. Nor are they passed on (SteadyRoom).
    m_plot->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_room = new SteadyRoom(m_plot, this);
    m_room->setMinimumSize(kMinimumPlotSize);
    layout->addWidget(m_room, 1);
    connect(m_bar, &FigureOptionBar::maximizeRequested, this, &FigureView::maximizeRequested);
    connect(m_bar, &FigureOptionBar::optionEdited, this, [this](const QString &key, const QString &text) {
        optionEdited(key, text);
        emit stateEdited();
    });
    connect(m_bar, &FigureOptionBar::figureChosen, this, [this](const QString &name) {
        if (const FigureDescriptor *chosen = FigureRegistry::find(name); chosen && chosen != m_figure) {
            setFigure(*chosen);
            emit stateEdited();
        }
    });

    m_message->setObjectName(u"figureMessage"_s);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setAutoFillBackground(true);
    m_message->setMargin(24);
    m_message->hide();

    // A click or Tab gives the plot the focus that Copy figure (Ctrl+C) and the plot's keys act
    // on, shown by a thin frame.
    m_plot->setFocusPolicy(Qt::StrongFocus);
    m_plot->installEventFilter(this);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        m_plot->setFocus(Qt::MouseFocusReason);
        emit contextMenuRequested(m_plot->mapToGlobal(pos));
    });
    m_plot->setMouseTracking(true);
    // Its overlay holds only a Shift-drag's rubber band: a buffer of its own is cleared and composed for nothing.
    m_plot->layer(u"overlay"_s)->setMode(QCPLayer::lmLogical);

    m_requestTimer.setSingleShot(true);
    m_requestTimer.setInterval(0);
    connect(&m_requestTimer, &QTimer::timeout, this, &FigureView::submitNow);
    m_finishTimer.setSingleShot(true);
    m_finishTimer.setInterval(int(FigureJob::kRestBeforeRefining.count()));
    connect(&m_finishTimer, &QTimer::timeout, this, &FigureView::finishDraft);
    connect(m_plot, &QCustomPlot::mouseMove, this, &FigureView::mouseMoved);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *event) {
        // Shift-drag draws a rubber band to zoom into; a plain drag pans.
        m_plot->setSelectionRectMode(event->modifiers() & Qt::ShiftModifier ? QCP::srmZoom : QCP::srmNone);
    });
    connect(m_plot, &QCustomPlot::afterReplot, this, &FigureView::afterReplot);
    auto *home = new QShortcut(QKeySequence(Qt::Key_Home), this);
    home->setContext(Qt::WidgetWithChildrenShortcut);
    home->setWhatsThis(tr("Show the whole figure again (the view with the focus)"));
    connect(home, &QShortcut::activated, this, &FigureView::resetView);
    build();
}

FigureView::~FigureView()
{
    FigureTurns::drop(this);
}

QString FigureView::screenNote() const
{
    return m_bar->note();
}

QPixmap FigureView::shownPixels() const
{
    return m_plot->shownPixels();
}

void FigureView::build()
{
    m_data.reset();
    m_prepared.reset();
    m_fullPanels.clear();
    m_roomFitted = m_roomKept = false;
    setDraft(false);
    m_figurePlot = m_figure->build(m_plot);
    KeptPanels::keep(m_plot, m_keptPanels);
    FigureBuild::setLeastSizes(*m_plot, *m_figurePlot);
    MeasuredText::measureTickLabels(m_plot);
    m_plot->setAccessibleName(tr("%1 plot").arg(m_figure->model().title()));
    m_keyCursor.reset();
    m_plot->setInteractions(m_figurePlot->isInteractive() ? QCP::iRangeDrag | QCP::iRangeZoom : QCP::Interactions());
    m_cursor.attach(m_figurePlot->positionAxes());
    for (const ViewAxis &axis : m_figurePlot->viewAxes())
        connect(axis.axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &FigureView::rangeChanged);
    m_bar->setFigure(*m_figure, m_state, params());
    m_bar->setNote(QString());
    m_problems = FigureRegistry::check(*m_figure, params(), m_state);
    m_compact = PlotStyle::isCompact(m_plot->size());
    m_figurePlot->setCompact(m_compact);
    showView();
    m_layout.restart();
}

void FigureView::setFigure(const FigureDescriptor &figure, const FigureState &state)
{
    if (m_figure != &figure)
        m_keptPanels.clear();
    m_figure = &figure;
    m_state = state;
    build();
}

void FigureView::setKeptPanels(const QStringList &panels)
{
    if (panels == m_keptPanels)
        return;
    m_keptPanels = panels;
    // The figure's own marks first (setDispensable), then the kept panels' over them: built again.
    build();
}

void FigureView::setState(const FigureState &state)
{
    m_state = state;
    m_bar->showState(m_state, params());
    m_problems = FigureRegistry::check(*m_figure, params(), m_state);
    showView();
}

// The figure's default view with the state's ranges over it, and the axes' ranges in the state:
// it keeps what is shown. `redraw`: the data on screen is drawn at once in the new ranges (a
// zoom, Home); otherwise it waits for data computed for them.
void FigureView::showView(bool redraw)
{
    m_layout.invalidate();
    m_applyingRanges = true;
    m_figurePlot->showDefaultView(params(), m_state);
    for (const ViewAxis &axis : m_figurePlot->viewAxes()) {
        if (const auto range = m_state.range(axis.key))
            axis.axis->setRange(range->lower, range->upper);
        const QCPRange shown = axis.axis->range();
        m_state.view.insert(axis.key, {shown.lower, shown.upper});
    }
    m_applyingRanges = false;
    if (redraw)
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    requestCompute();
}

void FigureView::rangeChanged()
{
    if (m_applyingRanges)
        return;
    m_layout.invalidate(); // other tick labels
    for (const ViewAxis &axis : m_figurePlot->viewAxes()) {
        const QCPRange shown = axis.axis->range();
        m_state.view.insert(axis.key, {shown.lower, shown.upper});
    }
    requestCompute();
}

bool FigureView::setOption(const QString &key, const QString &text)
{
    optionEdited(key, text);
    m_bar->showState(m_state, params());
    return m_state.option(key) == text || (text.isEmpty() && !m_state.options.contains(key));
}

void FigureView::optionEdited(const QString &key, const QString &text)
{
    FigureState next = m_state;
    if (text.isEmpty())
        next.options.remove(key);
    else
        next.options.insert(key, text);
    for (const ParamError &problem : FigureRegistry::check(*m_figure, params(), next)) {
        if (problem.key == key) {
            m_bar->markOption(key, ParamLabels::text(problem));
            return;
        }
    }
    m_bar->markOption(key, QString());
    m_state = next;
    m_roomFitted = false; // an option may show other panels and texts
    m_layout.invalidate();
    const auto option = m_figure->model().option(key);
    if (option && option->redrawsOnly && m_data) {
        // Drawn again from the data on screen: nothing to compute.
        fillFigure();
        MapOptions::apply(m_plot, m_figure->model(), m_state);
        fitToRoom(m_shownDetail.value_or(Detail::Full));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    m_problems = FigureRegistry::check(*m_figure, params(), m_state);
    if (option && option->resetsView)
        m_state.view.clear();
    showView();
}

void FigureView::setParams(const Params &params)
{
    setParams(ParamsChange::between(m_engine->params(), std::make_shared<const Engine>(params)));
}

void FigureView::setParams(const ParamsChange &change)
{
    const Params before = m_engine->params();
    const bool wasCurrent = m_drawnSerial == m_paramsSerial && !m_awaitingReplot;
    m_engine = change.engine;
    const Params &params = m_engine->params();
    ++m_paramsSerial;
    const QList<ParamError> problemsBefore = m_problems;
    m_problems = FigureRegistry::check(*m_figure, params, m_state);
    m_bar->showState(m_state, params);
    // The tables shown at these parameters, and their keys: a change of neither leaves the data as it is.
    const FigureModel::Reading was = m_figure->model().readingAt(m_state, before),
                               now = m_figure->model().readingAt(m_state, params);
    if (m_problems == problemsBefore && was.tables == now.tables && !change.touches(now.keys)) {
        // What is drawn, or on its way, is already the figure of these parameters.
        if (wasCurrent) {
            m_drawnSerial = m_paramsSerial;
            emit drawn(m_drawnSerial, m_drawnDetail.value_or(Detail::Full));
        }
        return;
    }
    m_figureSerial = m_paramsSerial;
    m_sinceChange.start();
    m_layout.restart();
    // A table of another size is shown whole again, drawn when its data comes: the data on
    // screen is of other parameters.
    if (!(Quantities::shape(Quantity::Input, before) == m_engine->shape(Quantity::Input))) {
        m_state.view.clear();
        showView(false);
    }
    requestCompute();
}

bool FigureView::isSettled() const
{
    return m_drawnSerial == m_paramsSerial && m_drawnDetail == Detail::Full && !m_awaitingReplot && !m_draft
        && !m_requestTimer.isActive() && m_scheduler->isIdle() && !FigureTurns::isQueued(this);
}

void FigureView::resetView()
{
    m_state.view.clear();
    showView();
}

std::optional<TableRequest> FigureView::tableRequest() const
{
    if (!m_problems.isEmpty())
        return std::nullopt;
    return m_figure->model().table(params(), m_state);
}

void FigureView::requestCompute(FigureJob::Start start)
{
    // What is computing, on its way or waiting for its turn to be shown (FigureTurns) is stale from
    // now on: it is cancelled and, should it still arrive, dropped; the new request follows on the
    // next turn of the event loop. It skips the preview only if every request it joins does.
    m_scheduler->cancelAll();
    FigureTurns::drop(this);
    // An input (parameters, a zoom, a resize) asks with a preview; a request made again for the
    // axes a full result's fitting moved keeps the input's moment, its rest long over.
    if (start == FigureJob::Start::WithPreview)
        m_inputAt = FigureJob::Clock::now();
    const bool joining = m_requestTimer.isActive();
    m_start = !joining || m_start == start ? start : FigureJob::Start::WithPreview;
    if (!joining)
        m_requestTimer.start();
}

void FigureView::submitNow()
{
    if (!m_problems.isEmpty()) {
        showProblems();
        return;
    }
    m_message->hide();
    // The layout follows the size as the exporter's does (a paper column shortens legends). The
    // figure rearranges its own panels and legends: what its room gave up (FigureRoom: a legend
    // moved into a panel's corner, entries taken out) is undone first, or the figure would take a
    // legend out of a row it is no longer in and leave it drawn where the fitting put it.
    if (const bool compact = PlotStyle::isCompact(m_plot->size()); compact != m_compact) {
        FigureRoom::restore(m_plot);
        m_roomFitted = false;
        m_compact = compact;
        m_figurePlot->setCompact(compact);
    }
    // The request must see the pixels the plot has now (after a resize or a maximise), not
    // those of the last replot. Only a filling is fitted to the room (as in an export): ticks
    // thinned for a passing size would stay thinned. A figure whose size, texts and ranges are those
    // it was last settled with (a change of parameters alone) is laid out as it is: the data is
    // asked for its axis rects without laying them out again.
    if (!m_layout.isCurrent())
        m_layout.layOut();
    m_layout.computingFor();
    FigureRequest request;
    request.engine = m_engine;
    request.state = m_state;
    request.panels = m_figurePlot->panels(m_plot->devicePixelRatioF());
    // A preview's text ("preview (12% of rows)") may take a line more than the full result's will:
    // the full data is asked for the panels' sizes of the last full result, which its text most
    // often restores, rather than computed for the preview's and then again (fitToRoom). The preview
    // is made for the panels it is drawn in, as they are (FigureJob::make).
    const QList<PanelExtent> laidOut = request.panels;
    m_requestGuessed = false;
    if (m_shownDetail != Detail::Full && m_fullPanels.size() == request.panels.size()) {
        for (qsizetype i = 0; i < request.panels.size(); ++i) {
            m_requestGuessed |= request.panels[i].size != m_fullPanels[i].size;
            request.panels[i].size = m_fullPanels[i].size;
        }
    }
    m_requestPanels = request.panels;
    request.threads = kJobThreads;
    m_scheduler->submit(FigureJob::make(
        m_figure->model(), std::move(request),
        [self = QPointer(this), serial = m_figureSerial](const FigureResult &result, Detail detail,
                                                         const std::shared_ptr<const PreparedDrawing> &prepared) {
            // Shown on a turn of its own (FigureTurns): the views' results that come together.
            if (self)
                FigureTurns::queue(self, [self, result, serial, detail, prepared] {
                    self->showResult(result, serial, detail, prepared);
                });
        },
        m_start,
        // Descriptors are the registry's, alive as long as the program.
        [figure = m_figure](const auto &data, const auto &asked) { return figure->prepare(data, asked); }, m_inputAt,
        m_requestGuessed ? laidOut : QList<PanelExtent>()));
}

// After a filling, the figure is fitted to its room as an export of this size is, painted once
// at the end; when that moved its axes, the data is computed again for them (FigureLayoutLoop),
// without a preview of what is shown already. Not for a preview (or a coarse pass): the full data
// on its way was asked for the layout the request saw, which the full result's text most often
// restores (a preview's title says "preview"), and a refit for the preview's axes computed the full
// data twice, doubling the time the view took to be exact.
void FigureView::fitToRoom(Detail detail)
{
    const bool moved = m_layout.refitAfterFilling();
    m_roomFitted = true;
    if (detail != Detail::Full) {
        if (moved)
            m_layout.restart(); // the refits a full result may need are left to it
        return;
    }
    // Axes moved in a way the figure's data does not read (a line figure's panel taller or lower)
    // need no new data either; panels guessed from the last full result (submitNow) that were not
    // what the full text laid out are computed again.
    const FigureModel &model = m_figure->model();
    const QList<PanelExtent> now = m_figurePlot->panels(m_plot->devicePixelRatioF());
    const bool stale = model.extentsRead(now) != model.extentsRead(m_requestPanels);
    if (stale && (moved || m_requestGuessed)) {
        requestCompute(FigureJob::Start::FullOnly);
        return;
    }
    if (moved)
        m_layout.restart();
    if (!stale)
        m_fullPanels = now;
}

// A figure fills itself for the size it has (a tight figure puts its legends into its panels): what
// the room gave up at another size, or before an option changed, is undone first (as for a change
// of compactness in showView), or the figure would take a legend out of a row the fitting had moved
// it from. Room fitted at this size is kept: a draft while the controls move lays it out once.
void FigureView::fillFigure()
{
    if (!m_roomFitted)
        FigureRoom::restore(m_plot);
    m_figurePlot->setPrepared(m_prepared);
    m_figurePlot->fill(m_data, m_state);
    KeptPanels::keep(m_plot, m_keptPanels); // the filling may mark its panels anew
    // Its axes, those the filling made among them, measure each tick label once.
    MeasuredText::measureTickLabels(m_plot);
}

void FigureView::showResult(const FigureResult &result, quint64 figureSerial, Detail detail,
                            const std::shared_ptr<const PreparedDrawing> &prepared)
{
    if (!result.data) {
        m_message->setText(tr("Nothing is drawn: %1").arg(result.refusal.value_or(QString())));
        m_message->setGeometry(m_plot->rect());
        m_message->show();
        markDrawnWithoutData();
        return;
    }
    m_data = result.data;
    m_prepared = prepared;
    m_layout.invalidate(); // the filling's texts
    fillFigure();
    MapOptions::apply(m_plot, m_figure->model(), m_state);
    m_bar->setNote(m_figurePlot->screenNote());
    const bool draft = detail != Detail::Full
        || (m_sinceChange.isValid() && m_sinceChange.elapsed() < FigureJob::kRestBeforeRefining.count());
    // A draft while the controls move keeps what the last fitting gave up for room, laid out once:
    // the ladder's layouts were a third of each change's time. It is fitted in full at rest.
    m_roomKept = draft && m_roomFitted;
    if (m_roomKept) {
        m_layout.refitKeepingRoom();
    } else {
        const bool requested = m_requestTimer.isActive();
        fitToRoom(detail);
        // Its fitting moved the axes its data was computed for, and the data for them is on its way
        // (fitToRoom): drawing this result would cost a full-quality replot that the next one
        // replaces at once, as at rest (finishDraft). What is on screen stays until then; the data
        // is asked for the axes as they are now, not for the last full result's (submitNow).
        if (detail == Detail::Full && !requested && m_requestTimer.isActive()) {
            m_fullPanels.clear();
            return;
        }
    }
    m_shownSerial = m_paramsSerial;
    m_shownFigureSerial = figureSerial;
    m_shownDetail = detail;
    emit shown(figureSerial, detail);
    m_awaitingReplot = true;
    setDraft(draft);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FigureView::showProblems()
{
    m_bar->setNote(QString());
    QStringList lines;
    for (const ParamError &problem : m_problems)
        lines.append(ParamLabels::text(problem));
    m_message->setText(lines.join(u'\n'));
    m_message->setGeometry(m_plot->rect());
    m_message->show();
    markDrawnWithoutData();
}

// Nothing to draw is what the view shows for these parameters: it is up to date.
void FigureView::markDrawnWithoutData()
{
    setDraft(false);
    m_shownSerial = m_paramsSerial;
    m_shownFigureSerial = m_figureSerial;
    m_drawnSerial = m_paramsSerial;
    m_shownDetail = m_drawnDetail = Detail::Full;
    m_awaitingReplot = false;
    emit drawn(m_drawnSerial, Detail::Full);
}

// While parameters change, a result is drawn as a draft: its lines and fills without antialiasing,
// as QCustomPlot draws a plot being dragged (PlotStyle::preparePlot), their strokes most of each
// change's time; its markers stay stamped (StampedGraph stamps antialiased ones only). A preview
// always is one. Once the controls have rested, full data drawn as a draft is drawn again in full
// quality; the view is settled only then (isSettled), so a screenshot never holds a draft.
void FigureView::setDraft(bool draft)
{
    m_draft = draft;
    QCP::AntialiasedElements aliased = QCP::aeAll;
    aliased &= ~QCP::AntialiasedElements(QCP::aeScatters);
    m_plot->setNotAntialiasedElements(draft ? aliased : QCP::AntialiasedElements(QCP::aeNone));
    if (draft)
        m_finishTimer.start();
}

void FigureView::finishDraft()
{
    if (!m_draft)
        return;
    const qint64 rest = FigureJob::kRestBeforeRefining.count();
    if (m_sinceChange.isValid() && m_sinceChange.elapsed() < rest) {
        m_finishTimer.start(int(rest - m_sinceChange.elapsed()) + 1);
        return;
    }
    // A preview stays a draft: the full data on its way replaces it.
    if (m_shownDetail != Detail::Full)
        return;
    setDraft(false);
    // Fitted to its room as an export of its size is; where that moved its axes the data is computed
    // again for them, and drawn when it comes.
    if (std::exchange(m_roomKept, false)) {
        fitToRoom(Detail::Full);
        if (m_requestTimer.isActive())
            return;
    }
    // Drawn now, not queued: a view is settled once its draft is gone (isSettled), and a grab of the
    // window between this and a queued replot would show the draft's buffer (a screenshot's).
    m_plot->replot();
}

void FigureView::afterReplot()
{
    if (!m_awaitingReplot)
        return;
    m_awaitingReplot = false;
    // Changes since the result was shown that leave the figure alone are drawn too.
    m_drawnSerial = m_shownFigureSerial == m_figureSerial ? m_paramsSerial : m_shownSerial;
    m_drawnDetail = m_shownDetail;
    emit drawn(m_drawnSerial, *m_drawnDetail);
}

void FigureView::setCursorPosition(std::optional<std::int64_t> position)
{
    m_cursor.place(position);
}

void FigureView::mouseMoved(QMouseEvent *event)
{
    if (auto point = m_figurePlot->hoverAt(event->position(), *m_engine))
        emit hovered(*point);
    else
        emit hoverLeft();
}

void FigureView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_layout.invalidate();
    m_fullPanels.clear();
    m_roomFitted = false;
    m_layout.restart();
    requestCompute();
}

void FigureView::paintEvent(QPaintEvent *event)
{
    QWidget::paintEvent(event);
    if (!m_plot->hasFocus())
        return;
    // Drawn in the layout's margin around the plot, so that the figure's pixels stay its own.
    QPainter painter(this);
    QColor color = palette().color(QPalette::Highlight);
    color.setAlpha(160);
    painter.setPen(QPen(color, 1.0));
    painter.drawRect(m_room->geometry().adjusted(-1, -1, 0, 0));
}

} // namespace posenc
