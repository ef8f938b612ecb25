#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

// The colormaps of the program, matplotlib's tables: a diverging map centred on zero for signed
// data, perceptually uniform maps for magnitudes and fractions (Colormaps in src/render draws them).
enum class Colormap {
    Diverging, // ColorBrewer RdBu reversed (matplotlib's RdBu_r): blue below zero, white at zero, red above
    Viridis,
    Cividis,
    Magma,
};

namespace Colormaps {

QStringList names();
QString name(Colormap map);
std::optional<Colormap> fromName(const QString &name);

} // namespace Colormaps

} // namespace posenc
