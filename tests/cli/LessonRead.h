#pragma once

// A lesson read for the model its command-line arguments name, as `posenc lessons NAME ...` reads it,
// and its text as plain words: the lesson tests' one way in (tst_lessonclasses, tst_lessonpremises,
// tst_lessonwording, tst_lessonaudit, tst_lessonattention).
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"

#include "io/Lesson.h"
#include "io/LessonText.h"

#include <QCommandLineParser>
#include <QStringList>

namespace LessonRead {

inline posenc::LessonOptions::Read readFor(const posenc::Lesson &lesson, const QStringList &arguments)
{
    QCommandLineParser parser;
    posenc::ParamOptions::add(parser);
    if (!parser.parse(QStringList {QStringLiteral("posenc")} + arguments))
        return {};
    return posenc::LessonOptions::read(parser, lesson);
}

// Its items (the window's bullets), each as plain words.
inline QStringList itemsOf(const posenc::Lesson &lesson, const posenc::LessonModel &model)
{
    QStringList items;
    for (const QString &item : lesson.explain(model).items)
        items.append(posenc::LessonText::plain(item));
    return items;
}

inline QString textOf(const posenc::Lesson &lesson, const posenc::LessonOptions::Read &r)
{
    return posenc::LessonText::plain(lesson.explain(r.model).html);
}

} // namespace LessonRead
