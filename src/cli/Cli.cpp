#include "Cli.h"

#include "Commands.h"
#include "ExitCode.h"
#include "HelpCommand.h"
#include "HelpText.h"

#include "core/MemoryBudget.h"
#include "core/TableAllocation.h"

#include <new>

using namespace Qt::StringLiterals;

namespace posenc {

bool isSubcommand(const QStringList &arguments)
{
    return arguments.size() > 1 && Commands::find(arguments[1]);
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
    const Command *command = arguments.size() > 1 ? Commands::find(arguments[1]) : nullptr;
    if (!command) {
        const bool help = arguments.size() > 1 && (arguments[1] == u"--help"_s || arguments[1] == u"-h"_s);
        if (help)
            out << HelpText::render(shortHelp(), HelpText::width());
        else
            err << "posenc: the commands are " << Commands::names().join(u", "_s) << " (see posenc --help)\n";
        return help ? ExitDone : ExitUsage;
    }
    // Each subcommand parses its own arguments, with the program name in front as Qt expects.
    QStringList rest = arguments;
    rest.removeAt(1);
    return runWithinMemory(u"posenc "_s + command->name, err, [&] { return command->run(rest, out, err); });
}

} // namespace posenc
