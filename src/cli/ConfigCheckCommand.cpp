#include "ConfigCheckCommand.h"

#include "CheckCommand.h"
#include "CheckCommonOptions.h"
#include "ConfigCheckTable.h"
#include "ConfigOptions.h"

#include "ExitCode.h"
#include "HelpText.h"
#include "JsonOutput.h"

#include "check/CheckReport.h"
#include "check/ModelConfigCheck.h"
#include "check/models/ModelExamples.h"
#include "core/Description.h"
#include "core/FamilySpec.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/ParamText.h"
#include "io/ModelConfigFile.h"
#include "render/data/models/ConfigSource.h"

#include <QFileInfo>

#include <QCommandLineParser>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using Description::jsonString;

const QString kCommand = u"posenc check"_s;

struct Options
{
    QString config;
    bool json = false;
    QString layerType;
    bool verbose = false; // the key-per-line dump of each layer type beside the table
    bool open = false;
    QString screenshot; // hidden: a PNG of the window once drawn (tests)
};

// The arguments, or the exit code after help (0) or a usage error (2).
std::variant<Options, int> parseOptions(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, configCheckOptions());
    const auto usageError = [&err](const QString &message) {
        err << kCommand << ": " << message << " (see posenc check --help)\n";
        return int(ExitUsage);
    };
    if (!parser.parse(arguments))
        return usageError(oneLine(parser.errorText()));
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(checkHelp(), HelpText::width());
        return int(ExitDone);
    }
    if (const auto threads = CheckCommonOptions::threads(parser); std::holds_alternative<QString>(threads))
        return usageError(std::get<QString>(threads));
    if (!parser.positionalArguments().isEmpty())
        return usageError(u"unexpected argument %1 beside --config"_s.arg(
            ParamError::quoted(parser.positionalArguments().constFirst())));
    Options o;
    o.config = parser.value(u"config"_s);
    if (o.config.isEmpty())
        return usageError(u"--config: a model's config.json is required"_s);
    o.json = parser.isSet(u"json"_s);
    o.layerType = parser.value(u"layer-type"_s);
    o.verbose = parser.isSet(u"verbose"_s);
    o.open = parser.isSet(u"open"_s);
    o.screenshot = parser.value(u"screenshot"_s);
    if (o.json && o.open)
        return usageError(u"--open: prints no JSON; give --json or --open"_s);
    if (o.json && o.verbose)
        return usageError(u"--verbose: the JSON holds every key already; give --json or --verbose"_s);
    if (!o.screenshot.isEmpty() && !o.open)
        return usageError(u"--screenshot: only with --open"_s);
    return o;
}

bool shown(const ConfigFinding &finding, const QString &layerType)
{
    return layerType.isEmpty() || finding.layerType.isEmpty() || finding.layerType == layerType;
}

