#include "LessonOptions.h"

using namespace Qt::StringLiterals;

namespace posenc::LessonOptions {

CommandOption option()
{
    return {{QString::fromUtf16(kKey)},
            u"NAME"_s,
            u"a lesson's parameters and views (posenc lessons lists them); parameter flags override them"_s,
            Lessons::names()};
}

void add(QCommandLineParser &parser)
{
    CommandOptions::add(parser, {option()});
}

std::variant<const Lesson *, QString> lesson(const QCommandLineParser &parser)
{
    const QString key = QString::fromUtf16(kKey);
    if (!parser.isSet(key))
        return static_cast<const Lesson *>(nullptr);
    const QString name = parser.values(key).constLast();
    const Lesson *found = Lessons::find(name);
    if (!found)
        return u"--lesson: must be one of %1 (posenc lessons lists them); got %2"_s.arg(Lessons::names().join(u", "_s),
                                                                                        ParamError::quoted(name));
    if (parser.isSet(u"session"_s))
        return u"--lesson, --session: give one of them; each sets every parameter"_s;
    if (parser.isSet(u"preset"_s))
        return u"--lesson, --preset: give one of them; parameter flags override either"_s;
    if (parser.isSet(u"config"_s))
        return u"--lesson, --config: give one of them; parameter flags override either"_s;
    return found;
}

ParamOptions::Result read(const QCommandLineParser &parser, const Lesson &lesson, const ParamOptions::Clues &clues)
{
    return ParamOptions::read(parser, lesson.session.params, u"the lesson %1"_s.arg(lesson.name), clues);
}

} // namespace posenc::LessonOptions
