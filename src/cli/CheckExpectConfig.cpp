#include "CheckExpectConfig.h"

#include "ExitCode.h"
#include "ParamOptions.h"

#include "check/FamilyCheck.h"
#include "check/ModelConfigCheck.h"
#include "check/models/ModelTable.h"
#include "core/FamilySpec.h"
#include "core/ParamError.h"
#include "core/ParamText.h"
#include "io/ModelConfigFile.h"

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::CheckExpect {

namespace {

QStringList layerTypes(const ConfigCheck &check)
{
    QStringList types;
    for (const ConfigLayer &layer : check.layers)
        types.append(layer.layerType);
    return types;
}

// The layer named, or without a name the config's only layer type, or its rotary full_attention
// layers (the window's choice); or why none.
std::variant<const ConfigLayer *, Refusal> chosenLayer(const ConfigCheck &check, const QString &path,
                                                       const QString &layerType)
{
    const QString types = layerTypes(check).join(u", "_s);
    if (!layerType.isEmpty()) {
        if (const ConfigLayer *layer = check.layer(layerType))
            return layer;
        return Refusal {ExitUsage,
                        {u"--layer-type: must be one of the config's layer types (%1); got %2"_s.arg(
                            types, ParamError::quoted(layerType))}};
    }
    if (check.layers.size() == 1)
        return &check.layers.constFirst();
    if (const ConfigLayer *layer = check.openLayer())
        return layer;
    return Refusal {ExitUsage, {u"--layer-type: %1 has the layer types %2; name one"_s.arg(path, types)}};
}

// The input flags laid over the layer's parameters, or the refusal of a flag the config gives.
std::optional<Refusal> layInputs(Params &params, const FamilySpec &spec,
                                 const QList<std::pair<QString, QString>> &inputs)
{
    QStringList refused, allowed;
    for (const QString &key : FamilyChecks::of(spec.encoding).inputKeys)
        allowed.append(u"--"_s + key);
    for (const auto &[key, text] : inputs) {
        if (!FamilyChecks::of(spec.encoding).inputKeys.contains(key))
            refused.append(u"--"_s + key);
    }
    if (!refused.isEmpty()) {
        const QString input = allowed.isEmpty() ? QString() : u" (its input: %1)"_s.arg(allowed.join(u", "_s));
        return Refusal {ExitUsage,
                        {u"%1: --expect-config's config gives the layer's parameters%2; a family's parameters are "
                         "read with --expect FAMILY"_s.arg(refused.join(u", "_s), input)}};
    }
    for (const auto &[key, text] : inputs) {
        if (const auto error = ParamText::set(params, key, text))
            return Refusal {ExitUsage, {ParamOptions::flagText(*error)}};
    }
    const QList<ParamError> errors = params.validate();
    if (!errors.isEmpty())
        return Refusal {ExitUsage, {ParamOptions::flagText(errors.constFirst())}};
    return std::nullopt;
}

} // namespace

std::variant<Expectation, Refusal> configExpectation(const QString &path, const QString &layerType,
                                                     const QList<std::pair<QString, QString>> &inputs)
{
    const auto failure = [&](int code, const QString &line) { return Refusal {code, {u"--expect-config: "_s + line}}; };
    const ReadResult<QJsonObject> read = ModelConfigFile::read(path);
    if (!read)
        return failure(exitCodeOf(read.error()), read.error().toString());
    const ConfigCheck check = ModelConfig::check(read.value());
    if (check.modelType.isEmpty())
        return failure(ExitIo,
                       u"%1: not a model config: %2; model_type must be %3"_s.arg(path, check.problems.value(0).got,
                                                                                  check.problems.value(0).allowed));
    if (!check.problems.isEmpty())
        return failure(ExitUsage,
                       u"%1: %2 (posenc check --config %1 lists every problem)"_s.arg(
                           path, check.problems.constFirst().toString()));
    const auto chosen = chosenLayer(check, path, layerType);
    if (const auto *refused = std::get_if<Refusal>(&chosen))
        return *refused;
    const ConfigLayer &layer = *std::get<const ConfigLayer *>(chosen);
    if (!layer.described)
        return failure(ExitUsage,
                       u"layer type %1 cannot be computed from %2 (%3; posenc check --config %2 lists every "
                       "finding)"_s.arg(layer.layerType, path, check.firstError(layer.layerType)));
    const FamilySpec &spec = Families::spec(layer.params.encoding);
    const std::optional<TableHypothesis> &table = FamilyChecks::of(spec.encoding).table;
    if (!table || !table->expect)
        return failure(
            ExitUsage,
            u"layer type %1 of %2 is %3, which has no formula to compare with%4"_s.arg(
                layer.layerType, path, spec.word,
                Families::tableRow(spec) ? u"; compare with a dump of its weights with --expect-table"_s : QString()));
    Expectation e;
    e.kind = Expectation::Kind::Family;
    e.family = layer.params.encoding;
    e.params = layer.params;
    if (const auto refused = layInputs(e.params, spec, inputs))
        return *refused;
    e.tables = table->tables;
    e.widthGiven = true;
    e.lengthGiven
        = std::any_of(inputs.cbegin(), inputs.cend(), [](const auto &input) { return input.first == u"max-len"_s; });
    e.source = u"%1, layer type %2"_s.arg(path, layer.layerType);
    e.configPath = path;
    e.configSources = layer.sources;
    const ModelRow *row = ModelTable::find(check.modelType);
    e.halfTableToo = row && row->halfCosTable && e.family == Encoding::Rope
        && e.params.rope.layout == RopeLayout::Interleaved;
    for (const auto &input : inputs)
        e.inputs.append(input.first);
    return e;
}

} // namespace posenc::CheckExpect
