#include "ConfigOptions.h"

#include "ConfigAttention.h"
#include "ConfigDropout.h"
#include "ConfigScale.h"

#include "check/models/ModelExamples.h"
#include "core/FamilySpec.h"
#include "core/ParamError.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "io/ModelConfigFile.h"
#include "render/data/models/ConfigSource.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace posenc::ConfigOptions {

namespace {

ParamOptions::Result refused(const QString &usage, bool io = false)
{
    ParamOptions::Result r;
    (io ? r.fileError : r.usage) = usage;
    return r;
}

// The layer's parameters as texts: the encoding, d_model, max_len, its family's keys and those it
// reads of other families (M-RoPE's RoPE keys).
ParamOptions::Given textsOf(const Params &params)
{
    ParamOptions::Given texts;
    QStringList keys {u"encoding"_s, u"d-model"_s, u"max-len"_s};
    const FamilySpec &family = Families::spec(params.encoding);
    const auto add = [&keys](const QList<ParamSpec> &rows, const QStringList &only) {
        for (const ParamSpec &row : rows) {
            if (row.kind != ParamKind::Matrix && (only.isEmpty() || only.contains(row.key)) && !keys.contains(row.key))
                keys.append(row.key);
        }
    };
    add(family.rows(), {});
    for (const BorrowedRows &b : family.borrows)
        add(Families::spec(b.family).rows(), b.keys);
    for (const QString &key : keys)
        texts.insert(key, ParamText::get(params, key));
    return texts;
}

} // namespace

QList<CommandOption> options()
{
    return {{{QString::fromUtf16(kKey)},
             u"FILE"_s,
             u"the parameters of a layer type of a model's config.json, as its model's code reads it, or of an "
             "example compiled in: %1; parameter flags override them"_s.arg(ModelExamples::names()),
             ModelExamples::names().split(u", "_s),
             true},
            {{QString::fromUtf16(kLayerKey)},
             u"TYPE"_s,
             u"the layer type of --config (full_attention, sliding_attention, ...; default its rotary "
             "full_attention layers, or the first that places position)"_s}};
}

const ConfigLayer *layerOf(const ConfigCheck &check, const QString &wanted)
{
    if (!wanted.isEmpty())
        return check.layer(wanted);
    if (const ConfigLayer *open = check.openLayer())
        return open;
    for (const ConfigLayer &l : check.layers) {
        if (l.described && Families::spec(l.params.encoding).placesPosition())
            return &l;
    }
    return check.layers.isEmpty() ? nullptr : &check.layers.first();
}

std::variant<std::monostate, Chosen, ParamOptions::Result> read(const QCommandLineParser &parser)
{
    const QString key = QString::fromUtf16(kKey);
    const QString layerKey = QString::fromUtf16(kLayerKey);
    if (!parser.isSet(key)) {
        if (parser.isSet(layerKey))
            return refused(u"--layer-type: chooses a layer type of --config, which is not given"_s);
        return std::monostate();
    }
    // Only the options this command has: QCommandLineParser warns of a name it does not know.
    const QStringList given = parser.optionNames();
    // A lesson reads the config as its model (LessonOptions).
    for (const QString &other : {u"session"_s, u"preset"_s}) {
        if (given.contains(other))
            return refused(u"--config, --%1: give one of them; parameter flags override either"_s.arg(other));
    }
    auto picked = choose(parser.values(key).constLast(),
                         parser.isSet(layerKey) ? parser.values(layerKey).constLast() : QString());
    if (auto *chosen = std::get_if<Chosen>(&picked))
        return std::move(*chosen);
    return std::get<ParamOptions::Result>(std::move(picked));
}

