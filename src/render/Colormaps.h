#pragma once

#include "QCustomPlot.h"

#include "data/Colormap.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

namespace Colormaps {

// The map as QCustomPlot colours with it: matplotlib's 256 entries, exactly, and a value that is
// not a number in notNumberColor() (QCustomPlot's default gives it the lowest entry's colour).
QCPColorGradient gradient(Colormap map);
// The same map with its cells of no number drawn as masked, in maskedColor(): a grid whose only
// non-finite cells are −inf, an attention mask's (BLOOM's causal ALiBi bias), holds no fault.
QCPColorGradient maskedGradient(Colormap map);
// The colour of a cell that holds no number, which no map gives: magenta.
QColor notNumberColor();
// The colour of a masked cell (−inf, a key the query never sees), BiasMapFigure's too: a neutral
// grey no map gives.
QColor maskedColor();
// The colour the map gives to t in [0, 1] (0 the low end of the data range), as the gradient
// gives it: entry floor(256 t) of matplotlib's table.
QColor colorAt(Colormap map, double t);
// The map that suits data that is signed (diverging) or not (viridis).
Colormap forSignedData(bool isSigned);

} // namespace Colormaps

} // namespace posenc
