#include "NoArguments.h"

#include "ExitCode.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<int> readNoArguments(const QString &command, const QStringList &arguments, const QString &help,
                                   QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOption(helpOption);
    if (!parser.parse(arguments) || !parser.positionalArguments().isEmpty()) {
        err << "posenc " << command << ": "
            << (parser.errorText().isEmpty() ? u"takes no arguments; got "_s + parser.positionalArguments().join(u' ')
                                             : parser.errorText())
            << " (see posenc " << command << " --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(helpOption)) {
        out << help;
        return ExitDone;
    }
    return std::nullopt;
}

} // namespace posenc
