#include "Colormap.h"

using namespace Qt::StringLiterals;

namespace posenc::Colormaps {

QStringList names()
{
    return {u"diverging"_s, u"viridis"_s, u"cividis"_s, u"magma"_s};
}

QString name(Colormap map)
{
    return names().at(static_cast<int>(map));
}

std::optional<Colormap> fromName(const QString &name)
{
    const qsizetype index = names().indexOf(name);
    if (index < 0)
        return std::nullopt;
    return static_cast<Colormap>(index);
}

} // namespace posenc::Colormaps
