#pragma once

#include "FigureSize.h"

#include <QList>
#include <QRect>
#include <QSize>

namespace posenc::FigurePage {

// The most figures one page holds: past nine a figure's text is too small to read at any
// legible page size.
constexpr int kMaxFigures = 9;

// The columns and rows of `count` figures on a page of `page` layout units (width, height):
// the grid whose cells come closest to a figure's usual 3:2, fewest empty cells first among equals.
QSize grid(int count, QSize page);

// Every grid of `count` figures that leaves no row empty, columns x rows, most columns first.
QList<QSize> grids(int count);

// The cells of `count` figures in reading order, the page split evenly (whole layout units; the
// last column and row take what the division leaves) and covered whole: the cells a short last
// row leaves empty are the first figure's, which spans them down the first column.
QList<QRect> cells(int count, QSize page);
// The same on the grid `shape` (columns x rows, one of grids(count)), the first figure's column
// `lead` times as wide as each other column (its row as high, in a grid of one column): a lesson's
// main figure given the room it draws its panels in, the others' less.
QList<QRect> cells(int count, QSize page, QSize shape, double lead = 1.0);

// The size a figure is built at to fill `cell` of `page`: the page's scale and dpi.
FigureSize cellSize(const FigureSize &page, QRect cell);

} // namespace posenc::FigurePage
