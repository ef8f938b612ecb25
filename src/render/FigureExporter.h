#pragma once

#include "FigureSize.h"

#include "QCustomPlot.h"

#include <QByteArray>
#include <QImage>
#include <QList>
#include <QRect>
#include <QString>

#include <optional>

namespace posenc {

enum class FigureFormat { Png, Svg, Pdf };

// Draws a built figure (FigureBuild) into the bytes of a file, whole, so that the caller
// writes it at once or not at all.
namespace FigureExporter {

// The format a file name asks for by its extension (.png .svg .pdf, any case).
std::optional<FigureFormat> formatOf(const QString &path);
QString extensions(); // ".png, .svg or .pdf" for messages
QString extension(FigureFormat format); // "png"

// A PNG of size.pixels(), the figure drawn as QCustomPlot::toPixmap draws it (what the window
// shows, at size.scale pixels per layout unit); the dpi recorded when there is one.
QImage image(QCustomPlot *plot, const FigureSize &size);
// Each file records `title` and `description` in its metadata: a PNG's Title and Description
// texts, an SVG's title and desc, a PDF's title and its XMP description.
QByteArray png(QCustomPlot *plot, const FigureSize &size, const QString &title = {}, const QString &description = {});
// Vector text and axes at the physical size; heatmaps embedded as images of their grid.
QByteArray svg(QCustomPlot *plot, const FigureSize &size, const QString &title, const QString &description = {});
QByteArray pdf(QCustomPlot *plot, const FigureSize &size, const QString &title, const QString &description = {});
QByteArray encode(QCustomPlot *plot, const FigureSize &size, FigureFormat format, const QString &title,
                  const QString &description = {});

// Several figures on one page (FigurePage): each plot drawn in its cell, in layout units of `page`,
// as it is drawn alone at the cell's size (a PNG's pixels of a cell are the figure's own PNG).
struct Placed
{
    QCustomPlot *plot;
    QRect cell;
};
QByteArray encodePage(const QList<Placed> &figures, const FigureSize &page, FigureFormat format, const QString &title,
                      const QString &description = {});

} // namespace FigureExporter

} // namespace posenc
