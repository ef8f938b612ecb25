#pragma once

#include <array>

namespace posenc::ColormapTables {

// matplotlib's lookup table of a colour map: 256 entries of red, green, blue in [0, 1], entry i
// for the data in [i/256, (i+1)/256) of the range (ColormapTables.cpp, generated).
using Table = std::array<std::array<double, 3>, 256>;

extern const Table kDiverging;
extern const Table kViridis;
extern const Table kCividis;
extern const Table kMagma;
extern const Table kCoolwarm;

} // namespace posenc::ColormapTables
