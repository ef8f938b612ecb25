#include "FigureFonts.h"

#include "AxesInOrder.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::FigureFonts {

namespace {

// `font` at `points`, or nothing when it is at that size already.
std::optional<QFont> resized(QFont font, double points)
{
    if (std::abs(font.pointSizeF() - points) < 1e-9)
        return std::nullopt;
    font.setPointSizeF(points);
    return font;
}

void applyToAxis(QCPAxis *axis, double points)
{
    if (const auto label = resized(axis->labelFont(), points))
        axis->setLabelFont(*label);
    if (const auto ticks = resized(axis->tickLabelFont(), points))
        axis->setTickLabelFont(*ticks);
}

void applyToLegend(QCPLegend *legend, double points)
{
    if (const auto font = resized(legend->font(), points)) {
        // Its columns as far apart for its text as at the size it was made (matplotlib's
        // columnspacing, in font sizes): 12 units at 14 pt left rope-layouts' two entries a space's
        // width apart across the slide, read as one line.
        if (const double was = legend->font().pointSizeF(); was > 0.0)
            legend->setColumnSpacing(qRound(legend->columnSpacing() * points / was));
        legend->setFont(*font);
    }
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem *item = legend->item(i);
        if (!item)
            continue;
        // An entry may have a font of its own: it follows the legend's size too.
        if (const auto font = resized(item->font(), points))
            item->setFont(*font);
        // An entry is clipped to its rect, as high as its font's integer metrics: the ink of
        // tall glyphs (‖, |), descenders ((, p) and subscripts (₀) reaches a unit or two past them.
        QMargins margins = item->margins();
        if (margins.top() < 2 || margins.bottom() < 3 || margins.right() < 2) {
            margins.setRight(std::max(margins.right(), 2));
            margins.setTop(std::max(margins.top(), 2));
            margins.setBottom(std::max(margins.bottom(), 3));
            item->setMargins(margins);
        }
    }
}

// A colorbar as wide as the figure set it at the base size, times the text's scale; one not
// drawn (a panel given up on little room) as narrow as it was made.
void applyToColorScale(QCPColorScale *scale, double points)
{
    applyToAxis(scale->axis(), points);
    if (!scale->realVisibility())
        return;
    QVariant base = scale->property("posencBaseBarWidth");
    if (!base.isValid()) {
        base = scale->barWidth();
        scale->setProperty("posencBaseBarWidth", base);
    }
    const QVariant limit = scale->property(kBarLimitProperty);
    const int scaled = qRound(base.toInt() * points / kBasePointSize);
    const int width = limit.isValid() ? std::min(scaled, limit.toInt()) : scaled;
    if (scale->barWidth() != width)
        scale->setBarWidth(width);
}

} // namespace

void apply(QCustomPlot *plot, double points)
{
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : axesInOrder(*rect))
            applyToAxis(axis, points);
    }
    // Every element once: the recursive walk reaches into the axis rects' inset layouts too, so
    // a legend inside the axes is among them.
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(element)) {
            if (const auto font = resized(text->font(), points))
                text->setFont(*font);
        } else if (auto *legend = qobject_cast<QCPLegend *>(element)) {
            applyToLegend(legend, points);
        } else if (auto *colorScale = qobject_cast<QCPColorScale *>(element)) {
            applyToColorScale(colorScale, points);
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            if (const auto font = resized(text->font(), points))
                text->setFont(*font);
}

} // namespace posenc::FigureFonts
