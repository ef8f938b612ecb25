#pragma once

#include "QCustomPlot.h"

#include <QColor>
#include <QList>
#include <QString>

namespace posenc {

// One entry of a legend that says what a colour means, where a colorbar would suggest values in
// between (a binary mask's kept and dropped cells, hatched padding rows): a swatch filled with
// `color`, `hatch` drawn over it, and the label beside it.
struct Swatch
{
    QColor color;
    QString label;
    Qt::BrushStyle hatch = Qt::NoBrush;
};

namespace SwatchLegend {

// A legend of swatches put in cell (row, col) of `layout`, a figure's: no border, one column, on
// the plot's legend layer.
QCPLegend *create(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col);
// Empties `legend` and gives it one item per swatch, in order, in the legend's font.
void set(QCPLegend *legend, const QList<Swatch> &swatches);
// The label of a swatch item; empty for any other item.
QString label(const QCPAbstractLegendItem *item);
// The colour of a swatch item; invalid for any other item.
QColor color(const QCPAbstractLegendItem *item);
// Gives a swatch item another label (a legend shortened on little room); false for any other item.
bool setLabel(QCPAbstractLegendItem *item, const QString &label);
// Adds one swatch to any legend (beside a figure's graphs); the legend owns the item.
QCPAbstractLegendItem *add(QCPLegend *legend, const Swatch &swatch);
// The hatch of rows that hold no data of their own (masked-fill's padding): dark lines over a
// light wash, drawn over the cells so that their colour stays readable beneath and the lines
// show over dark cells and light ones alike.
QBrush hatchBrush(Qt::BrushStyle hatch = Qt::BDiagPattern);
QColor washColor();

} // namespace SwatchLegend

} // namespace posenc
