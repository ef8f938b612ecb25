#include "PresetsCommand.h"

#include "ExitCode.h"
#include "NoArguments.h"

#include "io/Preset.h"

using namespace Qt::StringLiterals;

namespace posenc {

int runPresetsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    const QString help = u"Usage: posenc presets\n"
                         "Lists the presets, one line each: NAME, a tab, TITLE, a tab, SOURCE (where its values come\n"
                         "from, in a line). Each sets the parameter values a published source gives; --preset NAME\n"
                         "gives them to the window, posenc export and posenc table, every parameter flag given\n"
                         "overriding them.\n\n"
                         "Options:\n"
                         "  -h, --help   show this help\n"_s;
    if (const auto done = readNoArguments(u"presets"_s, arguments, help, out, err))
        return *done;
    // A preset that does not read is a mistake of the build, said rather than hidden.
    const Presets::Loaded &shipped = Presets::shipped();
    for (const PresetError &error : shipped.problems)
        err << "posenc presets: " << error.path << ": " << error.reason << '\n';
    for (const Preset &preset : shipped.presets)
        out << preset.name << '\t' << preset.title << '\t' << preset.cite << '\n';
    return shipped.problems.isEmpty() ? ExitDone : ExitIo;
}

} // namespace posenc
