#include "Commands.h"

#include "BenchCommand.h"
#include "CheckCommand.h"
#include "DescribeCommand.h"
#include "ExportCommand.h"
#include "HelpCommand.h"
#include "LessonOptions.h"
#include "LessonsCommand.h"
#include "ParamOptions.h"
#include "PresetsCommand.h"
#include "TableCommand.h"
#include "WindowArguments.h"

#include "render/FigureRegistry.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<CommandOption> Command::allOptions() const
{
    QList<CommandOption> all = options();
    if (takesParameters)
        all += ParamOptions::options();
    if (takesLesson)
        all.append(LessonOptions::option());
    return all;
}

namespace Commands {

namespace {

QList<CommandOption> helpOnly()
{
    return {CommandOptions::help()};
}

} // namespace

const QList<Command> &all()
{
    static const QList<Command> commands {
        {u"export"_s, u"draw a figure headless: .png, .svg or .pdf"_s, exportOptions, true, true,
         CommandArgument {u"FIGURE"_s, FigureRegistry::names, false}, exportHelp, runExportCommand},
        {u"table"_s, u"write a table: .npy, .csv or .safetensors"_s, tableOptions, true, false,
         CommandArgument {u"QUANTITY"_s, tableArguments, false}, tableHelp, runTableCommand},
        {u"check"_s, u"check your table, or a model's config.json"_s, checkOptions, false, false,
         CommandArgument {u"FILE[:TENSOR]"_s, {}, true}, checkHelp, runCheckCommand},
        {u"describe"_s, u"a family's numbers as its reference gives them"_s, describeOptions, true, false, std::nullopt,
         describeHelp, runDescribeCommand},
        {u"lessons"_s, u"list the lessons, or one's text for a model"_s, lessonsOptions, true, false,
         CommandArgument {u"NAME"_s, Lessons::names, false}, lessonsHelp, runLessonsCommand},
        {u"presets"_s, u"list the presets: NAME<TAB>TITLE<TAB>SOURCE"_s, helpOnly, false, false, std::nullopt,
         presetsHelp, runPresetsCommand},
        {u"bench"_s, u"the kernel and interaction benchmarks"_s, benchOptions, true, false, std::nullopt, benchHelp,
         runBenchCommand},
        {u"help"_s, u"a command's help, the man page, completions"_s, helpOptions, false, false,
         CommandArgument {u"TOPIC"_s, helpTopics, false}, helpHelp, runHelpCommand},
    };
    return commands;
}

const Command *find(const QString &name)
{
    for (const Command &command : all()) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

QStringList names()
{
    QStringList list;
    for (const Command &command : all())
        list.append(command.name);
    return list;
}

const Command &window()
{
    static const Command command {QString(), u"open the window with these parameters"_s, windowOptions, true,
                                  true,      CommandArgument {u"FILE"_s, {}, true},      windowHelp,    nullptr};
    return command;
}

} // namespace Commands

} // namespace posenc
