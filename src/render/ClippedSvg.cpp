#include "ClippedSvg.h"

#include <QHash>
#include <QPaintEngine>
#include <QPainter>
#include <QRectF>
#include <QTextItem>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <climits>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What a mark without a clip is drawn as: a rectangle no clip of a figure has.
const QRectF kNoClip(-3.0, -3.0, 1.0, 1.0);

QColor markColour()
{
    return QColor::fromRgba(ClippedSvg::kMarkRgba);
}

// Hands every drawing on to a painter on the SVG generator, with the painter's state; marks the
// drawing where the clip changes (see ClippedSvg).
class ClipMarkingEngine final : public QPaintEngine
{
public:
    explicit ClipMarkingEngine(QSvgGenerator *target)
        : QPaintEngine(QPaintEngine::AllFeatures)
        , m_target(target)
    { }

    bool begin(QPaintDevice *) override
    {
        m_clip = kNoClip;
        return m_inner.begin(m_target);
    }
    bool end() override { return m_inner.end(); }
    Type type() const override { return QPaintEngine::User; }

    void updateState(const QPaintEngineState &state) override;

    using QPaintEngine::drawEllipse;
    using QPaintEngine::drawLines;
    using QPaintEngine::drawPoints;
    using QPaintEngine::drawPolygon;
    using QPaintEngine::drawRects;
    void drawEllipse(const QRectF &rect) override { m_inner.drawEllipse(rect); }
    void drawLines(const QLineF *lines, int count) override { m_inner.drawLines(lines, count); }
    void drawPoints(const QPointF *points, int count) override { m_inner.drawPoints(points, count); }
    void drawRects(const QRectF *rects, int count) override { m_inner.drawRects(rects, count); }
    void drawPath(const QPainterPath &path) override { m_inner.drawPath(path); }
    void drawPolygon(const QPointF *points, int count, PolygonDrawMode mode) override
    {
        switch (mode) {
        case PolylineMode:
            m_inner.drawPolyline(points, count);
            break;
        case ConvexMode:
            m_inner.drawConvexPolygon(points, count);
            break;
        case OddEvenMode:
            m_inner.drawPolygon(points, count, Qt::OddEvenFill);
            break;
        case WindingMode:
            m_inner.drawPolygon(points, count, Qt::WindingFill);
            break;
        }
    }
    void drawPixmap(const QRectF &rect, const QPixmap &pixmap, const QRectF &source) override
    {
        m_inner.drawPixmap(rect, pixmap, source);
    }
    void drawImage(const QRectF &rect, const QImage &image, const QRectF &source,
                   Qt::ImageConversionFlags flags) override
    {
        m_inner.drawImage(rect, image, source, flags);
    }
    void drawTiledPixmap(const QRectF &rect, const QPixmap &pixmap, const QPointF &offset) override
    {
        m_inner.drawTiledPixmap(rect, pixmap, offset);
    }
    void drawTextItem(const QPointF &at, const QTextItem &item) override
    {
        m_inner.setFont(item.font());
        m_inner.drawText(at, item.text());
    }

private:
    // The clip in the drawing's coordinates, or kNoClip.
    QRectF currentClip() const
    {
        const QPainter *outer = painter();
        if (!outer || !outer->hasClipping())
            return kNoClip;
        return outer->combinedTransform().mapRect(outer->clipBoundingRect());
    }
    void mark(const QRectF &clip)
    {
        m_inner.save();
        m_inner.resetTransform();
        m_inner.setOpacity(1.0);
        m_inner.setPen(Qt::NoPen);
        m_inner.setBrush(markColour());
        m_inner.drawRect(clip);
        m_inner.restore();
    }

    QSvgGenerator *m_target;
    QPainter m_inner;
    QRectF m_clip = kNoClip;
};

