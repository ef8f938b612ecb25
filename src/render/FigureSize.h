#pragma once

#include <QList>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <functional>
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
    // The height (layout units) the page may grow to where its figure would leave panels out
    // (FigureSizes::grownForPanels): a paper's column's, whose height is the author's to choose up
    // to its page's (FigureSizes::Named::mostCm). Not above the layout's height: the height is fixed.
    int mostHeight = 0;
    // A page grown for its panels: a row of panels side by side is stacked (StackedPanels).
    bool stacked = false;

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
    // How tall the figure may grow where its panels need it (0: as tall as `cm` says, always).
    double mostCm = 0.0;
};
// The 16:9 slide of presentation programs (10 x 5.625 in: 1920 x 1080 at 192 dpi), whose height
// is the screen's; and the widths of common two-column journals' single and double columns with a
// 3:2-ish height, which a figure of many panels grows up to 22 cm, as its author stacks them down
// the page: a journal's text block is about 23 to 25 cm high (A4 or US letter less its margins),
// and the caption takes a few lines under the figure.
const QList<Named> &named();
QStringList names();

// The page `text` names (parsePhysical) at `dpi`; a named size's FigureSize::mostHeight set. A
// WIDTHxHEIGHT is the height its author fixed.
std::variant<FigureSize, QString> page(const QString &text, double dpi);

// Grown in steps of this much (1 cm): a page's height a whole number of centimetres over its own.
constexpr double kGrowStepCm = 1.0;
// How a page draws its figures: the panels it leaves out for room, and whether they fit it
// (StackedPanels::fitsPage: nothing overflows, and on a page short of room the plots take half of it).
struct PanelsOnPage
{
    int leftOut = 0;
    bool fits = true;
};
// `size` grown for its figures' panels (docs/ARCHITECTURE.md, "Figures at any size"), `weigh`
// laying them out on a page (nothing: cancelled, and so is this): `size` where it leaves none out
// or cannot grow (FigureSize::mostHeight); else, stacked (FigureSize::stacked), the least height in
// steps of kGrowStepCm up to mostHeight that leaves none out and fits (rope-rotation stacked at
// 8.5 x 8 cm kept its three panels in 44.8 % of the page); where none does, `size` as it is, which
// leaves panels out and says so as a page of a fixed height does (a figure 22 cm high that still
// left half its panels out, dropout-compare's, reads worse than 6 cm).
std::optional<FigureSize> grownForPanels(const FigureSize &size,
                                         const std::function<std::optional<PanelsOnPage>(const FigureSize &)> &weigh);

// grownForPanels() one page at a time, for a caller that weighs each page when its data comes (the
// window's Export figure dialog, whose figures are computed off the GUI thread): next() is the page
// to weigh, weighed() takes how it draws its panels, and once next() gives nothing, size() is the
// page grownForPanels() gives.
class PanelGrowth
{
public:
    explicit PanelGrowth(const FigureSize &size);
    std::optional<FigureSize> next() const;
    void weighed(const PanelsOnPage &drawn);
    const FigureSize &size() const { return m_chosen; }

private:
    // The page `n` steps of kGrowStepCm taller than the one asked (n > 0), stacked.
    FigureSize taller(int n) const;

    enum class Trial { Asked, Tallest, Step, Done };
    FigureSize m_asked, m_chosen;
    Trial m_trial = Trial::Asked;
    int m_step = 0;
};

// "8.5x6cm", "3.35x2.36in", "85x60mm", or a name of named() -> inches; an error naming the
// expected forms otherwise.
std::variant<QSizeF, QString> parsePhysical(const QString &text);

} // namespace FigureSizes

} // namespace posenc
