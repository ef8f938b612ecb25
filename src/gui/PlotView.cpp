#include "PlotView.h"

#include <QFocusEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

#include <thread>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {
const QString kCursorLayer = u"cursor"_s;
} // namespace

PlotView::PlotView(const QString &title, QWidget *parent)
    : QWidget(parent)
    , m_title(title)
    , m_plot(new QCustomPlot(this))
    , m_scheduler(new ComputeScheduler(this))
    , m_toolBar(new QHBoxLayout)
    , m_engine(std::make_shared<const Engine>(Params {}))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto *titleLabel = new QLabel(u"<b>%1</b>"_s.arg(title), this);
    m_toolBar->addWidget(titleLabel);
    m_toolBar->addStretch(1);
    auto *maximize = new QToolButton(this);
    maximize->setObjectName(u"maximizeButton"_s);
    maximize->setText(u"⤢"_s);
    maximize->setToolTip(tr("Maximise or restore this view (Ctrl+1 to Ctrl+4)"));
    maximize->setAutoRaise(true);
    m_toolBar->addWidget(maximize);
    layout->addLayout(m_toolBar);
    layout->addWidget(m_plot, 1);
    connect(maximize, &QToolButton::clicked, this, &PlotView::maximizeRequested);

    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // A click gives the plot the focus that Copy figure (Ctrl+C) acts on, shown by a thin frame.
    m_plot->setFocusPolicy(Qt::ClickFocus);
    m_plot->installEventFilter(this);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        m_plot->setFocus(Qt::MouseFocusReason);
        emit contextMenuRequested(m_plot->mapToGlobal(pos));
    });
    m_plot->setMouseTracking(true);
    // The linked cursor lives on a buffered layer of its own: moving it replots that layer only.
    m_plot->addLayer(kCursorLayer, m_plot->layer(u"main"_s), QCustomPlot::limAbove);
    m_plot->layer(kCursorLayer)->setMode(QCPLayer::lmBuffered);

    m_requestTimer.setSingleShot(true);
    m_requestTimer.setInterval(0);
    connect(&m_requestTimer, &QTimer::timeout, this, &PlotView::submitNow);
    connect(m_plot, &QCustomPlot::mouseMove, this, &PlotView::mouseMoved);
    connect(m_plot, &QCustomPlot::mousePress, this, &PlotView::mousePressed);
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        // A figure's new content can move its axis rects (a legend that grew, wider tick
        // labels): the data was computed for other pixels, so it is computed again.
        // Twice at most in a row: tick labels that change width with the data could otherwise
        // make the layout and the data chase each other.
        if (!m_requestedGeometry.isEmpty() && axisRectGeometry() != m_requestedGeometry
            && m_geometryRequests < kMaxGeometryRequests) {
            ++m_geometryRequests;
            requestCompute();
        }
        if (!m_awaitingReplot)
            return;
        m_awaitingReplot = false;
        // Changes since the result was shown that leave the figure alone are drawn too.
        m_drawnSerial = m_shownFigureSerial == m_figureSerial ? m_paramsSerial : m_shownSerial;
        m_drawnDetail = m_shownDetail;
        emit drawn(m_drawnSerial, *m_drawnDetail);
    });
    auto *home = new QShortcut(QKeySequence(Qt::Key_Home), this);
    home->setContext(Qt::WidgetWithChildrenShortcut);
    connect(home, &QShortcut::activated, this, &PlotView::resetView);
}

void PlotView::setParams(const Params &params)
{
    const Params before = m_engine->params();
    const bool wasCurrent = m_drawnSerial == m_paramsSerial && !m_awaitingReplot;
    m_engine = std::make_shared<const Engine>(params);
    ++m_paramsSerial;
    if (!figureDiffers(before, params)) {
        // What is drawn, or on its way, is already the figure of these parameters.
        if (wasCurrent) {
            m_drawnSerial = m_paramsSerial;
            emit drawn(m_drawnSerial, m_drawnDetail.value_or(Detail::Full));
        }
        return;
    }
    m_figureSerial = m_paramsSerial;
    m_geometryRequests = 0;
    paramsChanged(!(Quantities::shape(Quantity::Input, before) == m_engine->shape(Quantity::Input)));
    requestCompute();
}

bool PlotView::isSettled() const
{
    return m_drawnSerial == m_paramsSerial && m_drawnDetail == Detail::Full && !m_awaitingReplot
        && !m_requestTimer.isActive() && m_scheduler->isIdle();
}

