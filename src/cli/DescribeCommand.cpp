#include "DescribeCommand.h"

#include "ExitCode.h"
#include "HelpText.h"
#include "JsonOutput.h"
#include "ParamOptions.h"

#include "check/CheckReport.h"
#include "check/models/ModelExamples.h"
#include "core/Description.h"
#include "core/FamilySpec.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/ParamText.h"
#include "io/Preset.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The families posenc describe has numbers for: those whose spec describes them.
QList<const FamilySpec *> describedFamilies()
{
    QList<const FamilySpec *> described;
    for (const FamilySpec &family : Families::all()) {
        if (family.describe)
            described.append(&family);
    }
    return described;
}

// The layer of --preset's example config (the preset's "config") that the parameters are of: its
// family, described. `posenc describe --preset devstral-small-2` printed logit_scale 1.924, core's
// reading of yarn's mscale_all_dim as DeepSeek's (its softmax scale times get_mscale(f,
// mscale_all_dim)^2, transformers' DeepseekV3Attention.__init__), where Ministral3Attention keeps
// head_dim^-0.5: a preset's numbers take the softmax factor its model's attention applies, as
// --config's do (CheckReport::layerDescription). None without a preset, or where the preset
// names no config or no layer of the parameters' family.
std::optional<ConfigLayer> presetLayer(const QCommandLineParser &parser, const Params &params)
{
    if (!parser.isSet(u"preset"_s) || parser.isSet(u"config"_s) || parser.isSet(u"session"_s))
        return std::nullopt;
    const Preset *preset = Presets::find(parser.values(u"preset"_s).constLast());
    const ModelExamples::Example *example = preset ? ModelExamples::find(preset->config) : nullptr;
    if (!example)
        return std::nullopt;
    const ConfigCheck check = ModelConfig::check(example->config);
    for (const ConfigLayer &layer : check.layers) {
        if (layer.described && layer.params.encoding == params.encoding && layer.scheme.headDim > 0) {
            ConfigLayer at = layer;
            at.params = params;
            return at;
        }
    }
    return std::nullopt;
}

} // namespace

QList<CommandOption> describeOptions()
{
    return {{{u"json"_s}, {}, u"one JSON object, the keys in the order below after \"format\" and \"version\""_s},
            CommandOptions::help()};
}

HelpPage describeHelp()
{
    HelpPage page;
    page.topic = u"describe"_s;
    // A family is needed: the default sinusoid has no numbers to describe.
    page.usage = {u"posenc describe --encoding FAMILY [--json] [OPTIONS]"_s};
    page.section().paragraph(
        u"Prints the numbers a family's parameters derive, as its reference code computes them, a line \"key: "
        "value\" each (a list's items joined by ','), or one JSON object with --json; null where a value does not "
        "apply. The family comes from --encoding, a --session file or a --preset, or from a family's parameter "
        "given (describe --rope-theta 500000 is RoPE's); describe has numbers for %1 only (else exit 2)."_s.arg(
            Families::wordList([](const FamilySpec &family) { return bool(family.describe); })));
    for (const FamilySpec *family : describedFamilies()) {
        QList<HelpItem> keys;
        for (const auto &[key, meaning] : family->describeKeys)
            keys.append({key, meaning});
        page.section(u"Keys of --encoding %1 (%2)"_s.arg(family->word, family->describeSource)).items(keys);
    }
    QList<HelpItem> options;
    for (const CommandOption &option : describeOptions())
        options.append({option.spelling(), option.help});
    page.section(u"Options"_s).items(options);
    page.section(u"Parameters"_s)
        .paragraph(u"Every parameter flag (posenc help parameters), --session FILE, --preset NAME and --config FILE "
                   "[--layer-type T]. With --config, the layer type comes first as posenc check --config prints "
                   "it (layer_type, layers, encoding, the values the config sets for it unless a flag changes the "
                   "parameters, rotary_place, attention_head_dim, sliding_window, chunk_size, query_scale, "
                   "softmax_scale), then its family's keys, none for a layer without position (NoPE, a linear or SSM "
                   "mixer). A --preset of a model with an example config (posenc presets) gives its family's keys "
                   "with the softmax factor that model's attention applies, as --config does: yarn's "
                   "get_mscale(f, mscale_all_dim)² only where the attention multiplies its softmax scale by it "
                   "(DeepSeek's), 1 where it keeps head_dim^-0.5 (Devstral Small 2's Ministral3Attention)."_s);
    page.section(u"Examples"_s)
        .examples({{u"posenc describe --preset llama-3-1-8b"_s, u"Llama 3.1's scaled RoPE"_s},
                   {u"posenc describe --json --preset gpt-oss-20b"_s, u"gpt-oss's YaRN as JSON"_s},
                   {u"posenc describe --heads 12 --head 9"_s, u"ALiBi's slopes of 12 heads"_s},
                   {u"posenc describe --json --t5-causal"_s, u"T5's decoder buckets"_s},
                   {u"posenc describe --config config.json --layer-type full_attention"_s,
                    u"a model's full-attention layers"_s}});
    page.section(u"Exit status"_s)
        .items({{u"0"_s, u"the numbers were printed"_s},
                {u"2"_s, u"an invalid option or parameter, or a family without numbers to describe"_s},
                {u"3"_s, u"a --session file that cannot be read"_s}});
    return page;
}

int runDescribeCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, describeOptions());
    ParamOptions::add(parser);
    if (!parser.parse(arguments)) {
        err << "posenc describe: " << oneLine(parser.errorText()) << " (see posenc describe --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(describeHelp(), HelpText::width());
        return ExitDone;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "posenc describe: unexpected argument " << ParamError::quoted(parser.positionalArguments().constFirst())
            << " (see posenc describe --help)\n";
        return ExitUsage;
    }
    // Only some families have numbers to describe: describe chooses among them.
    const ParamOptions::Clues clues {
        {u"posenc describe"_s, [](const Params &params) { return bool(Families::spec(params.encoding).describe); }}};
    const ParamOptions::Result read = ParamOptions::read(parser, clues);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc describe: " << line << '\n';
        return read.exitCode();
    }
    const bool json = parser.isSet(u"json"_s);
    QList<std::pair<QString, QString>> entries;
    if (read.configLayer) {
        // A model config's layer type: where its layers sit and what they do, the values the
        // config sets for them (theta, layout, ...) unless a flag changed the parameters, then its
        // family's numbers at the parameters, with the softmax factor its model's attention
        // applies. A layer without position (NoPE, a linear mixer) has no numbers.
        ConfigLayer layer = *read.configLayer;
        entries = CheckReport::layerSchemeEntries(layer, json);
        // The window and chunk the layer's scheme gives are set from its config (ConfigOptions), not a flag.
        Params unflagged = read.params;
        unflagged.batch.window = layer.params.batch.window;
        unflagged.batch.chunk = layer.params.batch.chunk;
        if (layer.params == unflagged) {
            qsizetype at = 3; // after its type, layers and encoding, as posenc check --config prints them
            for (const auto &[key, value] : layer.values)
                entries.insert(at++, {key, CheckReport::configValueText(value, json)});
        }
        layer.params = read.params;
        entries.append(CheckReport::layerNumbers(layer, json));
    } else if (const std::optional<ConfigLayer> layer = presetLayer(parser, read.params); layer && read.params.isValid()) {
        entries.append(CheckReport::layerNumbers(*layer, json));
    } else {
        const std::optional<Description::Entries> described = Description::entries(read.params);
        if (!described) {
            err << "posenc describe: --encoding: describe has numbers for "
                << Families::wordList([](const FamilySpec &family) { return bool(family.describe); }) << " only; got '"
                << ParamText::toString(read.params.encoding) << "'\n";
            return ExitUsage;
        }
        for (const auto &[key, value] : *described)
            entries.append({key, Description::text(value, json)});
    }
    QStringList lines;
    for (const auto &[key, value] : entries)
        lines.append(json ? u"\"%1\": %2"_s.arg(key, value) : u"%1: %2"_s.arg(key, value));
    if (json)
        out << '{' << JsonOutput::head(u"describe"_s) << ", " << lines.join(u", "_s) << "}\n";
    else
        out << lines.join(u'\n') << '\n';
    return ExitDone;
}

} // namespace posenc
