#include "Cli.h"

#include "Commands.h"
#include "ExitCode.h"
#include "HelpCommand.h"
#include "HelpText.h"

#include "core/MemoryBudget.h"
#include "core/TableAllocation.h"

#include <QSet>

#include <new>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Every option that takes a value, in any command or the window: "output", "o", "d-model".
const QSet<QString> &optionsWithValues()
{
    static const QSet<QString> names = [] {
        QSet<QString> found;
        QList<const Command *> commands {&Commands::window()};
        for (const Command &command : Commands::all())
            commands.append(&command);
        for (const Command *command : commands) {
            for (const CommandOption &option : command->allOptions()) {
                if (!option.valueName.isEmpty())
                    found.unite(QSet<QString>(option.names.begin(), option.names.end()));
            }
        }
        return found;
    }();
    return names;
}

} // namespace

bool takesNextAsValue(const QString &argument)
{
    if (!argument.startsWith(u'-') || argument.size() < 2)
        return false;
    const QString name = argument.mid(argument.startsWith(u"--"_s) ? 2 : 1);
    return !name.contains(u'=') && optionsWithValues().contains(name);
}

QStringList commandFirst(const QStringList &arguments)
{
    QStringList read {arguments.value(0)};
    // From "-:TENSOR" on (a tensor of standard input, which a parser would take for an option),
    // the positional arguments, in their order, after "--".
    QStringList positionalTail;
    std::optional<qsizetype> command;
    bool positionalSeen = false;
    qsizetype i = 1;
    for (; i < arguments.size(); ++i) {
        const QString &argument = arguments[i];
        if (argument == u"--"_s)
            break;
        const bool option = argument.startsWith(u'-') && argument.size() > 1 && !argument.startsWith(u"-:"_s);
        if (!option && (argument.startsWith(u"-:"_s) || !positionalTail.isEmpty())) {
            positionalTail.append(argument);
            positionalSeen = true;
            continue;
        }
        read.append(argument);
        if (option) {
            // "--name=value" holds its value; "--name value" takes the next argument.
            if (takesNextAsValue(argument) && i + 1 < arguments.size())
                read.append(arguments[++i]);
            continue;
        }
        // The first word that is no option's value: the command, or the window's first FILE.
        if (!positionalSeen && Commands::find(argument))
            command = read.size() - 1;
        positionalSeen = true;
    }
    if (command)
        read.move(*command, 1);
    if (!positionalTail.isEmpty() || i < arguments.size()) {
        read.append(u"--"_s);
        read += positionalTail;
        read += arguments.mid(i + 1);
    }
    return read;
}

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

int runCli(const QStringList &given, QTextStream &out, QTextStream &err)
{
    const QStringList arguments = commandFirst(given);
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
