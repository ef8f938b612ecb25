#include "ParamOptions.h"

#include "BatchFileOptions.h"
#include "ConfigOptions.h"
#include "EmbeddingOptions.h"
#include "ExitCode.h"
#include "PositionTableOptions.h"

#include "core/FamilySpec.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "io/Preset.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace posenc::ParamOptions {

namespace {

const QString kSessionKey = u"session"_s;
const QString kPresetKey = u"preset"_s;
const QString kSessionHelp = u"parameters from a saved session; parameter flags override them"_s;
const QString kPresetHelp = u"the parameters of a preset (posenc presets lists them); parameter flags override them"_s;

const QString kEncodingKey = u"encoding"_s;

// "a", "a or b", "a, b or c".
QString alternatives(const QStringList &words, const QString &conjunction)
{
    if (words.size() < 2)
        return words.join(QString());
    return words.mid(0, words.size() - 1).join(u", "_s) + u" "_s + conjunction + u" "_s + words.constLast();
}

QStringList wordsOf(const QList<Encoding> &families)
{
    QStringList words;
    for (const Encoding family : families)
        words.append(FamilyInference::word(family));
    return words;
}

// Sets the family the family parameters given and `clues` choose, or says why none can be:
// the clues and the families each fits, and the --encoding to give.
QString inferFamily(Params &params, const Given &given, const Clues &clues)
{
    Clues all;
    for (const QString &key : given.keys()) {
        if (auto clue = FamilyInference::parameterClue(key, u"--"_s + key))
            all.append(std::move(*clue));
    }
    all += clues;
    const FamilyInference::Outcome outcome = FamilyInference::infer(params, all);
    if (outcome.family) {
        params.encoding = *outcome.family;
        return {};
    }
    QStringList clueWords;
    for (const FamilyInference::Clue &clue : all)
        clueWords.append(
            u"%1 (%2)"_s.arg(clue.what, alternatives(wordsOf(FamilyInference::familiesOf(clue, params)), u"or"_s)));
    if (outcome.candidates.isEmpty())
        return u"--encoding: no family has all of %1; give --encoding and the parameters of one family"_s.arg(
            alternatives(clueWords, u"and"_s));
    QStringList choices;
    for (const QString &word : wordsOf(outcome.candidates))
        choices.append(u"--encoding "_s + word);
    // Only the command says anything of the family (a bare posenc describe): which it needs.
    if (all.size() == 1 && all.size() == clues.size())
        return u"--encoding: %1 needs one family; give %2"_s.arg(all.constFirst().what, alternatives(choices, u"or"_s));
    return u"--encoding: %1 %2 more than one family; give %3"_s.arg(
        alternatives(clueWords, u"and"_s), all.size() == 1 ? u"fits"_s : u"fit"_s, alternatives(choices, u"or"_s));
}

// Other names of a parameter's flag, by its key: the word a user types for it where it is not the
// flag's (--cls for MAE's cls token). The command line takes them and a shell completes them; a
// session's key is the flag's alone. The parameter's help line names them.
const QHash<QString, QStringList> &flagAliases()
{
    static const QHash<QString, QStringList> aliases {{u"cls-token"_s, {u"cls"_s}}};
    return aliases;
}

// The option of a parameter row: its choices are what a shell completes, a matrix's a path.
CommandOption optionOf(const ParamSpec &row)
{
    CommandOption option {QStringList {row.key} + flagAliases().value(row.key),
                          row.kind == ParamKind::Switch ? QString() : row.valueName, row.helpLine()};
    if (row.kind == ParamKind::Choice || row.kind == ParamKind::ChoiceOrNumber)
        option.values = row.choices;
    // A matrix read from a file (--tokens, a matrix row too, lists rows of one).
    option.completesFiles = row.kind == ParamKind::Matrix && row.valueName.startsWith(u"FILE"_s);
    return option;
}

// The heading of a group of rows in posenc help parameters: a family's by its --encoding and its
// spec's heading, the shared groups by their names.
QString groupHeading(const ParamSpec &row)
{
    if (row.family) {
        const FamilySpec &family = Families::spec(*row.family);
        return u"Parameters of --encoding %1 (%2)"_s.arg(family.word, family.heading);
    }
    switch (row.group) {
    case ParamGroup::Model:
        return u"The model"_s;
    case ParamGroup::Embeddings:
        return u"The embeddings"_s;
    case ParamGroup::Dropout:
        return u"Dropout"_s;
    case ParamGroup::Batch:
        return u"The batch and its position ids"_s;
    case ParamGroup::Run:
        return u"The run"_s;
    case ParamGroup::Family:
        break;
    }
    return u"Parameters"_s;
}

// The preset --preset names, or why it cannot be used.
std::variant<const Preset *, Result> chosenPreset(const QCommandLineParser &parser)
{
    Result refused;
    if (parser.isSet(kSessionKey)) {
        refused.usage = u"--preset, --session: give one of them; parameter flags override either"_s;
        return refused;
    }
    const QString name = parser.values(kPresetKey).constLast();
    if (const Preset *preset = Presets::find(name))
        return preset;
    refused.errors.append({kPresetKey, u"one of %1 (posenc presets lists them)"_s.arg(Presets::names().join(u", "_s)),
                           QString(), ParamError::quoted(name)});
    return refused;
}

} // namespace

