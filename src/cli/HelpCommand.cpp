#include "HelpCommand.h"

#include "Commands.h"
#include "Completions.h"
#include "ExitCode.h"
#include "GuideReference.h"
#include "HelpText.h"
#include "ManPage.h"
#include "ParamOptions.h"
#include "WindowArguments.h"

#include "core/FamilyInference.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/ParamTable.h"
#include "render/FigureSize.h"

#include <QCommandLineParser>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A synopsis line without its optional options: "posenc bench [--json] [--repeats N]" is "posenc
// bench", "posenc export FIGURE -o FILE [OPTIONS]" is "posenc export FIGURE -o FILE".
QString shortSynopsis(const QString &line)
{
    static const QRegularExpression optional(uR"( \[(-[^\]]*|OPTIONS)\])"_s);
    return QString(line).remove(optional);
}

// An option of the short help: a parameter's flag as its row spells it.
HelpItem parameterItem(const QString &key, const QString &text)
{
    return {ParamTable::find(key)->flag(), text};
}

} // namespace

HelpPage shortHelp()
{
    HelpPage page;
    page.topic = u"posenc"_s;
    page.section().paragraph(u"PosEnc Explorer (posenc): a transformer's positional encoding, computed exactly and "
                             "made visible, for teaching it and for checking your own."_s);
    QList<const Command *> commands {&Commands::window()};
    for (const Command &command : Commands::all())
        commands.append(&command);
    QList<HelpItem> usage;
    for (const Command *command : commands) {
        const QStringList synopsis = command->synopsis();
        for (qsizetype i = 0; i < synopsis.size(); ++i)
            usage.append({shortSynopsis(synopsis[i]), i == 0 ? command->summary : QString()});
    }
    page.section(u"Usage"_s).examples(usage);
    page.section(u"Options"_s)
        .items(
            {{u"--lesson NAME"_s, u"a lesson: the window set up to answer a question (posenc lessons)"_s},
             {u"--preset NAME"_s, u"a published model's or paper's values (posenc presets)"_s},
             // The families' words do not fit one line: the parameters' page lists them.
             {u"--encoding FAMILY"_s,
              u"the family, one of %1 (posenc help parameters lists them)"_s.arg(FamilyInference::families().size())},
             parameterItem(u"d-model"_s, ParamTable::find(u"d-model"_s)->helpLine()),
             parameterItem(u"max-len"_s, ParamTable::find(u"max-len"_s)->helpLine()),
             parameterItem(u"position-table"_s, u"a model's learned position table: .npy or .safetensors"_s),
             {u"-o, --output FILE"_s, u"where export and table write; the format from the extension"_s},
             {u"--size SIZE"_s, FigureSizes::names().join(u", "_s) + u" or WxH in cm, mm or in: export's size"_s}});
    page.section(u"Examples"_s)
        .examples({{u"posenc --lesson why-sqrt-d"_s, u"the window on a lesson"_s},
                   {u"posenc export heatmap -o pe.png --d-model 128"_s, u"the PE table as a figure"_s},
                   {u"posenc export --lesson alibi -o a.pdf --size slide"_s, u"a lesson's figure for a slide"_s},
                   {u"posenc table pe -o pe.npy --max-len 4096"_s, u"the PE table for numpy"_s},
                   {u"posenc check my_pe.npy"_s, u"what your table computes, and its mistake"_s},
                   {u"posenc check --config config.json --open"_s, u"a model's RoPE in the window"_s}});
    page.section().paragraph(
        u"More: posenc help TOPIC (%1), posenc COMMAND --help, man posenc, and the user guide (Help > User guide)."_s
            .arg(helpTopics().join(u", "_s)));
    return page;
}

QStringList helpTopics()
{
    return Commands::names() << u"parameters"_s << u"window"_s << u"environment"_s;
}

std::optional<HelpPage> topicPage(const QString &topic)
{
    if (const Command *command = Commands::find(topic))
        return command->help();
    if (topic == u"parameters"_s)
        return ParamOptions::helpPage();
    if (topic == u"window"_s)
        return windowHelp();
    if (topic == u"environment"_s)
        return ManPage::environmentPage();
    return std::nullopt;
}