void ClipMarkingEngine::updateState(const QPaintEngineState &state)
{
    const DirtyFlags flags = state.state();
    if (flags & DirtyPen)
        m_inner.setPen(state.pen());
    if (flags & DirtyBrush)
        m_inner.setBrush(state.brush());
    if (flags & DirtyBrushOrigin)
        m_inner.setBrushOrigin(state.brushOrigin());
    if (flags & DirtyFont)
        m_inner.setFont(state.font());
    if (flags & DirtyBackground)
        m_inner.setBackground(state.backgroundBrush());
    if (flags & DirtyBackgroundMode)
        m_inner.setBackgroundMode(state.backgroundMode());
    if (flags & DirtyTransform)
        m_inner.setTransform(state.transform());
    if (flags & DirtyHints)
        m_inner.setRenderHints(state.renderHints());
    if (flags & DirtyCompositionMode)
        m_inner.setCompositionMode(state.compositionMode());
    if (flags & DirtyOpacity)
        m_inner.setOpacity(state.opacity());
    if (flags & (DirtyClipRegion | DirtyClipPath | DirtyClipEnabled)) {
        const QRectF clip = currentClip();
        if (clip != m_clip) {
            m_clip = clip;
            mark(clip);
        }
    }
}

// The generator's document, its marks turned into clip-path groups and its font families
// given a generic one. The generator writes one group per painter state, siblings inside its
// group of defaults: a mark is such a group holding one rectangle.
class ClipRewriter
{
public:
    ClipRewriter(const QByteArray &svg, const QRectF &viewBox)
        : m_reader(svg)
        , m_writer(&m_out)
        , m_viewBox(viewBox)
    {
        m_reader.setNamespaceProcessing(false);
    }

    QByteArray rewrite();

private:
    void copyStart();
    // Reads the mark's group to its end: its rectangle, or nothing when it is not a mark.
    QRectF readMark();
    void openClip(const QRectF &clip);
    void closeClip();

    QXmlStreamReader m_reader;
    QByteArray m_out;
    QXmlStreamWriter m_writer;
    QRectF m_viewBox;
    int m_depth = 0;
    bool m_clipOpen = false;
    QHash<QString, QString> m_clipIds; // by the rectangle's text
};

bool isMark(const QXmlStreamAttributes &attributes)
{
    const QColor colour = markColour();
    return attributes.value(u"fill"_s) == colour.name()
        && std::abs(attributes.value(u"fill-opacity"_s).toDouble() - double(colour.alphaF())) < 1e-5;
}

QRectF ClipRewriter::readMark()
{
    QRectF rect;
    int depth = 1;
    while (depth > 0 && !m_reader.atEnd()) {
        const auto token = m_reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            ++depth;
            const QXmlStreamAttributes a = m_reader.attributes();
            if (m_reader.name() == u"rect"_s)
                rect = QRectF(a.value(u"x"_s).toDouble(), a.value(u"y"_s).toDouble(), a.value(u"width"_s).toDouble(),
                              a.value(u"height"_s).toDouble());
        } else if (token == QXmlStreamReader::EndElement) {
            --depth;
        }
    }
    return rect;
}

void ClipRewriter::closeClip()
{
    if (m_clipOpen)
        m_writer.writeEndElement();
    m_clipOpen = false;
}

void ClipRewriter::openClip(const QRectF &clip)
{
    closeClip();
    // No clip, or one the whole drawing is inside of: nothing to cut.
    if (clip == kNoClip || clip.contains(m_viewBox))
        return;
    const QString x = QString::number(clip.x()), y = QString::number(clip.y());
    const QString width = QString::number(clip.width()), height = QString::number(clip.height());
    const QString key = x + u' ' + y + u' ' + width + u' ' + height;
    QString id = m_clipIds.value(key);
    if (id.isEmpty()) {
        id = u"posencClip%1"_s.arg(m_clipIds.size() + 1);
        m_clipIds.insert(key, id);
        m_writer.writeStartElement(u"defs"_s);
        m_writer.writeStartElement(u"clipPath"_s);
        m_writer.writeAttribute(u"id"_s, id);
        m_writer.writeStartElement(u"rect"_s);
        m_writer.writeAttribute(u"x"_s, x);
        m_writer.writeAttribute(u"y"_s, y);
        m_writer.writeAttribute(u"width"_s, width);
        m_writer.writeAttribute(u"height"_s, height);
        m_writer.writeEndElement();
        m_writer.writeEndElement();
        m_writer.writeEndElement();
    }
    m_writer.writeStartElement(u"g"_s);
    m_writer.writeAttribute(u"clip-path"_s, u"url(#%1)"_s.arg(id));
    m_clipOpen = true;
}

