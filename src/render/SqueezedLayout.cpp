#include "SqueezedLayout.h"

#include <cstdlib>
#include <utility>

namespace posenc::SqueezedLayout {

namespace {

constexpr qint64 kReach = QWIDGETSIZE_MAX;

bool withinReach(int coordinate)
{
    return std::abs(qint64(coordinate)) <= kReach;
}

void collapse(QCPLayoutElement *element, const QRect &rect)
{
    element->setOuterRect(rect);
    // A colour scale lays its bar's axis rect, which is in no layout, over its own rect
    // (QCPColorScale::update).
    if (auto *scale = qobject_cast<QCPColorScale *>(element))
        scale->axis()->axisRect()->setOuterRect(scale->rect());
    for (QCPLayoutElement *inner : element->elements(false))
        if (inner)
            collapse(inner, QRect(rect.topLeft(), QSize(0, 0)));
}

} // namespace

bool isSound(const QRect &rect)
{
    return withinReach(rect.left()) && withinReach(rect.right()) && withinReach(rect.top())
        && withinReach(rect.bottom());
}

void collapseOverflowed(QCPLayoutElement *layout)
{
    const QRect around = layout->outerRect();
    for (QCPLayoutElement *element : layout->elements(false)) {
        if (!element)
            continue;
        const QRect rect = element->outerRect();
        if (isSound(rect)) {
            collapseOverflowed(element);
            continue;
        }
        // The extent QCustomPlot gave is kept across the direction it is sound in.
        const bool across = withinReach(rect.left()) && withinReach(rect.right());
        const bool down = withinReach(rect.top()) && withinReach(rect.bottom());
        const QPoint corner(withinReach(rect.left()) ? rect.left() : around.left(),
                            withinReach(rect.top()) ? rect.top() : around.top());
        collapse(element, QRect(corner, QSize(across ? rect.width() : 0, down ? rect.height() : 0)));
    }
}

} // namespace posenc::SqueezedLayout

namespace posenc {

namespace {

// The viewport filled with the plot's background colour, first of the background layer, on screen.
class Canvas final : public QCPLayerable
{
public:
    explicit Canvas(SqueezablePlot *plot)
        : QCPLayerable(plot)
        , m_plot(plot)
    {
        moveToLayer(plot->layer(QStringLiteral("background")), true);
    }

protected:
    void applyDefaultAntialiasingHint(QCPPainter *) const override { }
    // QCPLayer::draw clips each of its children to its clip rect a pixel higher: the viewport's last
    // row is the canvas's too.
    QRect clipRect() const override { return m_plot->viewport().adjusted(0, 0, 0, 1); }
    void draw(QCPPainter *painter) override
    {
        if (painter->modes() & (QCPPainter::pmVectorized | QCPPainter::pmNoCaching))
            return;
        if (const auto color = m_plot->canvasColor()) {
            painter->fillRect(m_plot->viewport(), *color);
            m_plot->canvasDrawn();
        }
    }

private:
    SqueezablePlot *m_plot;
};

// The first paint buffer of a plot whose canvas fills it: an image without an alpha channel, which
// the canvas's fill makes opaque, so QCustomPlot's clearing it to transparent at every replot
// (setupPaintBuffers) is left out, and the view's paint copies its rows where it blended them. Every
// layer draws SourceOver onto pixels already opaque, as onto the ARGB buffer after the canvas: the
// same pixels (tst_squeezedlayout).
class OpaqueBuffer final : public QCPAbstractPaintBuffer
{
public:
    OpaqueBuffer(const QSize &size, double devicePixelRatio, const QColor &color)
        : QCPAbstractPaintBuffer(size, devicePixelRatio)
        , m_color(color)
    {
        OpaqueBuffer::reallocateBuffer();
    }

    QCPPainter *startPainting() override { return new QCPPainter(&m_image); }
    void draw(QCPPainter *painter) const override
    {
        if (painter && painter->isActive())
            painter->drawImage(0, 0, m_image);
    }
    // The canvas fills it first in every replot.
    void clear(const QColor &) override { }

protected:
    void reallocateBuffer() override
    {
        setInvalidated();
        m_image = QImage(mSize * mDevicePixelRatio, QImage::Format_RGB32);
        m_image.setDevicePixelRatio(mDevicePixelRatio);
        m_image.fill(m_color); // what a paint before the first replot shows
    }

private:
    QImage m_image;
    QColor m_color;
};

} // namespace

SqueezablePlot::SqueezablePlot(QWidget *parent)
    : QCustomPlot(parent)
    , m_canvas(new Canvas(this))
{
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        m_canvasDrawn = false;
        m_resized = false;
        chooseFirstBuffer();
    });
}

