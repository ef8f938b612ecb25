#include "LessonNeeds.h"

#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace posenc::LessonNeeds {

std::optional<QString> read(const QJsonValue &needs, QStringList &into)
{
    for (const QJsonValue &need : needs.toArray()) {
        if (!need.isString() || need.toString().isEmpty())
            return u"\"needs\" lists keys, each a text"_s;
        into.append(need.toString());
    }
    return std::nullopt;
}

QStringList missing(const QStringList &needs, const LessonModel &model)
{
    QStringList missing;
    for (const QString &need : needs) {
        const auto number = LessonNumbers::number(need, model, LayerLessonNumbers::entries());
        if (!number || !number->present())
            missing.append(need);
    }
    return missing;
}

} // namespace posenc::LessonNeeds
