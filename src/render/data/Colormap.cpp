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

QList<std::pair<QString, QString>> aliases()
{
    return {{u"RdBu_r"_s, u"diverging"_s}};
}

std::optional<Colormap> fromName(const QString &name)
{
    QString ours = name;
    for (const auto &[alias, map] : aliases()) {
        if (alias == name)
            ours = map;
    }
    const qsizetype index = names().indexOf(ours);
    if (index < 0)
        return std::nullopt;
    return static_cast<Colormap>(index);
}

} // namespace posenc::Colormaps