QList<CommandOption> options()
{
    QList<CommandOption> all;
    for (const QString &key : ParamTable::flagKeys())
        all.append(optionOf(*ParamTable::find(key)));
    all.append({{kSessionKey}, u"FILE"_s, kSessionHelp, {}, true});
    all.append({{kPresetKey}, u"NAME"_s, kPresetHelp, Presets::names()});
    all += ConfigOptions::options();
    return all;
}

void add(QCommandLineParser &parser)
{
    CommandOptions::add(parser, options());
}

int Result::exitCode() const
{
    if (!errors.isEmpty() || !usage.isEmpty())
        return ExitUsage;
    if (!fileError.isEmpty())
        return ExitIo;
    if (!overBudget.isEmpty())
        return ExitOverBudget;
    return ExitDone;
}

QStringList Result::messages() const
{
    QStringList lines;
    if (!usage.isEmpty())
        lines.append(usage);
    for (const ParamError &e : errors) {
        // A message names the session, lesson or preset for the values that came from it.
        const bool fromBase = fromOrigin.contains(e.key);
        lines.append(flagText(e) + (fromBase ? u" (in %1)"_s.arg(origin) : QString()));
    }
    for (const QString &line : {fileError, overBudget}) {
        if (!line.isEmpty())
            lines.append(line);
    }
    return lines;
}

namespace {

// max_len where it is not given: the largest up to its default that the other parameters allow
// (a 2-D sin-cos table has the H·W patches of --grid, and the cls row; a table or a matrix read
// has its rows), where its default is more than they allow and nothing else is wrong. Only the
// errors of validate() are weighed: a value that could not be read stays refused.
void followMaxLen(Result &result)
{
    Params params = result.params;
    std::int64_t low = 0, high = params.maxLen; // valid at low (0: none found), invalid at high
    while (high - low > 1) {
        params.maxLen = low + (high - low) / 2;
        (params.validate().isEmpty() ? low : high) = params.maxLen;
    }
    if (low < 1)
        return;
    result.params.maxLen = low;
    result.errors.clear();
}

} // namespace

Result read(const QCommandLineParser &parser, const Clues &clues, bool configGivesParams, const Fit &fit)
{
    if (configGivesParams) {
        const auto config = ConfigOptions::read(parser);
        if (const auto *refused = std::get_if<Result>(&config))
            return *refused;
        if (const auto *chosen = std::get_if<ConfigOptions::Chosen>(&config)) {
            Result result = read(parser, chosen->texts,
                                 u"the config %1 (layer type %2)"_s.arg(chosen->source, chosen->layerType), clues, fit);
            if (const ConfigLayer *layer = chosen->check.layer(chosen->layerType)) {
                // The layer's parameters with what --config reads of the model's input (ConfigDropout's
                // p, ConfigScale's s), so that parameters no flag changed are still the layer's.
                ConfigLayer read = *layer;
                for (const QString &key : {u"dropout"_s, u"scale"_s}) {
                    if (chosen->texts.contains(key))
                        ParamText::set(read.params, key, chosen->texts.value(key));
                }
                result.configLayer = std::make_shared<const ConfigLayer>(std::move(read));
            }
            return result;
        }
    }
    if (parser.isSet(kPresetKey)) {
        const auto chosen = chosenPreset(parser);
        if (const auto *refused = std::get_if<Result>(&chosen))
            return *refused;
        const Preset *preset = std::get<const Preset *>(chosen);
        return read(parser, preset->params, u"the preset %1"_s.arg(preset->name), clues, fit);
    }
    if (!parser.isSet(kSessionKey))
        return read(parser, {}, {}, clues, fit);
    const QString path = parser.values(kSessionKey).constLast();
    auto loaded = readSession(path);
    if (const auto *error = std::get_if<SessionError>(&loaded)) {
        Result result;
        result.fileError = error->toString();
        return result;
    }
    Session session = std::get<Session>(std::move(loaded));
    Result result = read(parser, session.params, path, clues, fit);
    result.session = std::move(session);
    return result;
}