std::variant<Chosen, ParamOptions::Result> choose(const QString &source, const QString &wanted)
{
    Chosen chosen;
    chosen.source = source;
    const auto loaded = ConfigSource::load(chosen.source);
    if (const auto *error = std::get_if<ConfigSource::Refusal>(&loaded)) {
        // A name that is neither a file nor an example: the names it may be ("--config glm-4.5"
        // said only "no such file").
        const QString names = QFileInfo::exists(source) ? QString() : u"; it must be "_s + ConfigSource::allowed();
        return refused(u"--config: "_s + error->message + names, error->unreadable);
    }
    chosen.check = std::get<ConfigSource::Loaded>(loaded).check;
    chosen.name = std::get<ConfigSource::Loaded>(loaded).name;
    // A model the table lacks whose config names no scheme: nothing to teach or draw as its own.
    if (chosen.check.schemeUnknown) {
        return refused(u"--config: model_type %1 is not in posenc's table and its config names no position scheme; "
                       "give it with --encoding FAMILY (posenc help parameters), or a learned table with "
                       "--position-table FILE"_s.arg(chosen.check.modelType));
    }
    const ConfigLayer *layer = layerOf(chosen.check, wanted);
    if (!layer) {
        QStringList types;
        for (const ConfigLayer &l : chosen.check.layers)
            types.append(l.layerType);
        return refused(u"--layer-type: must be one of the config's layer types (%1); got %2"_s.arg(
            types.join(u", "_s), ParamError::quoted(wanted)));
    }
    if (!layer->described) {
        return refused(u"--config: layer type %1 cannot be computed (%2); see posenc check --config"_s.arg(
            layer->layerType, chosen.check.firstError(layer->layerType)));
    }
    chosen.layerType = layer->layerType;
    chosen.texts = textsOf(layer->params);
    // The layer's sliding window where its config gives one (Mistral's sliding_window on its
    // sliding_attention layers), as a preset's "params" set it; a window each side of the query
    // (ModernBERT's local layers) is not the causal window the row draws.
    if (layer->scheme.window && !layer->scheme.windowBothSides)
        chosen.texts.insert(u"sliding-window"_s, QString::number(*layer->scheme.window));
    // Its chunks likewise (Llama 4's attention_chunk_size on its chunked_attention layers), as its
    // preset sets "attention-chunk".
    if (layer->scheme.chunk)
        chosen.texts.insert(u"attention-chunk"_s, QString::number(*layer->scheme.chunk));
    // The p its code drops the input with, where the config gives it, as a preset names its dropout.
    const ConfigDropout::Read dropout = ConfigDropout::of(
        chosen.check.modelType, std::get<ConfigSource::Loaded>(loaded).config, chosen.check.textConfig);
    if (dropout.p)
        chosen.texts.insert(u"dropout"_s, QString::number(*dropout.p, 'g', 17));
    chosen.noInputDropout = dropout.none;
    // The factor its code multiplies the embeddings by, where the config gives it, as a preset names
    // its "scale"; none is s = 1.
    const ConfigScale::Read scale = ConfigScale::of(
        chosen.check.modelType, std::get<ConfigSource::Loaded>(loaded).config, chosen.check.textConfig);
    if (scale.none)
        chosen.texts.insert(u"scale"_s, u"1"_s);
    else if (scale.s)
        chosen.texts.insert(u"scale"_s, QString::number(*scale.s, 'g', 17));
    chosen.noEmbeddingScale = scale.none;
    // A decoder's layers (Whisper's, T5's "decoder") mask causally whatever the model_type; the
    // mask is the model's "attention" row, as a preset's "params" set it.
    const QJsonObject &config = std::get<ConfigSource::Loaded>(loaded).config;
    const bool decoder = chosen.layerType == u"decoder"_s;
    if (!decoder && ConfigAttention::bothWays(chosen.check.modelType, config, chosen.check.textConfig))
        chosen.texts.insert(u"attention"_s, u"both-ways"_s);
    // How its code adds its position term, the model's "positions-added" row, as a preset's "params"
    // set it: by column where the model table says so of the layer type.
    if (ConfigAttention::byColumn(chosen.check.modelType, chosen.layerType))
        chosen.texts.insert(u"positions-added"_s, u"by-column"_s);
    chosen.encoderDecoder = ConfigAttention::encoderDecoder(config);
    return chosen;
}

bool isModelConfig(const QString &path)
{
    const ReadResult<QJsonObject> read = ModelConfigFile::read(path);
    if (!read || read.value().value(u"format"_s).toString() == u"posenc-session"_s)
        return false;
    return !ModelConfig::check(read.value()).modelType.isEmpty();
}

} // namespace posenc::ConfigOptions
