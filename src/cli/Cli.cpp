#include "Cli.h"

#include "BenchCommand.h"
#include "ExitCode.h"
#include "ExportCommand.h"
#include "ParamOptions.h"
#include "TableCommand.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QStringList kSubcommands = {u"export"_s, u"table"_s, u"bench"_s};

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
           "  posenc bench [--json]                     run the kernel and interaction benchmarks\n\n"
           "Parameters (for every subcommand):\n%1"_s.arg(ParamOptions::helpText());
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
    if (command == u"export"_s)
        return runExportCommand(rest, out, err);
    if (command == u"table"_s)
        return runTableCommand(rest, out, err);
    return runBenchCommand(rest, out, err);
}

} // namespace posenc
