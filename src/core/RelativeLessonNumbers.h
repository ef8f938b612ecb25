#pragma once

#include "LessonNumbers.h"

#include <QList>
#include <QString>

#include <functional>

namespace posenc {

// The numbers the lessons of ALiBi, T5, DeBERTa and the five families quote (docs/ARCHITECTURE.md,
// Lessons), each from the reference functions or a closed form, for any encoding: a family's
// numbers read its group of the parameters, chosen or not, and say why there is none where its
// settings cannot give one. LessonNumbers lists them after its own.
namespace RelativeLessonNumbers {

struct Entry
{
    QString key;
    QString description;
    std::function<LessonNumbers::Number(const Params &)> value;
};

const QList<Entry> &entries();

} // namespace RelativeLessonNumbers

} // namespace posenc