QStringList generatedKinds()
{
    return {u"man"_s, u"bash"_s, u"zsh"_s, u"fish"_s, u"guide"_s};
}

QList<CommandOption> helpOptions()
{
    return {{{u"generate"_s},
             u"KIND"_s,
             u"write, from the command list and the parameter table, the man page (man), a shell's completion "
             "(bash, zsh, fish) or the user guide's reference of commands and parameters (guide)"_s,
             generatedKinds()},
            {{u"all"_s},
             {},
             u"with TOPIC: its whole page, as the man page and the user guide give it (a terminal's page of a long "
             "topic, check's, shows its common options and says what it leaves out)"_s},
            CommandOptions::help()};
}

HelpPage helpHelp()
{
    HelpPage page;
    page.topic = u"help"_s;
    page.usage = {u"posenc help [TOPIC [--all]]"_s, u"posenc help --generate KIND"_s};
    page.section().paragraph(
        u"Without TOPIC, the usage of every command, the most used options and examples (as posenc --help). With "
        "TOPIC, its page: a command's (as posenc COMMAND --help), the parameters', the window's or the environment's, "
        "wrapped to the terminal's width; with --all too, its whole page, every option and section. Every help "
        "text, the man page, the completions and the guide's reference come from one source, the program's command "
        "list and parameter table."_s);
    page.section(u"TOPIC"_s).paragraph(helpTopics().join(u", "_s));
    QList<HelpItem> options;
    for (const CommandOption &option : helpOptions())
        options.append({option.spelling(), option.help});
    page.section(u"Options"_s).items(options);
    page.section(u"Examples"_s)
        .examples({{u"posenc help parameters"_s, u"every parameter, by family"_s},
                   {u"posenc help check --all"_s, u"check's whole page: every option, finding and published form"_s},
                   {u"posenc help --generate bash > posenc.bash"_s, u"bash's completion"_s},
                   {u"posenc help --generate man | man -l -"_s, u"the man page"_s}});
    return page;
}

int runHelpCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, helpOptions());
    const auto usageError = [&err](const QString &message) {
        err << "posenc help: " << message << " (see posenc help --help)\n";
        return int(ExitUsage);
    };
    if (!parser.parse(arguments))
        return usageError(oneLine(parser.errorText()));
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(helpHelp(), HelpText::width());
        return ExitDone;
    }
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(u"generate"_s)) {
        const QString kind = parser.value(u"generate"_s);
        if (!positional.isEmpty() || parser.isSet(u"all"_s))
            return usageError(positional.isEmpty() ? u"--generate takes no --all: what it writes is whole"_s
                                                   : u"--generate takes no TOPIC; got %1"_s.arg(
                                                       ParamError::quoted(positional.join(u' '))));
        if (kind == u"man"_s)
            out << ManPage::text();
        else if (kind == u"bash"_s)
            out << Completions::bash();
        else if (kind == u"zsh"_s)
            out << Completions::zsh();
        else if (kind == u"fish"_s)
            out << Completions::fish();
        else if (kind == u"guide"_s)
            out << GuideReference::markdown();
        else
            return usageError(u"--generate: must be one of %1; got %2"_s.arg(generatedKinds().join(u", "_s),
                                                                             ParamError::quoted(kind)));
        return ExitDone;
    }
    if (positional.size() > 1)
        return usageError(u"give one TOPIC; got %1"_s.arg(ParamError::quoted(positional.join(u' '))));
    const HelpPage::View view = parser.isSet(u"all"_s) ? HelpPage::View::Whole : HelpPage::View::Terminal;
    if (positional.isEmpty()) {
        out << HelpText::render(shortHelp(), HelpText::width(), view);
        return ExitDone;
    }
    const auto page = topicPage(positional.front());
    if (!page)
        return usageError(u"TOPIC must be one of %1; got %2"_s.arg(helpTopics().join(u", "_s),
                                                                   ParamError::quoted(positional.front())));
    out << HelpText::render(*page, HelpText::width(), view);
    return ExitDone;
}

} // namespace posenc
