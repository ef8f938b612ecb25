#pragma once

#include "ParamOptions.h"

#include "io/Lesson.h"
#include "io/LessonModels.h"

#include <QCommandLineParser>
#include <QString>

#include <optional>
#include <variant>

// --lesson NAME: a lesson's parameters and views, for the window and for posenc export, read for
// the model --preset or --config names (else the lesson's own), every parameter flag given
// overriding them as they override a --session file (docs/ARCHITECTURE.md, Lessons).
namespace posenc::LessonOptions {

inline constexpr char16_t kKey[] = u"lesson";

// --lesson NAME, the lessons' names its values.
CommandOption option();
void add(QCommandLineParser &parser);

// The lesson --lesson names, nothing when it is not given, or the usage error: a name that is
// not a lesson (naming the lessons), or --lesson beside --session.
std::variant<const Lesson *, QString> lesson(const QCommandLineParser &parser);

// The lesson's parameters for its model, and the model: --config's layer type, --preset's, else
// the lesson's own; the model's parameters over the lesson's but those it keeps, then every
// parameter flag given. A model the lesson does not apply to is a usage error in one line
// (Lesson::refusal).
struct Read
{
    ParamOptions::Result result;
    std::optional<ModelChoice> choice; // the model chosen, none for a lesson of its own parameters
    LessonModel model; // the model the parameters are
};
Read read(const QCommandLineParser &parser, const Lesson &lesson, const ParamOptions::Clues &clues = {});

} // namespace posenc::LessonOptions
