#include "ModelConfigCheck.h"

#include "ConfigContext.h"

#include "check/FamilyCheck.h"
#include "check/models/ConfigSources.h"
#include "check/models/LayerSchemes.h"
#include "check/models/ModelFindings.h"
#include "core/FamilySpec.h"

#include <QJsonArray>

#include <algorithm>
#include <numeric>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The keys by which a config without model_type shows its family, checked in this order (HF's
// AutoConfig would guess from the repository's name instead).
QString typeFromKeys(const QJsonObject &o)
{
    if (o.contains(u"relative_attention_num_buckets"_s) || o.contains(u"d_kv"_s))
        return u"t5"_s;
    if (o.contains(u"position_buckets"_s) || o.contains(u"max_relative_positions"_s))
        return u"deberta-v2"_s;
    if (o.contains(u"max_source_positions"_s))
        return u"whisper"_s;
    if (o.contains(u"rotary_pct"_s) || o.contains(u"rotary_emb_base"_s))
        return u"gpt_neox"_s;
    if (o.contains(u"rotary_dim"_s))
        return u"gptj"_s;
    if (o.contains(u"n_positions"_s) && o.contains(u"n_embd"_s))
        return u"gpt2"_s;
    if (o.contains(u"rope_theta"_s) || o.contains(u"rope_scaling"_s) || o.contains(u"rope_parameters"_s))
        return u"llama"_s;
    if (o.contains(u"max_position_embeddings"_s) && o.contains(u"type_vocab_size"_s))
        return u"bert"_s;
    return {};
}

// Whether `key` names something a position encoding reads: such a key at the top of a config
// whose text model reads text_config is not read.
const QStringList &ropeKeys()
{
    static const QStringList keys = {u"rope_theta"_s, u"rope_scaling"_s, u"rope_parameters"_s,
                                     u"partial_rotary_factor"_s, u"rope_local_base_freq"_s};
    return keys;
}

} // namespace

bool ConfigCheck::hasError() const
{
    return std::any_of(findings.cbegin(), findings.cend(),
                       [](const ConfigFinding &f) { return f.severity == Severity::Error; });
}

const ConfigLayer *ConfigCheck::layer(const QString &layerType) const
{
    const auto it
        = std::find_if(layers.cbegin(), layers.cend(), [&](const ConfigLayer &l) { return l.layerType == layerType; });
    return it == layers.cend() ? nullptr : &*it;
}

QString ConfigCheck::firstError(const QString &layerType) const
{
    for (const ConfigFinding &f : findings) {
        if (f.severity == Severity::Error && (f.layerType.isEmpty() || f.layerType == layerType))
            return u"%1: %2"_s.arg(f.id, f.message);
    }
    return QString();
}

const ConfigLayer *ConfigCheck::openLayer() const
{
    const ConfigLayer *first = nullptr;
    for (const ConfigLayer &l : layers) {
        if (!FamilyChecks::of(l.params.encoding).rotary)
            continue;
        if (l.layerType == u"full_attention"_s)
            return &l;
        if (!first)
            first = &l;
    }
    return first;
}

