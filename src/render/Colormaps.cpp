#include "Colormaps.h"

#include <algorithm>
#include <array>
#include <span>

using namespace Qt::StringLiterals;

namespace posenc::Colormaps {

namespace {

// Evenly spaced samples of each map, from its published table (matplotlib's viridis and
// cividis, ColorBrewer's RdBu); QCPColorGradient interpolates between them.
constexpr std::array<QRgb, 11> kDiverging
    = {0x053061, 0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b, 0x67001f};
constexpr std::array<QRgb, 11> kViridis
    = {0x440154, 0x482475, 0x414487, 0x355f8d, 0x2a788e, 0x21918c, 0x22a884, 0x44bf70, 0x7ad151, 0xbddf26, 0xfde725};
constexpr std::array<QRgb, 11> kCividis
    = {0x00224e, 0x083370, 0x35456c, 0x4f576c, 0x666970, 0x7d7c78, 0x948e77, 0xaea371, 0xc8b866, 0xe5cf52, 0xfee838};

std::span<const QRgb> samples(Colormap map)
{
    switch (map) {
    case Colormap::Diverging:
        return kDiverging;
    case Colormap::Viridis:
        return kViridis;
    case Colormap::Cividis:
        return kCividis;
    }
    return kViridis;
}

} // namespace

QCPColorGradient gradient(Colormap map)
{
    const std::span<const QRgb> rgb = samples(map);
    QMap<double, QColor> stops;
    for (std::size_t i = 0; i < rgb.size(); ++i)
        stops.insert(static_cast<double>(i) / static_cast<double>(rgb.size() - 1), QColor::fromRgb(rgb[i]));
    QCPColorGradient g;
    g.setColorStops(stops);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(512);
    return g;
}

QColor colorAt(Colormap map, double t)
{
    QCPColorGradient g = gradient(map);
    double value = std::clamp(t, 0.0, 1.0);
    QRgb rgb = 0;
    g.colorize(&value, QCPRange(0.0, 1.0), &rgb, 1);
    return QColor::fromRgb(rgb);
}

Colormap forSignedData(bool isSigned)
{
    return isSigned ? Colormap::Diverging : Colormap::Viridis;
}

} // namespace posenc::Colormaps
