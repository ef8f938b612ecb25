#include "Cli.h"

#include "BenchCommand.h"
#include "CheckCommand.h"
#include "DescribeCommand.h"
#include "ExitCode.h"
#include "ExportCommand.h"
#include "LessonsCommand.h"
#include "ParamOptions.h"
#include "PresetsCommand.h"
#include "TableCommand.h"

#include "core/MemoryBudget.h"
#include "core/TableAllocation.h"

#include <new>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QStringList kSubcommands
    = {u"export"_s, u"table"_s, u"bench"_s, u"lessons"_s, u"presets"_s, u"describe"_s, u"check"_s};

} // namespace

bool isSubcommand(const QStringList &arguments)
{
    return arguments.size() > 1 && kSubcommands.contains(arguments[1]);
}

QString cliUsage()
{
    return u"PosEnc Explorer: a transformer's positional encoding, its embeddings and dropout, computed exactly.\n\n"
           "Usage:\n"
           "  posenc [OPTIONS]                          open the explorer window with these parameters\n"
           "  posenc export FIGURE -o FILE [OPTIONS]   draw a figure (.png, .svg or .pdf); see posenc export --help\n"
           "  posenc table QUANTITY -o FILE [OPTIONS]   write a table (.npy or .csv); see posenc table --help\n"
           "  posenc bench [--json]                     run the kernel and interaction benchmarks\n"
           "  posenc lessons                            list the lessons, NAME<TAB>TITLE\n"
           "  posenc --lesson NAME [OPTIONS]            open the window on a lesson\n"
           "  posenc presets                            list the presets, NAME<TAB>TITLE<TAB>SOURCE\n"
           "  posenc --preset NAME [OPTIONS]            the preset's parameters, here or with any subcommand\n"
           "  posenc describe [--json] [OPTIONS]        the derived numbers of %1\n"
           "  posenc check FILE[:TENSOR] [--json]       what a table of positions computes, and its mistake\n"
           "  posenc check --config FILE [--json]       what a model's config.json computes, and its mistakes\n\n"
           "Parameters (for every subcommand):\n%2"_s.arg(DescribeCommand::describedFamilies(),
                                                          ParamOptions::helpText());
}

int runWithinMemory(const QString &command, QTextStream &err, const std::function<int()> &work)
{
    // Memory the budget allowed but the system would not give ends the command with exit 4
    // and its size, not with an abort. Nothing was written: files are replaced only whole.
    try {
        return work();
    } catch (const TableAllocationFailed &failed) {
        err << command << ": " << failed.message() << '\n';
    } catch (const std::bad_alloc &) {
        err << command << ": the system could not give the memory asked for; this machine has "
            << MemoryBudget::formatGiB(MemoryBudget::physicalMemory()) << " of memory, and not all of it free\n";
    }
    return ExitOverBudget;
}

int runCli(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    if (!isSubcommand(arguments)) {
        const bool help = arguments.size() > 1 && (arguments[1] == u"--help"_s || arguments[1] == u"-h"_s);
        (help ? out : err) << cliUsage();
        return help ? ExitDone : ExitUsage;
    }
    // Each subcommand parses its own arguments, with the program name in front as Qt expects.
    QStringList rest = arguments;
    const QString command = rest.takeAt(1);
    return runWithinMemory(u"posenc "_s + command, err, [&] {
        if (command == u"export"_s)
            return runExportCommand(rest, out, err);
        if (command == u"table"_s)
            return runTableCommand(rest, out, err);
        if (command == u"lessons"_s)
            return runLessonsCommand(rest, out, err);
        if (command == u"presets"_s)
            return runPresetsCommand(rest, out, err);
        if (command == u"describe"_s)
            return runDescribeCommand(rest, out, err);
        if (command == u"check"_s)
            return runCheckCommand(rest, out, err);
        return runBenchCommand(rest, out, err);
    });
}

} // namespace posenc