void printText(const ConfigCheck &check, const Options &o, QTextStream &out)
{
    const int width = HelpText::width();
    out << "config: " << oneLine(o.config) << '\n' << "model_type: " << check.modelType;
    if (!check.modelClass.isEmpty())
        out << " (" << check.modelClass << ", read "
            << (check.basis == u"guess"_s ? u"as a guess"_s : u"by "_s + check.basis) << ')';
    out << '\n';
    if (!check.textConfig.isEmpty())
        out << "text model: " << check.textConfig << '\n';
    // No layers to tabulate where the config names no scheme (its finding says so).
    if (!check.schemeUnknown)
        out << '\n' << ConfigCheckTable::table(check, o.layerType, width).join(u'\n') << '\n';
    const QStringList sources = ConfigCheckTable::sources(check, o.layerType, width);
    if (!sources.isEmpty())
        out << "\nwhere the numbers come from:\n" << sources.join(u'\n') << '\n';
    for (const ConfigLayer &layer : check.layers) {
        if (!o.layerType.isEmpty() && layer.layerType != o.layerType)
            continue;
        if (o.verbose) {
            out << '\n';
            for (const auto &[key, value] : CheckReport::layerEntries(layer, false))
                out << key << ": " << value << '\n';
        }
    }
    // By layer type, under its name after the table: a hash keeps it linear in the layer types.
    QHash<QString, QStringList> findings;
    for (const ConfigFinding &f : check.findings)
        findings[f.layerType] += ConfigCheckTable::wrapped(
            u"  %1 %2:"_s.arg(ConfigFindings::severityWord(f.severity), f.id), f.message, width, 4);
    bool headed = false;
    for (const ConfigLayer &layer : check.layers) {
        const auto it = findings.constFind(layer.layerType);
        if (it == findings.cend() || (!o.layerType.isEmpty() && layer.layerType != o.layerType))
            continue;
        if (!headed)
            out << '\n';
        headed = true;
        out << layer.layerType << ":\n" << it->join(u'\n') << '\n';
    }
    if (findings.contains(QString()))
        out << "\nthe config as a whole:\n" << findings.value(QString()).join(u'\n') << '\n';
    int counts[3] = {0, 0, 0};
    for (const ConfigFinding &f : check.findings) {
        if (shown(f, o.layerType))
            ++counts[int(f.severity)];
    }
    out << "\nfindings: " << counts[0] << (counts[0] == 1 ? " error, " : " errors, ") << counts[1]
        << (counts[1] == 1 ? " warning, " : " warnings, ") << counts[2] << (counts[2] == 1 ? " note\n" : " notes\n");
}

void printJson(const ConfigCheck &check, const Options &o, QTextStream &out)
{
    QStringList layers;
    for (const ConfigLayer &layer : check.layers) {
        if (!o.layerType.isEmpty() && layer.layerType != o.layerType)
            continue;
        QStringList fields;
        for (const auto &[key, value] : CheckReport::layerEntries(layer, true))
            fields.append(u"\"%1\": %2"_s.arg(key, value));
        QStringList sources;
        for (const auto &[key, source] : layer.sources)
            sources.append(u"%1: %2"_s.arg(jsonString(key), jsonString(source)));
        fields.append(u"\"sources\": {"_s + sources.join(u", "_s) + u'}');
        layers.append(u"{"_s + fields.join(u", "_s) + u"}"_s);
    }
    QStringList findings;
    for (const ConfigFinding &f : check.findings) {
        if (!shown(f, o.layerType))
            continue;
        findings.append(u"{\"id\": %1, \"severity\": %2, \"message\": %3, \"layer_type\": %4}"_s.arg(
            jsonString(f.id), jsonString(ConfigFindings::severityWord(f.severity)), jsonString(f.message),
            f.layerType.isEmpty() ? u"null"_s : jsonString(f.layerType)));
    }
    out << '{' << JsonOutput::head(u"check-config"_s) << ", \"config\": " << jsonString(o.config)
        << ", \"model_type\": " << jsonString(check.modelType)
        << ", \"read\": " << (check.basis.isEmpty() ? u"null"_s : jsonString(check.basis))
        << ", \"text_config\": " << (check.textConfig.isEmpty() ? u"null"_s : jsonString(check.textConfig))
        << ", \"layers\": [" << layers.join(u", "_s) << "], \"findings\": [" << findings.join(u", "_s) << "]}\n";
}

