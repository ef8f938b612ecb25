#pragma once

#include "QCustomPlot.h"

#include <QString>

// Texts and legends over the panels of a figure's grid, fitted to the width of their column as
// laid out (FigureFit fits texts to the whole figure only): a panel's title longer than its
// column would widen the column and squeeze the others. Filled after a layout, as the window and
// FigureBuild both fill, so a view and its export wrap alike.
namespace posenc::ColumnFit {

// The width of each of `columns` equal columns of `grid`, as last laid out, after `reserved`
// layout units for its other columns and spacing; 0 before any layout.
double columnWidth(const QCPLayoutGrid *grid, int columns, double reserved);
// Sets `text` on `element`, each line broken where it is wider than `width` (none when width is
// 0): at "  ·  ", then at spaces, then after opening brackets.
void setText(QCPTextElement *element, const QString &text, double width);
// Gives `legend` `wrap` columns, fewer while it is wider than `width`.
void fitLegend(QCPLegend *legend, int wrap, double width);

} // namespace posenc::ColumnFit
