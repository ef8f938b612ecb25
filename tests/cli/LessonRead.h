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

#include <optional>

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

// Its items in plain words, one space apart, so that no sentence runs into the next item's.
inline QString textOf(const posenc::Lesson &lesson, const posenc::LessonOptions::Read &r)
{
    return itemsOf(lesson, r.model).join(u' ');
}

// The lesson's model read for `arguments`, or nothing where the lesson does not apply (it says so in
// one line).
inline std::optional<posenc::LessonModel> modelFor(const posenc::Lesson &lesson, const QStringList &arguments)
{
    const posenc::LessonOptions::Read r = readFor(lesson, arguments);
    if (r.result.exitCode() != 0 || !r.result.usage.isEmpty())
        return std::nullopt;
    return r.model;
}

} // namespace LessonRead
