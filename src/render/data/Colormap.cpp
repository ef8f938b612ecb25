#include "Colormap.h"

using namespace Qt::StringLiterals;

namespace posenc::Colormaps {

namespace {

// Each table, in the order of Colormap::Table, by our name and by matplotlib's.
struct TableNames
{
    Colormap::Table table;
    QString ours;
    QString matplotlibs;
};

const QList<TableNames> &tables()
{
    static const QList<TableNames> list {
        {Colormap::Table::Diverging, u"diverging"_s, u"RdBu_r"_s},
        {Colormap::Table::Viridis, u"viridis"_s, u"viridis"_s},
        {Colormap::Table::Cividis, u"cividis"_s, u"cividis"_s},
        {Colormap::Table::Magma, u"magma"_s, u"magma"_s},
        {Colormap::Table::Coolwarm, u"coolwarm"_s, u"coolwarm"_s},
    };
    return list;
}

// matplotlib's rule for the name of a map's reverse (Colormap.reversed, cm.py): NAME_r of NAME,
// NAME of NAME_r.
QString reversedName(const QString &name)
{
    return name.endsWith(u"_r"_s) ? name.chopped(2) : name + u"_r"_s;
}

} // namespace

QList<Colormap> all()
{
    QList<Colormap> maps;
    for (const bool reversed : {false, true}) {
        for (const TableNames &t : tables())
            maps.append(Colormap {t.table, reversed});
    }
    return maps;
}

QStringList names()
{
    QStringList list;
    for (const Colormap map : all())
        list.append(name(map));
    return list;
}

QString optionValueName(const QString &automatic)
{
    QStringList words {automatic};
    for (const Colormap map : all()) {
        if (!map.reversed)
            words.append(name(map));
    }
    return words.join(u'|') + u"[_r]"_s;
}

QString reversedHelp()
{
    return u"NAME_r is the map reversed, as matplotlib names it"_s;
}

QString name(Colormap map)
{
    for (const TableNames &t : tables()) {
        if (t.table == map.table)
            return map.reversed ? reversedName(t.ours) : t.ours;
    }
    return {};
}

QList<std::pair<QString, QString>> aliases()
{
    QList<std::pair<QString, QString>> list;
    for (const TableNames &t : tables()) {
        if (t.matplotlibs == t.ours)
            continue;
        list.append({t.matplotlibs, t.ours});
        list.append({reversedName(t.matplotlibs), reversedName(t.ours)});
    }
    return list;
}

std::optional<Colormap> fromName(const QString &name)
{
    QString ours = name;
    for (const auto &[alias, map] : aliases()) {
        if (alias == name)
            ours = map;
    }
    for (const Colormap map : all()) {
        if (Colormaps::name(map) == ours)
            return map;
    }
    return std::nullopt;
}

} // namespace posenc::Colormaps
