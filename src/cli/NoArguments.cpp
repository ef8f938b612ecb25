#include "NoArguments.h"

#include "CommandOption.h"
#include "ExitCode.h"
#include "HelpText.h"

#include "core/OneLine.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<int> readNoArguments(const QString &command, const QStringList &arguments, const HelpPage &help,
                                   QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, {CommandOptions::help()});
    if (!parser.parse(arguments) || !parser.positionalArguments().isEmpty()) {
        err << "posenc " << command << ": "
            << (parser.errorText().isEmpty()
                    ? u"takes no arguments; got "_s + oneLine(parser.positionalArguments().join(u' '))
                    : oneLine(parser.errorText()))
            << " (see posenc " << command << " --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(help, HelpText::width());
        return ExitDone;
    }
    return std::nullopt;
}

} // namespace posenc
