#pragma once

#include "ParamOptions.h"

#include "io/Lesson.h"

#include <QCommandLineParser>
#include <QString>

#include <variant>

// --lesson NAME: a lesson's parameters and views, for the window and for posenc export, every
// parameter flag given overriding the lesson's as they override a --session file.
namespace posenc::LessonOptions {

inline constexpr char16_t kKey[] = u"lesson";

// --lesson NAME, the lessons' names its values.
CommandOption option();
void add(QCommandLineParser &parser);

// The lesson --lesson names, nothing when it is not given, or the usage error: a name that is
// not a lesson (naming the lessons), or --lesson beside --session or --preset.
std::variant<const Lesson *, QString> lesson(const QCommandLineParser &parser);

// The lesson's parameters over the defaults, then every parameter flag given.
ParamOptions::Result read(const QCommandLineParser &parser, const Lesson &lesson,
                          const ParamOptions::Clues &clues = {});

} // namespace posenc::LessonOptions
