#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace posenc {

// The colormaps of the program, matplotlib's tables: a diverging map centred on zero for signed
// data, perceptually uniform maps for magnitudes and fractions, each also reversed, as matplotlib
// names a map's reverse NAME_r (Colormaps in src/render draws them; docs/ARCHITECTURE.md, Colour maps).
struct Colormap
{
    enum class Table {
        Diverging, // ColorBrewer RdBu reversed (matplotlib's RdBu_r): blue below zero, white at zero, red above
        Viridis,
        Cividis,
        Magma,
        Coolwarm, // Moreland's diverging map (matplotlib's coolwarm): blue below, light grey at zero, red above
    };
    Table table = Table::Viridis;
    bool reversed = false; // the table's last entry at the low end of the data range

    static const Colormap Diverging;
    static const Colormap Viridis;
    static const Colormap Cividis;
    static const Colormap Magma;
    static const Colormap Coolwarm;

    // The same table the other way round: viridis_r of viridis, viridis of viridis_r.
    constexpr Colormap flipped() const { return {table, !reversed}; }
    friend bool operator==(const Colormap &, const Colormap &) = default;
};

inline constexpr Colormap Colormap::Diverging {Colormap::Table::Diverging, false};
inline constexpr Colormap Colormap::Viridis {Colormap::Table::Viridis, false};
inline constexpr Colormap Colormap::Cividis {Colormap::Table::Cividis, false};
inline constexpr Colormap Colormap::Magma {Colormap::Table::Magma, false};
inline constexpr Colormap Colormap::Coolwarm {Colormap::Table::Coolwarm, false};

namespace Colormaps {

// Every map by its name: each table's, then each reversed (NAME_r), as the window lists them.
QStringList names();
QString name(Colormap map);
// Every map.
QList<Colormap> all();
// The value name of an option that takes a map, its own word for the figure's map first:
// "auto|diverging|viridis|cividis|magma|coolwarm[_r]".
QString optionValueName(const QString &automatic);
// What an option's help says of the reversed maps.
QString reversedHelp();
// Our name or an alias of aliases().
std::optional<Colormap> fromName(const QString &name);
// matplotlib's names of our maps where they differ from ours, {matplotlib's, ours}: only where
// our table is exactly matplotlib's (RdBu_r is the diverging map entry for entry, and so RdBu its
// reverse; viridis, cividis, magma and coolwarm have its names already).
QList<std::pair<QString, QString>> aliases();

} // namespace Colormaps

} // namespace posenc