void PlotView::requestCompute()
{
    // What is computing or on its way is stale from now on: it is cancelled and, should it
    // still arrive, dropped; the new request follows on the next turn of the event loop.
    m_scheduler->cancelAll();
    if (!m_requestTimer.isActive())
        m_requestTimer.start();
}

void PlotView::submitNow()
{
    // QCustomPlot lays its axis rects out only when it replots; the request must see the
    // pixels the plot has now (after a resize or a maximise), not those of the last replot.
    QCPLayoutGrid *layout = m_plot->plotLayout();
    layout->setOuterRect(m_plot->rect());
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        layout->update(phase);
    m_requestedGeometry = axisRectGeometry();
    m_scheduler->submit(makeJob());
}

QList<QRect> PlotView::axisRectGeometry() const
{
    QList<QRect> rects;
    for (const QCPAxisRect *rect : m_plot->axisRects())
        rects.append(rect->rect());
    return rects;
}

void PlotView::resultShown(quint64 figureSerial, Detail detail)
{
    m_shownSerial = m_paramsSerial;
    m_shownFigureSerial = figureSerial;
    m_shownDetail = detail;
    emit shown(figureSerial, detail);
    m_awaitingReplot = true;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QCPItemStraightLine *PlotView::addCursorLine(QCPAxisRect *rect)
{
    auto *line = new QCPItemStraightLine(m_plot);
    line->setLayer(kCursorLayer);
    line->setClipAxisRect(rect);
    line->setClipToAxisRect(true);
    line->setPen(QPen(QColor(20, 20, 20, 170), 1.0, Qt::DashLine));
    line->setSelectable(false);
    for (QCPItemPosition *position : line->positions())
        position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->setVisible(false);
    return line;
}

void PlotView::placeCursorLine(QCPItemStraightLine *line, std::optional<double> coordinate, bool horizontal)
{
    line->setVisible(coordinate.has_value());
    if (!coordinate)
        return;
    if (horizontal) {
        line->point1->setCoords(0.0, *coordinate);
        line->point2->setCoords(1.0, *coordinate);
    } else {
        line->point1->setCoords(*coordinate, 0.0);
        line->point2->setCoords(*coordinate, 1.0);
    }
}

void PlotView::replotCursor()
{
    m_plot->layer(kCursorLayer)->replot();
}

bool PlotView::restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::milliseconds rest)
{
    constexpr std::chrono::milliseconds kStep {4};
    for (std::chrono::milliseconds slept {0}; slept < rest; slept += kStep) {
        if (cancel.load(std::memory_order_relaxed))
            return false;
        std::this_thread::sleep_for(kStep);
    }
    return !cancel.load(std::memory_order_relaxed);
}

QSize PlotView::devicePixels(const QCPAxisRect *rect)
{
    const double ratio = rect->parentPlot()->devicePixelRatioF();
    return {std::max(1, qRound(rect->width() * ratio)), std::max(1, qRound(rect->height() * ratio))};
}

void PlotView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_geometryRequests = 0;
    requestCompute();
}

bool PlotView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut)) {
        update(); // the focus frame, outside the plot's own pixels
        if (event->type() == QEvent::FocusIn)
            emit plotFocused();
    }
    return QWidget::eventFilter(watched, event);
}

void PlotView::paintEvent(QPaintEvent *event)
{
    QWidget::paintEvent(event);
    if (!m_plot->hasFocus())
        return;
    // Drawn in the layout's margin around the plot, so that the figure's pixels stay its own.
    QPainter painter(this);
    QColor color = palette().color(QPalette::Highlight);
    color.setAlpha(160);
    painter.setPen(QPen(color, 1.0));
    painter.drawRect(m_plot->geometry().adjusted(-1, -1, 0, 0));
}

void PlotView::mouseMoved(QMouseEvent *event)
{
    if (auto point = hoverAt(event->position()))
        emit hovered(*point);
    else
        emit hoverLeft();
}

void PlotView::mousePressed(QMouseEvent *event)
{
    // Shift-drag draws a rubber band to zoom into; a plain drag pans.
    const bool band = event->modifiers() & Qt::ShiftModifier;
    m_plot->setSelectionRectMode(band ? QCP::srmZoom : QCP::srmNone);
}

} // namespace posenc
