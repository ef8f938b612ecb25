#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

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
// Our name or an alias of aliases().
std::optional<Colormap> fromName(const QString &name);
// matplotlib's names of our maps where they differ from ours, {matplotlib's, ours}: only where
// our table is exactly matplotlib's (RdBu_r is the diverging map entry for entry; viridis,
// cividis and magma have its names already).
QList<std::pair<QString, QString>> aliases();

} // namespace Colormaps

} // namespace posenc
