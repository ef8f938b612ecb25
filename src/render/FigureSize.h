#pragma once

#include <QList>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace posenc {

// How big a figure is. A figure is laid out in layout units, the units Qt measures fonts in on
// screen (1/96 inch on the offscreen platform: a 9 pt label is 12 units high), and drawn at
// `scale` output pixels per unit. So a figure of a physical size at a dpi is laid out at that
// physical size, and its text keeps its point size on paper: 8.5 cm at 300 dpi is 321 units
// drawn at 3.125, 1003 pixels wide with 9 pt text.
struct FigureSize
{
    QSize layout; // layout units
    double scale = 1.0; // output pixels per layout unit
    std::optional<double> dpi; // when the figure has a physical size

    // Layout units per inch: the logical dpi of the screen, which Qt converts points with.
    static double unitsPerInch();
    // `pixels` laid out as on screen (scale 1).
    static FigureSize fromPixels(QSize pixels);
    // A physical size in inches, printed at `dpi`.
    static FigureSize fromInches(QSizeF inches, double dpi);
    // `pixels` printed at `dpi`: the physical size is pixels / dpi.
    static FigureSize fromPixelsAtDpi(QSize pixels, double dpi);

    QSize pixels() const; // of a raster output
    QSizeF points() const; // the page of a vector output, 1/72 inch
};

namespace FigureSizes {

// A size by name, as the Export figure dialog offers it and `posenc export --size` takes it.
struct Named
{
    QString name; // "slide"
    QSizeF cm;
};
// The 16:9 slide of presentation programs (10 x 5.625 in: 1920 x 1080 at 192 dpi), and the
// widths of common two-column journals' single and double columns with a 3:2-ish height.
const QList<Named> &named();
QStringList names();

// "8.5x6cm", "3.35x2.36in", "85x60mm", or a name of named() -> inches; an error naming the
// expected forms otherwise.
std::variant<QSizeF, QString> parsePhysical(const QString &text);

} // namespace FigureSizes

} // namespace posenc
