#include "DescribeCommand.h"

#include "ExitCode.h"
#include "ParamOptions.h"
#include "core/Description.h"
#include "core/FamilySpec.h"

#include "core/ParamText.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

bool hasDescription(const FamilySpec &family)
{
    return bool(family.describe);
}

QString describeUsage()
{
    QString keys;
    for (const FamilySpec &family : Families::all())
        keys += family.describeHelp;
    return u"Usage: posenc describe [--json] --encoding %1 [OPTIONS]\n"
           "Prints the numbers a family's parameters derive, as its reference code computes them, a line\n"
           "\"key: value\" each (a list's items joined by ','), or one JSON object with --json; null where a\n"
           "value does not apply. The keys of each family:\n"
           "%2\n"
           "Options:\n"
           "  --json       one JSON object, the keys in this order\n"
           "  -h, --help   show this help\n\n"
           "The parameters come from the flags, a --session file or a --preset, as for every command;\n"
           "they must choose --encoding %3 (else exit 2). Exit codes: 0 done, 2\n"
           "invalid usage or parameter, 3 a file that cannot be read.\n\n"
           "Parameters:\n%4"_s.arg(Families::wordList(hasDescription, u"|"_s), keys,
                                   DescribeCommand::describedFamilies(), ParamOptions::helpText());
}

} // namespace

QString DescribeCommand::describedFamilies()
{
    return Families::wordList(hasDescription);
}

int runDescribeCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption jsonOption(u"json"_s, u"Print one JSON object."_s);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({jsonOption, helpOption});
    ParamOptions::add(parser);
    if (!parser.parse(arguments)) {
        err << "posenc describe: " << parser.errorText() << " (see posenc describe --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(helpOption)) {
        out << describeUsage();
        return ExitDone;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "posenc describe: unexpected argument '" << parser.positionalArguments().constFirst()
            << "' (see posenc describe --help)\n";
        return ExitUsage;
    }
    const ParamOptions::Result read = ParamOptions::read(parser);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc describe: " << line << '\n';
        return read.exitCode();
    }
    const std::optional<Description::Entries> entries = Description::entries(read.params);
    if (!entries) {
        err << "posenc describe: --encoding: describe needs --encoding " << DescribeCommand::describedFamilies()
            << "; got '" << ParamText::toString(read.params.encoding) << "'\n";
        return ExitUsage;
    }
    const bool json = parser.isSet(jsonOption);
    QStringList lines;
    for (const auto &[key, value] : *entries)
        lines.append(json ? u"\"%1\": %2"_s.arg(key, Description::text(value, true))
                          : u"%1: %2"_s.arg(key, Description::text(value, false)));
    if (json)
        out << '{' << lines.join(u", "_s) << "}\n";
    else
        out << lines.join(u'\n') << '\n';
    return ExitDone;
}

} // namespace posenc