Result read(const QCommandLineParser &parser, const Given &base, const QString &origin, const Clues &clues,
            const Fit &fit)
{
    Given given = base;
    QStringList fromFlags;
    for (const QString &key : Session::parameterKeys()) {
        if (!parser.isSet(key))
            continue;
        const bool isSwitch = ParamTable::find(key)->kind == ParamKind::Switch;
        given.insert(key, isSwitch ? u"true"_s : parser.values(key).constLast());
        fromFlags.append(key);
    }
    if (const auto longest = BatchFileOptions::longestRow(given, fromFlags)) {
        given.insert(u"max-len"_s, QString::number(*longest));
        fromFlags.append(u"max-len"_s);
    }
    // A file's flag given an empty text (a script's empty variable) names the flag, not a file
    // whose name is empty.
    QList<ParamError> emptyFiles;
    for (const QString &key : fromFlags) {
        const ParamSpec *row = ParamTable::find(key);
        if (row->kind == ParamKind::Matrix && row->valueName.startsWith(u"FILE"_s)
            && given.value(key).trimmed().isEmpty())
            emptyFiles.append(ParamError {key, u"a file's name"_s, QString(), ParamError::quoted(given.value(key))});
    }
    if (!emptyFiles.isEmpty()) {
        Result refused;
        refused.errors = emptyFiles;
        return refused;
    }
    Result result = read(given, clues, fit);
    result.origin = origin;
    for (const QString &key : base.keys()) {
        if (!fromFlags.contains(key))
            result.fromOrigin.append(key);
    }
    return result;
}

Result read(const Given &given, const Clues &clues, const Fit &fit)
{
    Result result;
    result.errors = ParamOverlay::set(result.params, given);
    // A text that is no value names the range the run allows, with the sizes `fit` lays from the
    // files: --cache 1e3 against the ids' length, not the default max_len's 1024.
    if (!result.errors.isEmpty() && fit) {
        fit(result.params, given);
        result.errors = ParamOverlay::set(result.params, given);
    }
    if (result.errors.isEmpty() && !given.contains(kEncodingKey))
        result.usage = inferFamily(result.params, given, clues);
    if (result.exitCode() == ExitDone)
        EmbeddingOptions::read(given, result);
    if (result.exitCode() == ExitDone)
        PositionTableOptions::read(given, result);
    if (result.exitCode() == ExitDone)
        BatchFileOptions::read(given, result);
    if (result.exitCode() != ExitDone)
        return result;
    if (fit)
        fit(result.params, given);
    result.errors = result.params.validate();
    if (!result.errors.isEmpty() && !given.contains(u"max-len"_s))
        followMaxLen(result);
    return result;
}

QString flagText(const ParamError &error)
{
    return u"--%1: %2"_s.arg(error.key, error.sentence());
}

HelpPage helpPage()
{
    HelpPage page;
    page.topic = u"parameters"_s;
    page.usage = {u"posenc [COMMAND] [PARAMETERS]"_s};
    page.section().paragraph(
        u"Every command takes the parameters (posenc lessons and presets aside), and the window opens on them. They "
        "have the names of a session file's keys. A --session FILE or --preset NAME gives a set of them, and every "
        "parameter flag given overrides it. A family's parameters are read under its --encoding; given without "
        "--encoding, they choose it (--rope-theta 500000 is --encoding rope)."_s);
    QList<HelpItem> items;
    QString heading;
    const auto close = [&] {
        if (!items.isEmpty())
            page.section(heading).items(items);
        items.clear();
    };
    // A section per group of rows, each family's its own.
    std::optional<std::pair<ParamGroup, std::optional<Encoding>>> group;
    for (const QString &key : ParamTable::flagKeys()) {
        const ParamSpec &row = *ParamTable::find(key);
        if (group != std::pair {row.group, row.family}) {
            close();
            group = std::pair {row.group, row.family};
            heading = groupHeading(row);
        }
        items.append({row.flag(), row.helpLine()});
    }
    close();
    QList<HelpItem> sets {{u"--session FILE"_s, kSessionHelp},
                          {u"--preset NAME"_s, kPresetHelp + u": "_s + Presets::names().join(u", "_s)}};
    for (const CommandOption &option : ConfigOptions::options())
        sets.append({option.spelling(), option.help});
    page.section(u"Sets of parameters"_s).items(sets);
    return page;
}

} // namespace posenc::ParamOptions
