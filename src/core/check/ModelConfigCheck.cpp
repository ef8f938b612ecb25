#include "ModelConfigCheck.h"

#include "ConfigContext.h"

#include <algorithm>

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

ConfigContext::ConfigContext(const QJsonObject &config, ConfigCheck &check)
    : top(config, QString(), &check.problems)
    , text(config, QString(), &check.problems)
    , result(check)
{ }

void ConfigContext::find(const QString &id, const QString &message, const QString &layerType)
{
    const ConfigFinding finding = ConfigFindings::make(id, message, layerType);
    // The same words twice (a default read for each layer type) are said once.
    if (!result.findings.contains(finding))
        result.findings.append(finding);
}

void ConfigContext::implicitDefault(const QString &key, const QString &value)
{
    find(u"implicit-default"_s, u"%1 is absent: HF's %2 takes %3"_s.arg(text.pathOf(key), family.configClass, value));
}

bool ConfigContext::errorFor(const QString &layerType) const
{
    return std::any_of(result.findings.cbegin(), result.findings.cend(), [&](const ConfigFinding &f) {
        return f.severity == Severity::Error && (f.layerType.isEmpty() || f.layerType == layerType);
    });
}

std::int64_t ConfigContext::integerOr(const QStringList &keys, std::int64_t lo, std::int64_t hi, std::int64_t fallback,
                                      bool warn)
{
    for (const QString &key : keys) {
        if (text.has(key))
            return text.integer(key, lo, hi).value_or(fallback);
    }
    if (warn)
        implicitDefault(keys.constFirst(), QString::number(fallback));
    return fallback;
}

QString layerList(const std::vector<std::int64_t> &layers, std::int64_t total)
{
    QStringList words;
    for (const std::int64_t l : layers)
        words.append(QString::number(l));
    return u"%1 (%2 of %3)"_s.arg(words.join(u", "_s)).arg(layers.size()).arg(total);
}

void settleLayer(ConfigContext &context, ConfigLayer &layer, const QHash<QString, QString> &sources)
{
    const QList<ParamError> errors = layer.params.validate();
    if (errors.isEmpty())
        return;
    if (context.errorFor(layer.layerType)) {
        layer.described = false;
        return;
    }
    for (const ParamError &e : errors) {
        QString key = sources.value(e.key);
        if (key.isEmpty())
            key = context.text.pathOf(QString(e.key).replace(u'-', u'_'));
        // A value already refused for its type is not refused again for its absence.
        const bool known = std::any_of(context.result.problems.cbegin(), context.result.problems.cend(),
                                       [&](const ConfigProblem &p) { return p.key == key; });
        if (known)
            continue;
        QString got = e.given.value_or(u"nothing"_s);
        if (!e.problem.isEmpty())
            got += u" ("_s + e.problem + u')';
        context.result.problems.append(ConfigProblem {key, e.allowed.isEmpty() ? e.problem : e.allowed, got});
    }
    layer.described = false;
}

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

const ConfigLayer *ConfigCheck::openLayer() const
{
    const ConfigLayer *first = nullptr;
    for (const ConfigLayer &l : layers) {
        if (l.params.encoding != Encoding::Rope)
            continue;
        if (l.layerType == u"full_attention"_s)
            return &l;
        if (!first)
            first = &l;
    }
    return first;
}

namespace ModelConfig {

ConfigCheck check(const QJsonObject &config)
{
    ConfigCheck result;
    ConfigContext context(config, result);

    QString type = context.top.string(u"model_type"_s).value_or(QString());
    // A model_type that is no word (a number, a control character) is a problem of its own.
    if (!result.problems.isEmpty()) {
        result.modelType = ConfigObject::jsonText(config.value(u"model_type"_s));
        return result;
    }
    // A multimodal config keeps its text model's keys in text_config (Gemma3Config, Llama4Config,
    // Qwen2-VL as transformers 5 saves it): HF builds the text model from those alone.
    if (const auto textConfig = context.top.object(u"text_config"_s)) {
        context.text = *textConfig;
        result.textConfig = u"text_config"_s;
        type = textConfig->string(u"model_type"_s).value_or(ModelFamilies::textType(type));
        for (const QString &key : ropeKeys()) {
            if (config.contains(key) && !textConfig->json().contains(key))
                context.find(u"top-level-rope-keys-ignored"_s,
                             u"%1 is at the top level, where the text model does not read it: HF reads "
                             "text_config.%1, which is absent"_s.arg(key));
            else if (config.contains(key) && config.value(key) != textConfig->json().value(key))
                context.find(u"top-level-rope-keys-ignored"_s,
                             u"%1 at the top level (%2) differs from text_config.%1 (%3): HF reads text_config's"_s.arg(
                                 key, ConfigObject::jsonText(config.value(key)),
                                 ConfigObject::jsonText(textConfig->json().value(key))));
        }
    }
    if (type.isEmpty()) {
        type = typeFromKeys(context.text.json());
        if (type.isEmpty()) {
            result.problems.append(ConfigProblem {
                u"model_type"_s,
                u"a model type posenc knows (%1), or the keys of one"_s.arg(ModelFamilies::knownTypes().join(u", "_s)),
                u"no model_type and no position key (rope_theta, rope_scaling, n_positions, ...)"_s});
            return result;
        }
        context.find(u"model-type-missing"_s,
                     u"no model_type: read as %1 by its keys (HF's AutoConfig would guess it from the "
                     "repository's name)"_s.arg(type));
    }
    result.modelType = type;
    // A multimodal type whose text keys sit at the top (older saves) reads as its text model.
    context.family = ModelFamilies::of(type);
    if (!context.family.known)
        context.family = ModelFamilies::of(ModelFamilies::textType(type));
    // FalconConfig: alibi true replaces the rotation (build_alibi_tensor, as Bloom's).
    if (type == u"falcon"_s && context.text.boolean(u"alibi"_s).value_or(false))
        context.family.scheme = ModelFamilies::Scheme::Alibi;
    if (!context.family.known)
        context.find(u"model-type-unknown"_s,
                     u"model_type %1: posenc knows no HF defaults for it; read as a Llama-style RoPE (LlamaConfig's "
                     "defaults)"_s.arg(type));
    result.layers = context.family.scheme == ModelFamilies::Scheme::Rope ? ropeLayers(context) : otherLayers(context);
    // Values no model could mean leave nothing described.
    if (!result.problems.isEmpty()) {
        for (ConfigLayer &layer : result.layers)
            layer.described = false;
    }
    return result;
}

} // namespace ModelConfig

} // namespace posenc