namespace {

// The row of `type`: the text model's row for a wrapper whose text keys sit at the top (older
// saves), the table's row, or Llama's as a guess.
ModelRow rowOf(const QString &type, bool textConfig)
{
    const ModelRow *row = ModelTable::find(type);
    if (row && !row->text.isEmpty() && !textConfig)
        row = ModelTable::find(row->text);
    return row ? *row : ModelTable::guess(type);
}

// The family whose reader reads the config: the row's, or another its keys choose (FalconConfig's
// alibi, Baichuan's hidden size, JAIS's position_embedding_type).
QString schemeOf(ConfigContext &c)
{
    for (const QJsonValue &v : c.model.when) {
        const QJsonArray when = v.toArray();
        if (c.text.json().value(when.at(0).toString()) == when.at(1)) {
            // Where the key leaves HF's class for the remote code its auto_map names (a BERT
            // config's position_embedding_type alibi, JinaBert's), the row says so.
            if (when.size() > 3)
                c.find(u"scheme-by-key"_s, when.at(3).toString());
            return when.at(2).toString();
        }
    }
    // Read from the keys: the rope dict of a model the table lacks with mrope_section is multimodal
    // RoPE (every M-RoPE model's code indexes rope_parameters["mrope_section"]: Qwen2VLAttention,
    // Qwen3VLTextRotaryEmbedding, Qwen3_5TextRotaryEmbedding). A known row's code is the exception:
    // LlamaAttention reads no mrope_section.
    if (c.model.scheme == u"rope"_s && !c.model.known()) {
        for (const QString &key : {u"rope_scaling"_s, u"rope_parameters"_s}) {
            const QJsonValue dict = c.text.json().value(key);
            if (dict.isObject() && !dict.toObject().isEmpty())
                return dict.toObject().contains(u"mrope_section"_s) ? u"mrope"_s : c.model.scheme;
        }
    }
    return c.model.scheme;
}

// Where a wrapper's text model keeps its keys: text_config, language_config or llm_config at the
// top, or the path the wrapper's row names (Qwen3OmniMoeConfig.get_text_config: the thinker's,
// thinker_config.text_config); `path` is set to where. None when the text model's keys are at the top.
std::optional<ConfigObject> textConfigOf(const ConfigObject &top, const QString &type, QString &path)
{
    const ModelRow *wrapper = ModelTable::find(type);
    const QString rowPath = wrapper ? wrapper->raw.value(u"text_path"_s).toString() : QString();
    if (!rowPath.isEmpty()) {
        std::optional<ConfigObject> o = top;
        for (const QString &part : rowPath.split(u'.')) {
            if (!o || !o->json().contains(part))
                return std::nullopt;
            o = o->object(part);
        }
        path = rowPath;
        return o;
    }
    for (const QString &key : {u"text_config"_s, u"language_config"_s, u"llm_config"_s}) {
        if (top.json().contains(key)) {
            path = key;
            return top.object(key); // a value that is no object is a problem of the key
        }
    }
    return std::nullopt;
}

QList<ConfigLayer> readLayers(ConfigContext &c, const QString &scheme)
{
    const std::optional<Encoding> family = Families::fromWord(scheme);
    if (!family || !FamilyChecks::of(*family).readConfig)
        return {};
    // A rotary model's layers (a family with rotary layers: RoPE, or one that turns by RoPE's keys):
    // its row's rules build them, its family reads the groups that turn and the family that places
    // no position (NoPE) the others, in the order of their first layer.
    if (!FamilyChecks::of(*family).rotary)
        return FamilyChecks::of(*family).readConfig(c);
    c.plan = LayerPlans::plan(c);
    QList<ConfigLayer> layers = FamilyChecks::of(*family).readConfig(c);
    for (const FamilySpec &other : Families::all()) {
        if (!other.placesPosition() && FamilyChecks::of(other.encoding).readConfig)
            layers += FamilyChecks::of(other.encoding).readConfig(c);
    }
    // Ordered by index, each layer moved once: a layer is a large object and there may be many.
    std::vector<qsizetype> order(std::size_t(layers.size()));
    std::iota(order.begin(), order.end(), qsizetype(0));
    std::stable_sort(order.begin(), order.end(), [&](qsizetype i, qsizetype j) {
        const ConfigLayer &a = layers.at(i);
        const ConfigLayer &b = layers.at(j);
        return a.layers.empty() || (!b.layers.empty() && a.layers.front() < b.layers.front());
    });
    QList<ConfigLayer> sorted;
    sorted.reserve(layers.size());
    for (const qsizetype i : order)
        sorted.append(std::move(layers[i]));
    return sorted;
}

// What an unknown model_type's keys say of its position scheme, and which keys say it: RoPE from
// a rope_* or rotary_* key (rope_theta, rope_scaling, rotary_pct, partial_rotary_factor, ...) or
// position_embedding_type rotary; a learned table from position_embedding_type absolute (HF's
// BertEmbeddings adds its table only then) or sinusoidal_pos_embds false (DistilBertConfig's
// Embeddings: a learned table unless it is true). Nothing else is evidence: every family's configs
// carry max_position_embeddings, so it names none. Empty when no key says.
std::pair<QString, QString> evidenceOf(const QJsonObject &o)
{
    const QString embedding = o.value(u"position_embedding_type"_s).toString();
    if (embedding == u"rotary"_s || embedding == u"rope"_s)
        return {u"rope"_s, u"position_embedding_type "_s + embedding};
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString &key = it.key();
        if (key.startsWith(u"rope_"_s) || key.startsWith(u"rotary_"_s) || key.contains(u"_rotary_"_s)
            || key.endsWith(u"_rope"_s))
            return {u"rope"_s, key};
    }
    if (embedding == u"absolute"_s)
        return {u"learned"_s, u"position_embedding_type absolute"_s};
    if (o.value(u"sinusoidal_pos_embds"_s) == QJsonValue(false))
        return {u"learned"_s, u"sinusoidal_pos_embds false"_s};
    return {};
}

// An unknown model_type read as a learned table by its keys: its hidden size, layers and table size
// by the names such configs give them (DistilBertConfig's dim and n_layers, GPT-2's n_embd), no
// class's default assumed.
ModelRow learnedGuess(const ModelRow &guess, const QJsonObject &o)
{
    ModelRow row = guess;
    row.scheme = u"learned"_s;
    row.configClass = u"%1's own config class, not read"_s.arg(guess.type);
    row.file = QString();
    row.defaults = {};
    row.when = {};
    QJsonObject aliases;
    const auto alias = [&](const QString &key, const QStringList &names) {
        if (o.contains(key))
            return;
        for (const QString &name : names) {
            if (o.contains(name)) {
                aliases.insert(key, name);
                return;
            }
        }
    };
    alias(u"hidden_size"_s, {u"dim"_s, u"n_embd"_s, u"d_model"_s});
    alias(u"num_hidden_layers"_s, {u"n_layers"_s, u"n_layer"_s, u"num_layers"_s});
    alias(u"max_position_embeddings"_s, {u"n_positions"_s});
    row.aliases = aliases;
    row.raw = {};
    return row;
}

} // namespace

