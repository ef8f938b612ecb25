#include "FigureExporter.h"

#include "ClippedSvg.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::FigureExporter {

namespace {

// Vector outputs are drawn at the resolution QCustomPlot measured the text with while laying
// the figures out, so that every label fits the margins made for it: each plot in its cell of a
// page of `page` layout units.
void drawVector(const QList<Placed> &figures, QSize page, QPaintDevice *device)
{
    QCPPainter painter(device);
    // Hairlines (width 0) would be as thin as the viewer can draw: one layout unit instead.
    painter.setMode(QCPPainter::pmNonCosmetic);
    // A heatmap is data: embedded whole (Flate), never as lossy JPEG.
    painter.setRenderHint(QPainter::LosslessImageRendering);
    painter.setWindow(QRect(QPoint(0, 0), page));
    for (const Placed &figure : figures) {
        painter.save();
        painter.translate(figure.cell.topLeft());
        figure.plot->toPainter(&painter, figure.cell.width(), figure.cell.height());
        painter.restore();
    }
    painter.end();
}

// The size's dpi in the image, when it has one.
void recordDpi(QImage &image, const FigureSize &size)
{
    if (!size.dpi)
        return;
    const int perMeter = qRound(*size.dpi / 0.0254);
    image.setDotsPerMeterX(perMeter);
    image.setDotsPerMeterY(perMeter);
}

// The page's image: each figure's own image (image()) at its cell's pixels.
QImage pageImage(const QList<Placed> &figures, const FigureSize &page)
{
    QImage drawn(page.pixels(), QImage::Format_ARGB32_Premultiplied);
    drawn.fill(Qt::white);
    QPainter painter(&drawn);
    for (const Placed &figure : figures) {
        FigureSize cell = page;
        cell.layout = figure.cell.size();
        const QPoint at(qRound(figure.cell.x() * page.scale), qRound(figure.cell.y() * page.scale));
        painter.drawImage(at, image(figure.plot, cell));
    }
    painter.end();
    recordDpi(drawn, page);
    return drawn;
}

// A PDF's XMP packet of its title, description and creator (Dublin Core, as Qt writes its own).
QByteArray xmp(const QString &title, const QString &description)
{
    const auto alt = [](const QString &text) {
        return u"<rdf:Alt><rdf:li xml:lang=\"x-default\">%1</rdf:li></rdf:Alt>"_s.arg(text.toHtmlEscaped());
    };
    return u"<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
           "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
           "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
           "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"><dc:title>%1</dc:title><dc:description>%2</dc:description>"
           "<xmp:CreatorTool>PosEnc Explorer</xmp:CreatorTool></rdf:Description></rdf:RDF></x:xmpmeta>"
           "<?xpacket end='w'?>"_s.arg(alt(title), alt(description))
               .toUtf8();
}

} // namespace

std::optional<FigureFormat> formatOf(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"png"_s)
        return FigureFormat::Png;
    if (suffix == u"svg"_s)
        return FigureFormat::Svg;
    if (suffix == u"pdf"_s)
        return FigureFormat::Pdf;
    return std::nullopt;
}

QString extensions()
{
    return u".png, .svg or .pdf"_s;
}

QString extension(FigureFormat format)
{
    switch (format) {
    case FigureFormat::Png:
        return u"png"_s;
    case FigureFormat::Svg:
        return u"svg"_s;
    case FigureFormat::Pdf:
        return u"pdf"_s;
    }
    return u"png"_s;
}

QImage image(QCustomPlot *plot, const FigureSize &size)
{
    QImage image = plot->toPixmap(size.layout.width(), size.layout.height(), size.scale).toImage();
    recordDpi(image, size);
    return image;
}

namespace {

QByteArray pngOf(QImage drawn, const QString &title, const QString &description)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    // Qt maps 0..100 onto zlib's levels 0..9: 11 is level 1, which is fast; a figure is
    // mostly flat colour, so zlib's default level 6 saves an eighth of the bytes at twice the
    // time of the whole export.
    writer.setCompression(11);
    if (!title.isEmpty())
        drawn.setText(u"Title"_s, title);
    if (!description.isEmpty())
        drawn.setText(u"Description"_s, description);
    return writer.write(drawn) ? bytes : QByteArray();
}

QByteArray svgOf(const QList<Placed> &figures, QSize page, const QString &title, const QString &description)
{
    // The data clipped to the axes as in a PDF: Qt's generator alone leaves clipping out.
    ClippedSvg drawing(page, qRound(FigureSize::unitsPerInch()), title,
                       description.isEmpty() ? u"PosEnc Explorer"_s : description);
    drawVector(figures, page, &drawing);
    return drawing.document();
}

QByteArray pdfOf(const QList<Placed> &figures, const FigureSize &size, const QString &title, const QString &description)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setResolution(qRound(FigureSize::unitsPerInch()));
        writer.setCreator(u"PosEnc Explorer"_s);
        writer.setTitle(title);
        if (!description.isEmpty())
            writer.setDocumentXmpMetadata(xmp(title, description));
        // The page is the figure's physical size, no margins.
        const QPageSize page(size.points(), QPageSize::Point, QString(), QPageSize::ExactMatch);
        writer.setPageLayout(QPageLayout(page, QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        drawVector(figures, size.layout, &writer);
    }
    return bytes;
}

QList<Placed> whole(QCustomPlot *plot, const FigureSize &size)
{
    return {{plot, QRect(QPoint(0, 0), size.layout)}};
}

} // namespace

QByteArray png(QCustomPlot *plot, const FigureSize &size, const QString &title, const QString &description)
{
    return pngOf(image(plot, size), title, description);
}

QByteArray svg(QCustomPlot *plot, const FigureSize &size, const QString &title, const QString &description)
{
    return svgOf(whole(plot, size), size.layout, title, description);
}

QByteArray pdf(QCustomPlot *plot, const FigureSize &size, const QString &title, const QString &description)
{
    return pdfOf(whole(plot, size), size, title, description);
}

QByteArray encode(QCustomPlot *plot, const FigureSize &size, FigureFormat format, const QString &title,
                  const QString &description)
{
    switch (format) {
    case FigureFormat::Png:
        return png(plot, size, title, description);
    case FigureFormat::Svg:
        return svg(plot, size, title, description);
    case FigureFormat::Pdf:
        return pdf(plot, size, title, description);
    }
    return {};
}

QByteArray encodePage(const QList<Placed> &figures, const FigureSize &page, FigureFormat format, const QString &title,
                      const QString &description)
{
    switch (format) {
    case FigureFormat::Png:
        return pngOf(pageImage(figures, page), title, description);
    case FigureFormat::Svg:
        return svgOf(figures, page.layout, title, description);
    case FigureFormat::Pdf:
        return pdfOf(figures, page, title, description);
    }
    return {};
}

} // namespace posenc::FigureExporter