// Reads and checks the config, printing the report; the check, or the exit code when there is
// none to go on with.
std::variant<ConfigCheck, int> report(const Options &o, QTextStream &out, QTextStream &err)
{
    // An example's name, as the other commands' --config takes it, where no file has that name.
    const ModelExamples::Example *example = ModelExamples::find(o.config);
    const bool isExample = example && !QFileInfo::exists(o.config);
    const ReadResult<QJsonObject> read
        = isExample ? ReadResult<QJsonObject>(example->config) : ModelConfigFile::read(o.config);
    if (!read) {
        // A name that is neither a file nor an example: the names it may be.
        err << kCommand << ": " << read.error().toString()
            << (QFileInfo::exists(o.config) ? QString() : u"; it must be "_s + ConfigSource::allowed()) << '\n';
        return int(ExitIo);
    }
    ConfigCheck check = ModelConfig::check(read.value());
    if (check.modelType.isEmpty()) {
        err << kCommand << ": " << oneLine(o.config) << ": not a model config: " << check.problems.value(0).got
            << "; model_type must be " << check.problems.value(0).allowed << '\n';
        return int(ExitIo);
    }
    if (!check.problems.isEmpty()) {
        for (const ConfigProblem &p : check.problems)
            err << kCommand << ": " << oneLine(o.config) << ": " << p.toString() << '\n';
        return int(ExitUsage);
    }
    if (!o.layerType.isEmpty() && !check.layer(o.layerType)) {
        QStringList types;
        for (const ConfigLayer &l : check.layers)
            types.append(l.layerType);
        err << kCommand << ": --layer-type: must be one of the config's layer types (" << types.join(u", "_s)
            << "); got " << ParamError::quoted(o.layerType) << '\n';
        return int(ExitUsage);
    }
    if (o.json)
        printJson(check, o, out);
    else
        printText(check, o, out);
    return check;
}

int exitCodeOf(const ConfigCheck &check, const QString &layerType)
{
    for (const ConfigFinding &f : check.findings) {
        if (f.severity == Severity::Error && shown(f, layerType))
            return 1;
    }
    return ExitDone;
}

} // namespace

QList<CommandOption> configCheckOptions()
{
    QList<CommandOption> options {
        {{u"config"_s}, u"FILE"_s, u"the model's config.json (at most 4 MiB)"_s, {}, true},
        {{u"json"_s},
         {},
         u"one JSON object: format, version, config, model_type, read (hand, port, fingerprint, or guess: its "
         "numbers a guess), text_config, layers (one object per layer type: "
         "layer_type, layers, encoding, described, the config's values, its family's posenc describe keys and sources, "
         "where each number comes from), "
         "findings (id, severity, message, layer_type, null for the config as a whole)"_s},
        {{u"layer-type"_s}, u"TYPE"_s, u"only that layer type (and the findings of the config as a whole)"_s},
        {{u"verbose"_s},
         {},
         u"beside the table, each layer type's keys and values a line each (those --json prints)"_s},
        {{u"open"_s},
         {},
         u"open the window on the layer type's encoding: full_attention's RoPE unless --layer-type names another "
         "(max_len capped at 131072, as the presets)"_s},
        {{u"screenshot"_s}, u"FILE"_s, u"with --open: a PNG of the window once drawn, then quit"_s, {}, true, true},
    };
    // Taken as every mode of posenc check takes them, listed once, under the table's Options.
    for (CommandOption common : CheckCommonOptions::options()) {
        common.hidden = true;
        options.append(common);
    }
    options.append(CommandOptions::help());
    return options;
}

QList<HelpSection> configCheckSections()
{
    HelpPage page;
    page.section(u"A model's config: posenc check --config FILE"_s)
        .paragraph(u"Reads a model's config.json as HF transformers does (rope_scaling or rope_parameters, per-layer "
                   "dicts, text_config, no_rope_layers, the model class's defaults) and prints a table, one row per "
                   "layer type: its layers, encoding, theta, rotary part and place, rope type, pairs, window and "
                   "scales, a ? on each number that is a guess (a model_type posenc's table lacks); then where each "
                   "number comes from (a key, a class's default, the model's code, or a guess); then its findings, "
                   "each an id, a severity and a line of why, those of one layer type under its name. --verbose "
                   "adds each layer type's values a line each: the config's, then the keys posenc describe prints "
                   "for its family (null where the layer cannot be computed)."_s);
    QList<HelpItem> options;
    for (const CommandOption &option : configCheckOptions()) {
        if (!option.hidden)
            options.append({option.spelling(), option.help});
    }
    page.section(u"Options of --config"_s).items(options);
    page.section(u"Examples of --config"_s)
        .examples({{u"posenc check --config config.json"_s, u"a model's positions, layer type by layer type"_s},
                   {u"posenc check --config config.json --open"_s, u"the window on its full_attention layers"_s}});
    page.section(u"Exit status of --config"_s)
        .items({{u"0"_s, u"no error finding"_s},
                {u"1"_s, u"an error finding"_s},
                {u"2"_s, u"invalid usage, or a config value no model could mean (named with its key and range)"_s},
                {u"3"_s, u"a file that cannot be read"_s}});
    QList<HelpItem> findings;
    for (const ConfigFindings::Kind &kind : ConfigFindings::catalogue())
        findings.append({kind.id, u"%1: %2"_s.arg(ConfigFindings::severityWord(kind.severity), kind.meaning)});
    page.section(u"Findings"_s).items(findings);
    return page.sections;
}

