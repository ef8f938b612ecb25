#include "CommandOption.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString CommandOption::spelling() const
{
    QStringList dashed;
    for (const QString &name : names)
        dashed.append((name.size() == 1 ? u"-"_s : u"--"_s) + name);
    return dashed.join(u", "_s) + (valueName.isEmpty() ? QString() : u" "_s + valueName);
}

QString CommandOption::longestName() const
{
    const QString &name = names.constLast();
    return (name.size() == 1 ? u"-"_s : u"--"_s) + name;
}

namespace CommandOptions {

QCommandLineOption parserOption(const CommandOption &option)
{
    QCommandLineOption parsed = option.valueName.isEmpty()
        ? QCommandLineOption(option.names, option.help)
        : QCommandLineOption(option.names, option.help, option.valueName);
    if (option.hidden)
        parsed.setFlags(QCommandLineOption::HiddenFromHelp);
    return parsed;
}

void add(QCommandLineParser &parser, const QList<CommandOption> &options)
{
    for (const CommandOption &option : options)
        parser.addOption(parserOption(option));
}

CommandOption help()
{
    return {{u"h"_s, u"help"_s}, {}, u"show this help"_s, {}, false, false};
}

} // namespace CommandOptions

} // namespace posenc
