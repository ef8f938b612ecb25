#include "AlibiPlot.h"

#include "render/Colormaps.h"

#include <algorithm>
#include <cmath>

namespace posenc::AlibiPlot {

QColor slopeColor(double slope, double steepest, double gentlest)
{
    // Viridis up to 0.8: its last fifth is too light on white.
    const double span = std::log2(steepest / gentlest);
    const double t = span > 0.0 ? 0.8 * std::log2(steepest / slope) / span : 0.0;
    return Colormaps::colorAt(Colormap::Viridis, std::clamp(t, 0.0, 0.8));
}

QPen headPen(double slope, double steepest, double gentlest, bool chosen)
{
    return QPen(slopeColor(slope, steepest, gentlest), chosen ? 2.6 : 1.3);
}

} // namespace posenc::AlibiPlot