namespace ModelConfig {

ConfigCheck check(const QJsonObject &config)
{
    // A config of another format a family reads whole (diffusers' `_class_name`): its reading.
    for (const FamilySpec &family : Families::all()) {
        if (const auto &read = FamilyChecks::of(family.encoding).readOtherConfig) {
            if (auto other = read(config))
                return std::move(*other);
        }
    }
    ConfigCheck result;
    ConfigContext context(config, result);

    QString type = context.top.string(u"model_type"_s).value_or(QString());
    // A model_type that is no word (a number, a control character) is a problem of its own.
    if (!result.problems.isEmpty()) {
        result.modelType = ConfigObject::jsonText(config.value(u"model_type"_s));
        return result;
    }
    // A multimodal config keeps its text model's keys in text_config (Gemma3Config, Llama4Config,
    // Qwen2-VL as transformers 5 saves it), language_config (DeepseekVLV2Config) or llm_config
    // (InternVLChatConfig's remote code): its code builds the text model from those alone.
    bool inTextConfig = false;
    QString textKey;
    const std::optional<ConfigObject> textConfig = textConfigOf(context.top, type, textKey);
    if (textConfig) {
        context.text = *textConfig;
        result.textConfig = textKey;
        inTextConfig = true;
        const ModelRow *wrapper = ModelTable::find(type);
        type = textConfig->string(u"model_type"_s).value_or(wrapper && !wrapper->text.isEmpty() ? wrapper->text : type);
        for (const QString &key : ropeKeys()) {
            if (config.contains(key) && !textConfig->json().contains(key))
                context.find(u"top-level-rope-keys-ignored"_s,
                             u"%1 is at the top level, where the text model does not read it: HF reads "
                             "%2.%1, which is absent"_s.arg(key, textKey));
            else if (config.contains(key) && config.value(key) != textConfig->json().value(key))
                context.find(u"top-level-rope-keys-ignored"_s,
                             u"%1 at the top level (%2) differs from %4.%1 (%3): HF reads %4's"_s.arg(
                                 key, ConfigObject::jsonText(config.value(key)),
                                 ConfigObject::jsonText(textConfig->json().value(key)), textKey));
        }
    }
    if (type.isEmpty()) {
        type = typeFromKeys(context.text.json());
        if (type.isEmpty()) {
            result.problems.append(
                ConfigProblem {u"model_type"_s,
                               u"a model_type (posenc's table holds %1 of them), or the keys of a family"_s.arg(
                                   ModelTable::all().size()),
                               u"no model_type and no position key (rope_theta, rope_scaling, n_positions, ...)"_s});
            return result;
        }
        context.find(u"model-type-missing"_s,
                     u"no model_type: read as %1 by its keys (HF's AutoConfig would guess it from the "
                     "repository's name)"_s.arg(type));
    }
    result.modelType = type;
    context.model = rowOf(type, inTextConfig);
    // A model_type the table lacks, whose name extends none it holds: its keys name its scheme,
    // or nothing is read (Llama's RoPE is no default for a model whose keys name no rotation).
    if (!context.model.known() && context.model.nearest.isEmpty()) {
        const auto [scheme, because] = evidenceOf(context.text.json());
        if (scheme.isEmpty()) {
            result.modelType = type;
            result.basis = context.model.read;
            result.schemeUnknown = true;
            // Keys that speak of position but name no scheme posenc reads alone (MPNet's T5-like
            // relative_attention_num_buckets beside its learned table) are named: its code decides.
            const QStringList keys = ModelFindings::positionKeys(context.text, {});
            context.find(u"scheme-unknown"_s,
                         u"model_type %1 is not in posenc's table of models and its config names no position "
                         "scheme posenc reads without the model's code (no rope_* or rotary_* key, no "
                         "position_embedding_type, no sinusoidal_pos_embds%2): its encoding is unknown, not read as "
                         "RoPE; give it with --encoding, or a learned table with --position-table"_s.arg(
                             type, keys.isEmpty() ? QString() : u"; it holds "_s + keys.join(u", "_s)));
            return result;
        }
        if (scheme == u"learned"_s) {
            context.model = learnedGuess(context.model, context.text.json());
            context.find(u"scheme-guessed"_s,
                         u"model_type %1 is not in posenc's table of models: %2 says its positions are a learned "
                         "table added to the input, a guess its own code was not read for"_s.arg(type, because));
        }
    }
    result.modelClass = context.model.configClass;
    result.modelFile = context.model.file;
    result.modelCite = context.model.cite;
    result.basis = context.model.read;
    ModelFindings::reportRow(context);
    result.layers = readLayers(context, schemeOf(context));
    LayerSchemes::fill(context, result.layers);
    ConfigSources::fill(context, result.layers);
    ModelFindings::reportLayers(context);
    // Values no model could mean leave nothing described.
    if (!result.problems.isEmpty()) {
        for (ConfigLayer &layer : result.layers)
            layer.described = false;
    }
    return result;
}

} // namespace ModelConfig

} // namespace posenc
