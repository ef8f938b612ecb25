#include "LessonsCommand.h"

#include "CommandOption.h"
#include "ExitCode.h"
#include "NoArguments.h"

#include "io/Lesson.h"

using namespace Qt::StringLiterals;

namespace posenc {

HelpPage lessonsHelp()
{
    HelpPage page;
    page.topic = u"lessons"_s;
    page.usage = {u"posenc lessons"_s};
    page.section().paragraph(u"Lists the lessons, one line each: NAME, a tab, TITLE. Each answers a question people "
                             "bring; posenc --lesson NAME opens the window on one, and posenc export --lesson NAME -o "
                             "FILE writes its figure."_s);
    page.section(u"Options"_s).items({{CommandOptions::help().spelling(), CommandOptions::help().help}});
    page.section(u"Examples"_s)
        .examples({{u"posenc lessons"_s, u"the lessons, NAME<TAB>TITLE"_s},
                   {u"posenc --lesson why-sqrt-d"_s, u"the window on a lesson"_s},
                   {u"posenc --lesson why-sqrt-d --d-model 64"_s, u"flags override its parameters"_s}});
    return page;
}

int runLessonsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    if (const auto done = readNoArguments(u"lessons"_s, arguments, lessonsHelp(), out, err))
        return *done;
    // A lesson that does not read is a mistake of the build, said rather than hidden.
    for (const SessionError &error : Lessons::errors())
        err << "posenc lessons: " << error.toString() << '\n';
    for (const Lesson &lesson : Lessons::all())
        out << lesson.name << '\t' << lesson.title << '\n';
    return Lessons::errors().isEmpty() ? ExitDone : ExitIo;
}

} // namespace posenc