bool SqueezablePlot::canvasFirst() const
{
    if (!m_canvas->realVisibility() || !canvasColor())
        return false;
    const QCPLayer *canvasLayer = m_canvas->layer();
    for (QCPLayer *layer : mLayers) {
        if (layer->mode() != QCPLayer::lmLogical)
            return false;
        if (layer == canvasLayer)
            return layer->children().value(0) == m_canvas;
    }
    return false;
}

void SqueezablePlot::chooseFirstBuffer()
{
    const bool opaque = canvasFirst();
    const bool isOpaque = !mPaintBuffers.isEmpty() && dynamic_cast<OpaqueBuffer *>(mPaintBuffers.first().data());
    if (opaque && isOpaque)
        return;
    QSharedPointer<QCPAbstractPaintBuffer> first;
    if (opaque)
        first.reset(new OpaqueBuffer(viewport().size(), mBufferDevicePixelRatio, *canvasColor()));
    else if (isOpaque)
        first.reset(createPaintBuffer());
    else
        return;
    if (mPaintBuffers.isEmpty())
        mPaintBuffers.append(first);
    else
        mPaintBuffers.first() = first;
}

std::optional<QColor> SqueezablePlot::canvasColor() const
{
    if (mBackgroundBrush.style() != Qt::SolidPattern || mBackgroundBrush.color().alpha() != 255
        || !mBackgroundPixmap.isNull())
        return std::nullopt;
    return mBackgroundBrush.color();
}

bool SqueezablePlot::firstBufferOpaque() const
{
    if (!m_canvasDrawn || mPaintBuffers.isEmpty())
        return false;
    const QCPAbstractPaintBuffer &first = *mPaintBuffers.first();
    if (first.invalidated() || first.size() != mViewport.size() || first.devicePixelRatio() != mBufferDevicePixelRatio)
        return false;
    return canvasFirst();
}

// As QCustomPlot::paintEvent (its background brush, its background pixmap, then its buffers),
// the first buffer drawn without the background under it where it is opaque.
void SqueezablePlot::paintEvent(QPaintEvent *event)
{
    // A resize's replot still to come: the buffers are of the size before, drawn again now (resizeEvent).
    if (m_resized)
        replot(rpQueuedRefresh);
    if (!firstBufferOpaque()) {
        QCustomPlot::paintEvent(event);
        return;
    }
    QCPPainter painter(this);
    if (!painter.isActive())
        return;
    // Over an opaque buffer SourceOver gives Source's pixels, through the raster engine's one-thread
    // blend of a buffer with an alpha channel (QRasterPaintEnginePrivate::canUseFastImageBlending).
    // CompositionMode_Source took its span path, which splits the rows among Qt's GUI thread pool and
    // waits for them (qdrawhelper's QT_THREAD_PARALLEL_FILLS): the GUI thread stalled 358 ms in
    // QSemaphore::acquire, working 4 ms of it, while the pool's threads were kept from running.
    for (const QSharedPointer<QCPAbstractPaintBuffer> &buffer : std::as_const(mPaintBuffers))
        buffer->draw(&painter);
}

void SqueezablePlot::resizeEvent(QResizeEvent *)
{
    setViewport(rect());
    if (std::exchange(m_resized, true))
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (m_resized)
                replot(rpQueuedRefresh);
        },
        Qt::QueuedConnection);
}

QPixmap SqueezablePlot::shownPixels()
{
    if (mReplotQueued)
        replot(rpQueuedRefresh);
    const double ratio = devicePixelRatioF();
    QPixmap pixmap(size() * ratio);
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    render(&pixmap, QPoint(), QRegion(), QWidget::DrawWindowBackground);
    return pixmap;
}

// As QCustomPlot::updateLayout, with the collapse before the layout is announced.
void SqueezablePlot::updateLayout()
{
    QCPLayoutGrid *layout = plotLayout();
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        layout->update(phase);
    SqueezedLayout::collapseOverflowed(layout);
    emit afterLayout();
}

} // namespace posenc
