#pragma once

#include "QCustomPlot.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

// The colormaps of DESIGN.md section 5: a diverging map centred on zero for signed data,
// perceptually uniform maps for magnitudes and fractions.
enum class Colormap {
    Diverging, // ColorBrewer RdBu reversed: blue below zero, white at zero, red above
    Viridis,
    Cividis,
};

namespace Colormaps {

QStringList names();
QString name(Colormap map);
std::optional<Colormap> fromName(const QString &name);
QCPColorGradient gradient(Colormap map);
// The colour the map gives to t in [0, 1] (0 the low end of the data range).
QColor colorAt(Colormap map, double t);
// The map that suits data that is signed (diverging) or not (viridis).
Colormap forSignedData(bool isSigned);

} // namespace Colormaps

} // namespace posenc
