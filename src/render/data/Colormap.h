#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

// The colormaps of the program: a diverging map centred on zero for signed data, perceptually
// uniform maps for magnitudes and fractions (Colormaps in src/render draws them).
enum class Colormap {
    Diverging, // ColorBrewer RdBu reversed: blue below zero, white at zero, red above
    Viridis,
    Cividis,
};

namespace Colormaps {

QStringList names();
QString name(Colormap map);
std::optional<Colormap> fromName(const QString &name);

} // namespace Colormaps

} // namespace posenc
