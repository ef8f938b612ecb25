#include "Colormaps.h"

#include "ColormapTables.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::Colormaps {

namespace {

const ColormapTables::Table &table(Colormap::Table which)
{
    switch (which) {
    case Colormap::Table::Diverging:
        return ColormapTables::kDiverging;
    case Colormap::Table::Viridis:
        return ColormapTables::kViridis;
    case Colormap::Table::Cividis:
        return ColormapTables::kCividis;
    case Colormap::Table::Magma:
        return ColormapTables::kMagma;
    case Colormap::Table::Coolwarm:
        return ColormapTables::kCoolwarm;
    }
    return ColormapTables::kViridis;
}

// Entry i of the map: of its table, or from the table's other end where the map is reversed, as
// matplotlib's NAME_r is NAME's lookup table backwards (Colormap.reversed, cm.py).
const std::array<double, 3> &entry(Colormap map, std::size_t i)
{
    const ColormapTables::Table &entries = table(map.table);
    return entries[map.reversed ? entries.size() - 1 - i : i];
}

// The nearest 8-bit colour to a table entry.
QColor entryColor(const std::array<double, 3> &entry)
{
    const auto channel = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); };
    return QColor(channel(entry[0]), channel(entry[1]), channel(entry[2]));
}

// matplotlib's table as it is: value t of the range takes entry floor(256 t) (the last entry
// at t = 1). QCPColorGradient takes level floor(t (n - 1)) of n levels, each level interpolated
// between stops; with 257 levels at k/256, a power of two, the stops sit exactly on the levels
// (docs/ARCHITECTURE.md, Colour maps).
QCPColorGradient makeGradient(Colormap map, const QColor &notNumber)
{
    const int size = static_cast<int>(std::tuple_size_v<ColormapTables::Table>);
    QMap<double, QColor> stops;
    for (int i = 0; i < size; ++i)
        stops.insert(i * (1.0 / size), entryColor(entry(map, static_cast<std::size_t>(i))));
    stops.insert(1.0, entryColor(entry(map, static_cast<std::size_t>(size - 1))));
    QCPColorGradient g;
    g.setColorStops(stops);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(size + 1);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(notNumber);
    g.color(0.0, QCPRange(0.0, 1.0)); // makes the levels' colours, which copies share
    return g;
}

// Made once a map and a colour of no number, its levels' colours too (copies share them).
QCPColorGradient madeGradient(Colormap map, bool masked)
{
    static const QList<std::pair<Colormap, std::array<QCPColorGradient, 2>>> made = [] {
        QList<std::pair<Colormap, std::array<QCPColorGradient, 2>>> list;
        for (const Colormap each : all())
            list.append({each, {makeGradient(each, notNumberColor()), makeGradient(each, maskedColor())}});
        return list;
    }();
    for (const auto &[each, itsGradients] : made) {
        if (each == map)
            return itsGradients[masked ? 1 : 0];
    }
    return made.front().second[masked ? 1 : 0];
}

} // namespace

// Made once a map, its levels' colours too (copies share them): every heatmap panel sets its
// gradient at every filling, and making the 257 stops anew was an eighth of a panel's filling.
QCPColorGradient gradient(Colormap map)
{
    return madeGradient(map, false);
}

QCPColorGradient maskedGradient(Colormap map)
{
    return madeGradient(map, true);
}

QColor maskedColor()
{
    return QColor(150, 150, 150);
}

QColor notNumberColor()
{
    return QColor(255, 0, 255);
}

QColor colorAt(Colormap map, double t)
{
    constexpr std::size_t size = std::tuple_size_v<ColormapTables::Table>;
    const double clamped = std::isnan(t) ? 0.0 : std::clamp(t, 0.0, 1.0);
    const auto index = std::min(static_cast<std::size_t>(clamped * static_cast<double>(size)), size - 1);
    return entryColor(entry(map, index));
}

Colormap forSignedData(bool isSigned)
{
    return isSigned ? Colormap::Diverging : Colormap::Viridis;
}

} // namespace posenc::Colormaps