void ClipRewriter::copyStart()
{
    // Names as written: the reader leaves namespaces unprocessed, so the root's declarations are
    // attributes copied with the others.
    m_writer.writeStartElement(m_reader.qualifiedName().toString());
    const bool root = m_depth == 1;
    for (const QXmlStreamAttribute &attribute : m_reader.attributes()) {
        const QStringView name = attribute.qualifiedName();
        // Clip paths are SVG 1.1's, not in the Tiny 1.2 profile the generator names.
        if (root && name == u"baseProfile"_s)
            continue;
        if (root && name == u"version"_s)
            m_writer.writeAttribute(u"version"_s, u"1.1"_s);
        else if (name == u"font-family"_s && !attribute.value().contains(u"sans-serif"_s))
            m_writer.writeAttribute(u"font-family"_s, attribute.value().toString() + u", sans-serif"_s);
        else
            m_writer.writeAttribute(name.toString(), attribute.value().toString());
    }
}

QByteArray ClipRewriter::rewrite()
{
    while (!m_reader.atEnd()) {
        const auto token = m_reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            ++m_depth;
            // The generator's state groups sit at depth 3: <svg>, its group of defaults, them.
            if (m_depth == 3 && m_reader.name() == u"g"_s && isMark(m_reader.attributes())) {
                openClip(readMark());
                --m_depth;
                continue;
            }
            copyStart();
        } else if (token == QXmlStreamReader::EndElement) {
            if (m_depth == 2)
                closeClip(); // the group of defaults ends
            --m_depth;
            m_writer.writeEndElement();
        } else if (token != QXmlStreamReader::Invalid) {
            m_writer.writeCurrentToken(m_reader);
        }
    }
    if (m_reader.hasError())
        return {};
    return m_out;
}

} // namespace

ClippedSvg::ClippedSvg(QSize size, int resolution, const QString &title, const QString &description)
    : m_buffer(&m_bytes)
    , m_size(size)
{
    m_buffer.open(QIODevice::WriteOnly);
    m_generator.setOutputDevice(&m_buffer);
    m_generator.setResolution(resolution);
    m_generator.setSize(size);
    m_generator.setViewBox(QRect(QPoint(0, 0), size));
    // The generator writes them as they are: a title of "p < max-len" would end the file's XML.
    m_generator.setTitle(title.toHtmlEscaped());
    m_generator.setDescription(description.toHtmlEscaped());
    m_engine = std::make_unique<ClipMarkingEngine>(&m_generator);
}

ClippedSvg::~ClippedSvg() = default;

QPaintEngine *ClippedSvg::paintEngine() const
{
    return m_engine.get();
}

int ClippedSvg::metric(PaintDeviceMetric metric) const
{
    const int resolution = m_generator.resolution();
    switch (metric) {
    case PdmWidth:
        return m_size.width();
    case PdmHeight:
        return m_size.height();
    case PdmWidthMM:
        return qRound(m_size.width() * 25.4 / resolution);
    case PdmHeightMM:
        return qRound(m_size.height() * 25.4 / resolution);
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY:
        return resolution;
    case PdmDepth:
        return 32;
    case PdmNumColors:
        return INT_MAX;
    case PdmDevicePixelRatio:
        return 1;
    case PdmDevicePixelRatioScaled:
        return int(devicePixelRatioFScale());
    }
    return QPaintDevice::metric(metric);
}

QByteArray ClippedSvg::document() const
{
    if (m_bytes.isEmpty())
        return {};
    return ClipRewriter(m_bytes, QRectF(QPointF(0, 0), m_size)).rewrite();
}

} // namespace posenc
