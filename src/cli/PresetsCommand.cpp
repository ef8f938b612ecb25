#include "PresetsCommand.h"

#include "ExitCode.h"

#include "io/Preset.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

int runPresetsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOption(helpOption);
    if (!parser.parse(arguments) || !parser.positionalArguments().isEmpty()) {
        err << "posenc presets: "
            << (parser.errorText().isEmpty() ? u"takes no arguments; got "_s + parser.positionalArguments().join(u' ')
                                             : parser.errorText())
            << " (see posenc presets --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(helpOption)) {
        out << "Usage: posenc presets\n"
               "Lists the presets, one line each: NAME, a tab, TITLE, a tab, SOURCE (where its values come\n"
               "from, in a line). Each sets the parameter values a published source gives; --preset NAME\n"
               "gives them to the window, posenc export and posenc table, every parameter flag given\n"
               "overriding them.\n\n"
               "Options:\n"
               "  -h, --help   show this help\n";
        return ExitDone;
    }
    // A preset that does not read is a mistake of the build, said rather than hidden.
    const Presets::Loaded &shipped = Presets::shipped();
    for (const PresetError &error : shipped.problems)
        err << "posenc presets: " << error.path << ": " << error.reason << '\n';
    for (const Preset &preset : shipped.presets)
        out << preset.name << '\t' << preset.title << '\t' << preset.cite << '\n';
    return shipped.problems.isEmpty() ? ExitDone : ExitIo;
}

} // namespace posenc
