#include "Completions.h"

#include "Commands.h"

#include <QList>
#include <QMap>

using namespace Qt::StringLiterals;

namespace posenc::Completions {

namespace {

// The window, then every command: each completes its own options and argument.
QList<const Command *> everyCommand()
{
    QList<const Command *> commands {&Commands::window()};
    for (const Command &command : Commands::all())
        commands.append(&command);
    return commands;
}

QList<CommandOption> shownOptions(const Command &command)
{
    QList<CommandOption> shown;
    for (const CommandOption &option : command.allOptions()) {
        if (!option.hidden)
            shown.append(option);
    }
    return shown;
}

QStringList dashedNames(const CommandOption &option)
{
    QStringList names;
    for (const QString &name : option.names)
        names.append((name.size() == 1 ? u"-"_s : u"--"_s) + name);
    return names;
}

// A line of help short enough for a completion menu: up to the first ';' or, past 60
// characters, the last whole word before them.
QString shortDescription(const QString &help)
{
    QString text = help.simplified();
    if (const qsizetype semicolon = text.indexOf(u';'); semicolon > 0)
        text.truncate(semicolon);
    constexpr qsizetype kMax = 60;
    if (text.size() > kMax) {
        const qsizetype space = text.lastIndexOf(u' ', kMax);
        text = text.left(space > 0 ? space : kMax) + u"..."_s;
    }
    return text;
}

// `text` inside single quotes of a POSIX shell or of fish.
QString singleQuoted(const QString &text, bool fish)
{
    QString quoted = text;
    if (fish)
        quoted.replace(u'\\', u"\\\\"_s).replace(u'\'', u"\\'"_s);
    else
        quoted.replace(u'\'', u"'\\''"_s);
    return u'\'' + quoted + u'\'';
}

// --- bash ---

// The arm of `case $prev` that completes an option's value: files, its words, or nothing to
// offer (a number or a text the user types).
QString bashValueAction(const CommandOption &option)
{
    // A path or a word (--config FILE or an example's name): both offered.
    if (option.completesFiles && !option.values.isEmpty())
        return u"COMPREPLY=($(compgen -f -W %1 -- \"$cur\")); return ;;"_s.arg(
            singleQuoted(option.values.join(u' '), false));
    if (option.completesFiles)
        return u"COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"_s;
    if (!option.values.isEmpty())
        return u"COMPREPLY=($(compgen -W %1 -- \"$cur\")); return ;;"_s.arg(
            singleQuoted(option.values.join(u' '), false));
    return u"return ;;"_s;
}

QStringList bashCommandArm(const Command &command)
{
    QStringList lines;
    // Options that take a value, grouped by what completes it.
    QMap<QString, QStringList> byAction;
    QStringList words;
    for (const CommandOption &option : shownOptions(command)) {
        words += dashedNames(option);
        if (!option.valueName.isEmpty())
            byAction[bashValueAction(option)] += dashedNames(option);
    }
    lines << u"            case $prev in"_s;
    for (auto it = byAction.cbegin(); it != byAction.cend(); ++it)
        lines << u"                %1) %2"_s.arg(it.value().join(u'|'), it.key());
    lines << u"            esac"_s << u"            if [[ $cur == -* ]]; then"_s
          << u"                COMPREPLY=($(compgen -W %1 -- \"$cur\"))"_s.arg(singleQuoted(words.join(u' '), false));
    QStringList argument;
    if (command.name.isEmpty())
        argument << u"$(compgen -W %1 -- \"$cur\")"_s.arg(singleQuoted(Commands::names().join(u' '), false));
    if (command.argument && command.argument->values)
        argument << u"$(compgen -W %1 -- \"$cur\")"_s.arg(singleQuoted(command.argument->values().join(u' '), false));
    if (command.argument && command.argument->completesFiles)
        argument << u"$(compgen -f -- \"$cur\")"_s;
    if (!argument.isEmpty())
        lines << u"            else"_s << u"                COMPREPLY=(%1)"_s.arg(argument.join(u' '));
    lines << u"            fi"_s << u"            ;;"_s;
    return lines;
}

// --- zsh ---

// A description inside _arguments' brackets: its brackets and backslashes escaped; a message or a
// command's description, where a colon ends the field, its colons too.
QString zshEscaped(const QString &text, bool colons = true)
{
    QString escaped = text;
    escaped.replace(u'\\', u"\\\\"_s).replace(u'[', u"\\["_s).replace(u']', u"\\]"_s);
    if (colons)
        escaped.replace(u':', u"\\:"_s);
    return escaped;
}

QString zshSpec(const CommandOption &option)
{
    QString action;
    if (option.completesFiles && !option.values.isEmpty())
        action = u"{_files; compadd -- %1}"_s.arg(option.values.join(u' '));
    else if (option.completesFiles)
        action = u"_files"_s;
    else if (!option.values.isEmpty())
        action = u"(%1)"_s.arg(option.values.join(u' '));
    else
        action = u" "_s;
    const QString value
        = option.valueName.isEmpty() ? QString() : u":%1:%2"_s.arg(zshEscaped(option.valueName), action);
    const QString description = u"[%1]"_s.arg(zshEscaped(shortDescription(option.help), false));
    const QStringList names = dashedNames(option);
    if (names.size() == 1)
        return singleQuoted(names.front() + description + value, false);
    // Exclusive alternatives: '(-o --output)'{-o,--output}'[...]...'.
    return singleQuoted(u"(%1)"_s.arg(names.join(u' ')), false) + u"{%1}"_s.arg(names.join(u','))
        + singleQuoted(description + value, false);
}

QStringList zshFunction(const Command &command)
{
    const QString name = command.name.isEmpty() ? u"window"_s : command.name;
    QStringList lines {u"_posenc_%1() {"_s.arg(name), u"    _arguments -s \\"_s};
    for (const CommandOption &option : shownOptions(command))
        lines << u"        %1 \\"_s.arg(zshSpec(option));
    if (command.argument) {
        const CommandArgument &argument = *command.argument;
        QString action = argument.completesFiles ? u"_files"_s : u" "_s;
        if (argument.values)
            action = u"(%1)"_s.arg(argument.values().join(u' '));
        const QString spec = command.name.isEmpty() ? u"*:%1:%2"_s : u"1:%1:%2"_s;
        lines << u"        %1"_s.arg(singleQuoted(spec.arg(zshEscaped(argument.name), action), false));
    } else {
        lines.last().chop(2);
    }
    lines << u"}"_s;
    return lines;
}

// --- fish ---

QString fishCondition(const Command &command)
{
    // The list written out: a variable of the file would be gone when the condition runs.
    return command.name.isEmpty() ? u"not __fish_seen_subcommand_from "_s + Commands::names().join(u' ')
                                  : u"__fish_seen_subcommand_from "_s + command.name;
}

QString fishOption(const Command &command, const CommandOption &option)
{
    QString line = u"complete -c posenc -n '%1'"_s.arg(fishCondition(command));
    for (const QString &name : option.names)
        line += (name.size() == 1 ? u" -s "_s : u" -l "_s) + name;
    if (option.completesFiles)
        line += u" -r -F"_s; // with its words, if any, offered beside the paths
    else if (!option.valueName.isEmpty())
        line += u" -x"_s;
    if (!option.values.isEmpty())
        line += u" -a "_s + singleQuoted(option.values.join(u' '), true);
    return line + u" -d "_s + singleQuoted(shortDescription(option.help), true);
}

} // namespace

QString bash()
{
    QStringList lines {
        u"# bash completion of posenc, written by posenc help --generate bash from the program's command"_s,
        u"# list and parameter table."_s,
        u"_posenc()"_s,
        u"{"_s,
        u"    local cur prev command i"_s,
        u"    COMPREPLY=()"_s,
        u"    cur=${COMP_WORDS[COMP_CWORD]}"_s,
        u"    prev=${COMP_WORDS[COMP_CWORD-1]}"_s,
        u"    command="_s,
        u"    for ((i = 1; i < COMP_CWORD; i++)); do"_s,
        u"        case ${COMP_WORDS[i]} in"_s,
        u"            %1) command=${COMP_WORDS[i]}; break ;;"_s.arg(Commands::names().join(u'|')),
        u"        esac"_s,
        u"    done"_s,
        u"    case $command in"_s};
    for (const Command *command : everyCommand()) {
        lines << u"        %1)"_s.arg(command->name.isEmpty() ? u"''"_s : command->name);
        lines += bashCommandArm(*command);
    }
    lines << u"    esac"_s << u"}"_s << u"complete -o filenames -F _posenc posenc"_s;
    return lines.join(u'\n') + u'\n';
}

QString zsh()
{
    QStringList lines {
        u"#compdef posenc"_s,
        u"# zsh completion of posenc, written by posenc help --generate zsh from the program's command"_s,
        u"# list and parameter table."_s};
    for (const Command *command : everyCommand())
        lines += zshFunction(*command);
    lines << u"_posenc() {"_s << u"    local -a commands"_s << u"    commands=("_s;
    for (const Command &command : Commands::all())
        lines << u"        %1"_s.arg(singleQuoted(command.name + u':' + zshEscaped(command.summary), false));
    lines << u"    )"_s << u"    if (( CURRENT > 2 )) && (( ${+functions[_posenc_${words[2]}]} )) \\"_s
          << u"        && [[ ${words[2]} != -* && ${words[2]} != window ]]; then"_s
          << u"        local command=${words[2]}"_s << u"        shift words"_s << u"        (( CURRENT-- ))"_s
          << u"        _posenc_$command"_s << u"        return"_s << u"    fi"_s
          << u"    (( CURRENT == 2 )) && _describe -t commands 'posenc command' commands"_s << u"    _posenc_window"_s
          << u"}"_s << u"_posenc \"$@\""_s;
    return lines.join(u'\n') + u'\n';
}

QString fish()
{
    QStringList lines {
        u"# fish completion of posenc, written by posenc help --generate fish from the program's command"_s,
        u"# list and parameter table."_s, u"complete -c posenc -f"_s};
    for (const Command &command : Commands::all())
        lines << u"complete -c posenc -n '%1' -a %2 -d %3"_s.arg(fishCondition(Commands::window()), command.name,
                                                                 singleQuoted(command.summary, true));
    for (const Command *command : everyCommand()) {
        for (const CommandOption &option : shownOptions(*command))
            lines << fishOption(*command, option);
        if (!command->argument)
            continue;
        const QString condition = fishCondition(*command);
        if (command->argument->values)
            lines << u"complete -c posenc -n '%1' -a %2"_s.arg(
                condition, singleQuoted(command->argument->values().join(u' '), true));
        if (command->argument->completesFiles)
            lines << u"complete -c posenc -n '%1' -F"_s.arg(condition);
    }
    return lines.join(u'\n') + u'\n';
}

} // namespace posenc::Completions
