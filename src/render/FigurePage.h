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

// The cells of `count` figures in reading order, the page split evenly (whole layout units; the
// last column and row take what the division leaves).
QList<QRect> cells(int count, QSize page);

// The size a figure is built at to fill `cell` of `page`: the page's scale and dpi.
FigureSize cellSize(const FigureSize &page, QRect cell);

} // namespace posenc::FigurePage
