#include "FigureFonts.h"

namespace posenc::FigureFonts {

namespace {

void scaleFont(QFont &font, double factor)
{
    font.setPointSizeF(font.pointSizeF() * factor);
}

void scaleAxis(QCPAxis *axis, double factor)
{
    QFont label = axis->labelFont();
    scaleFont(label, factor);
    axis->setLabelFont(label);
    QFont ticks = axis->tickLabelFont();
    scaleFont(ticks, factor);
    axis->setTickLabelFont(ticks);
}

void scaleLegend(QCPLegend *legend, double factor)
{
    QFont font = legend->font();
    scaleFont(font, factor);
    legend->setFont(font);
}

} // namespace

void scale(QCustomPlot *plot, double factor)
{
    if (factor == 1.0)
        return;
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes())
            scaleAxis(axis, factor);
    }
    // Every element once: the recursive walk reaches into the axis rects' inset layouts too, so
    // a legend inside the axes is among them.
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(element)) {
            QFont font = text->font();
            scaleFont(font, factor);
            text->setFont(font);
        } else if (auto *legend = qobject_cast<QCPLegend *>(element)) {
            scaleLegend(legend, factor);
        } else if (auto *colorScale = qobject_cast<QCPColorScale *>(element)) {
            scaleAxis(colorScale->axis(), factor);
            colorScale->setBarWidth(qRound(colorScale->barWidth() * factor));
        }
    }
}

} // namespace posenc::FigureFonts
