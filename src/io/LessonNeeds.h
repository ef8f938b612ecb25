#pragma once

#include "core/LessonModel.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace posenc::LessonNeeds {

// An alternative's "needs" (a lesson's text or its code box): the numbers (LessonNumbers keys) a
// model must have for the alternative to be the one shown, read from its JSON list into `into`;
// the problem, if the list is not one of keys. An absent list needs nothing.
std::optional<QString> read(const QJsonValue &needs, QStringList &into);

// The keys of `needs` this model has no number for, in their order.
QStringList missing(const QStringList &needs, const LessonModel &model);

} // namespace posenc::LessonNeeds
