#include "ParamOptions.h"

#include "ConfigOptions.h"
#include "EmbeddingOptions.h"
#include "ExitCode.h"
#include "PositionTableOptions.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "io/Preset.h"

using namespace Qt::StringLiterals;

namespace posenc::ParamOptions {

namespace {

const QString kSessionKey = u"session"_s;
const QString kPresetKey = u"preset"_s;
const QString kSessionHelp = u"parameters from a saved session; parameter flags override them"_s;
const QString kPresetHelp = u"the parameters of a preset (posenc presets lists them); parameter flags override them"_s;

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

void add(QCommandLineParser &parser)
{
    for (const QString &key : ParamTable::flagKeys()) {
        const ParamSpec &row = *ParamTable::find(key);
        if (row.kind == ParamKind::Switch)
            parser.addOption(QCommandLineOption(key, row.helpLine()));
        else
            parser.addOption(QCommandLineOption(key, row.helpLine(), row.valueName));
    }
    parser.addOption(QCommandLineOption(kSessionKey, kSessionHelp, u"FILE"_s));
    parser.addOption(QCommandLineOption(kPresetKey, kPresetHelp, u"NAME"_s));
    ConfigOptions::add(parser);
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

Result read(const QCommandLineParser &parser, bool configGivesParams)
{
    if (configGivesParams) {
        const auto config = ConfigOptions::read(parser);
        if (const auto *refused = std::get_if<Result>(&config))
            return *refused;
        if (const auto *chosen = std::get_if<ConfigOptions::Chosen>(&config))
            return read(parser, chosen->texts,
                        u"the config %1 (layer type %2)"_s.arg(chosen->source, chosen->layerType));
    }
    if (parser.isSet(kPresetKey)) {
        const auto chosen = chosenPreset(parser);
        if (const auto *refused = std::get_if<Result>(&chosen))
            return *refused;
        const Preset *preset = std::get<const Preset *>(chosen);
        return read(parser, preset->params, u"the preset %1"_s.arg(preset->name));
    }
    if (!parser.isSet(kSessionKey))
        return read(parser, {}, {});
    const QString path = parser.values(kSessionKey).constLast();
    auto loaded = readSession(path);
    if (const auto *error = std::get_if<SessionError>(&loaded)) {
        Result result;
        result.fileError = error->toString();
        return result;
    }
    Session session = std::get<Session>(std::move(loaded));
    Result result = read(parser, session.params, path);
    result.session = std::move(session);
    return result;
}

Result read(const QCommandLineParser &parser, const Given &base, const QString &origin)
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
    Result result = read(given);
    result.origin = origin;
    for (const QString &key : base.keys()) {
        if (!fromFlags.contains(key))
            result.fromOrigin.append(key);
    }
    return result;
}

Result read(const Given &given)
{
    Result result;
    result.errors = ParamOverlay::set(result.params, given);
    if (result.errors.isEmpty())
        EmbeddingOptions::read(given, result);
    if (result.exitCode() == ExitDone)
        PositionTableOptions::read(given, result);
    if (result.exitCode() == ExitDone)
        result.errors = result.params.validate();
    return result;
}

QString flagText(const ParamError &error)
{
    return u"--%1: %2"_s.arg(error.key, error.sentence());
}

QString helpText()
{
    QString text;
    for (const QString &key : ParamTable::flagKeys()) {
        const ParamSpec &row = *ParamTable::find(key);
        text += u"  %1\n      %2\n"_s.arg(row.flag(), row.helpLine());
    }
    return text + u"  --session FILE\n      %1\n  --preset NAME\n      %2\n"_s.arg(kSessionHelp, kPresetHelp)
        + ConfigOptions::helpText();
}

} // namespace posenc::ParamOptions