int runConfigCheck(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    const auto parsed = parseOptions(arguments, out, err);
    if (const int *code = std::get_if<int>(&parsed))
        return *code;
    const Options &o = std::get<Options>(parsed);
    if (o.open) {
        err << kCommand << ": --open: the window is opened by posenc itself (posenc check --config FILE --open)\n";
        return ExitUsage;
    }
    const auto checked = report(o, out, err);
    if (const int *code = std::get_if<int>(&checked))
        return *code;
    return exitCodeOf(std::get<ConfigCheck>(checked), o.layerType);
}

bool opensConfigWindow(const QStringList &asGiven)
{
    if (asGiven.size() < 2 || asGiven[1] != u"check"_s)
        return false;
    // `posenc check FILE.json --open` as `posenc check --config FILE.json --open`.
    const QStringList arguments = configFileAsFlag(asGiven, 2);
    const bool config = std::any_of(arguments.cbegin(), arguments.cend(), [](const QString &a) {
        return a == u"--config"_s || a.startsWith(u"--config="_s);
    });
    return config && arguments.contains(u"--open"_s);
}

std::variant<WindowArguments, int> configWindowArguments(const QStringList &arguments, QTextStream &out,
                                                         QTextStream &err)
{
    QStringList rest = configFileAsFlag(arguments, 2);
    rest.removeAt(1);
    const auto parsed = parseOptions(rest, out, err);
    if (const int *code = std::get_if<int>(&parsed))
        return *code;
    const Options &o = std::get<Options>(parsed);
    const auto checked = report(o, out, err);
    if (const int *code = std::get_if<int>(&checked))
        return *code;
    const ConfigCheck &check = std::get<ConfigCheck>(checked);
    // Every family reads its own keys (FamilySpec::readConfig), so the window opens on any layer
    // type that places position: full_attention's RoPE by default, as `--config` chooses for the
    // other commands (ConfigOptions::layerOf).
    const ConfigLayer *layer = ConfigOptions::layerOf(check, o.layerType);
    if (!layer || !Families::spec(layer->params.encoding).placesPosition()) {
        err << kCommand << ": --open: "
            << (layer ? u"layer type %1 places no position (none)"_s.arg(layer->layerType)
                      : u"the config has no layers"_s)
            << "; the window opens on an encoding\n";
        return int(ExitUsage);
    }
    if (!layer->described) {
        err << kCommand << ": --open: layer type " << layer->layerType
            << " cannot be computed (see its errors above)\n";
        return 1;
    }
    WindowArguments window;
    const CheckReport::WindowParams opened = CheckReport::windowParams(*layer);
    window.params = opened.params;
    if (opened.capped)
        err << kCommand << ": --open: the window opens at max_len " << CheckReport::kWindowMaxLen << " (the model's "
            << opened.modelMaxLen << "), as the presets do, to stay responsive\n";
    window.paramsGiven = true;
    window.screenshot = o.screenshot;
    return window;
}

} // namespace posenc
