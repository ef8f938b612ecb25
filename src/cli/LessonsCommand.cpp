#include "LessonsCommand.h"

#include "ExitCode.h"
#include "NoArguments.h"

#include "io/Lesson.h"

using namespace Qt::StringLiterals;

namespace posenc {

int runLessonsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    const QString help = u"Usage: posenc lessons\n"
                         "Lists the lessons, one line each: NAME, a tab, TITLE. Each answers a question people bring;\n"
                         "posenc --lesson NAME opens the window on one, and posenc export --lesson NAME -o FILE\n"
                         "writes its figure.\n\n"
                         "Options:\n"
                         "  -h, --help   show this help\n"_s;
    if (const auto done = readNoArguments(u"lessons"_s, arguments, help, out, err))
        return *done;
    // A lesson that does not read is a mistake of the build, said rather than hidden.
    for (const SessionError &error : Lessons::errors())
        err << "posenc lessons: " << error.toString() << '\n';
    for (const Lesson &lesson : Lessons::all())
        out << lesson.name << '\t' << lesson.title << '\n';
    return Lessons::errors().isEmpty() ? ExitDone : ExitIo;
}

} // namespace posenc
