#include "LessonsCommand.h"

#include "ExitCode.h"

#include "io/Lesson.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

int runLessonsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOption(helpOption);
    if (!parser.parse(arguments) || !parser.positionalArguments().isEmpty()) {
        err << "posenc lessons: "
            << (parser.errorText().isEmpty() ? u"takes no arguments; got "_s + parser.positionalArguments().join(u' ')
                                             : parser.errorText())
            << " (see posenc lessons --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(helpOption)) {
        out << "Usage: posenc lessons\n"
               "Lists the lessons, one line each: NAME, a tab, TITLE. Each answers a question people bring;\n"
               "posenc --lesson NAME opens the window on one, and posenc export --lesson NAME -o FILE\n"
               "writes its figure.\n\n"
               "Options:\n"
               "  -h, --help   show this help\n";
        return ExitDone;
    }
    // A lesson that does not read is a mistake of the build, said rather than hidden.
    for (const SessionError &error : Lessons::errors())
        err << "posenc lessons: " << error.toString() << '\n';
    for (const Lesson &lesson : Lessons::all())
        out << lesson.name << '\t' << lesson.title << '\n';
    return Lessons::errors().isEmpty() ? ExitDone : ExitIo;
}

} // namespace posenc
