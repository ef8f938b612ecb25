#include "PresetsCommand.h"

#include "CommandOption.h"
#include "ExitCode.h"
#include "NoArguments.h"

#include "io/Preset.h"

using namespace Qt::StringLiterals;

namespace posenc {

HelpPage presetsHelp()
{
    HelpPage page;
    page.topic = u"presets"_s;
    page.usage = {u"posenc presets"_s};
    page.section().paragraph(u"Lists the presets, one line each: NAME, a tab, TITLE, a tab, SOURCE (where its values "
                             "come from, in a line). Each sets the parameter values a published source gives; "
                             "--preset NAME gives them to the window and to every command, every parameter flag given "
                             "overriding them."_s);
    page.section(u"Options"_s).items({{CommandOptions::help().spelling(), CommandOptions::help().help}});
    page.section(u"Examples"_s)
        .examples({{u"posenc presets"_s, u"the presets, NAME<TAB>TITLE<TAB>SOURCE"_s},
                   {u"posenc describe --preset llama-3-1-8b"_s, u"a preset's numbers"_s}});
    return page;
}

int runPresetsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    if (const auto done = readNoArguments(u"presets"_s, arguments, presetsHelp(), out, err))
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
