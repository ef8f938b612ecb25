#include "FigureState.h"

#include <QJsonArray>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<ViewRange> FigureState::range(const QString &axis) const
{
    const auto found = view.constFind(axis);
    return found == view.cend() ? std::nullopt : std::optional(*found);
}

QJsonObject FigureState::toJson() const
{
    QJsonObject json;
    for (auto it = options.cbegin(); it != options.cend(); ++it)
        json.insert(it.key(), it.value());
    for (auto it = view.cbegin(); it != view.cend(); ++it)
        json.insert(it.key(), QJsonArray {it->lower, it->upper});
    return json;
}

FigureState FigureState::fromJson(const QJsonObject &json)
{
    FigureState state;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.key() == u"figure"_s)
            continue;
        if (it->isString()) {
            state.options.insert(it.key(), it->toString());
            continue;
        }
        const QJsonArray pair = it->toArray();
        if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble())
            continue;
        const ViewRange range {pair[0].toDouble(), pair[1].toDouble()};
        if (std::isfinite(range.lower) && std::isfinite(range.upper) && range.lower < range.upper)
            state.view.insert(it.key(), range);
    }
    return state;
}

} // namespace posenc
