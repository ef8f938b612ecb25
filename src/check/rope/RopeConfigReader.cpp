// RoPE's config reader: the rope dict of each layer type of a rotary model, and its layer groups
// that turn (RopeConfigReader.h). The layers themselves come from the model's row (LayerPlan).
#include "RopeConfigReader.h"

#include "core/NumberText.h"
#include "core/rope/RopeTypes.h"

#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> RopeConfigReader::layers()
{
    readDicts();
    QList<ConfigLayer> out;
    out.reserve(m_c.plan.groups.size());
    // Layer types the reading cannot tell apart are read once: a config may name tens of thousands.
    QHash<QString, qsizetype> read;
    for (const LayerGroup &group : m_c.plan.groups) {
        if (!group.rope)
            continue;
        const QString key = readingKey(group);
        const auto it = read.constFind(key);
        if (it == read.cend()) {
            read.insert(key, out.size());
            out.append(layerOf(group));
            continue;
        }
        ConfigLayer layer = out.at(*it);
        layer.layerType = group.name;
        layer.layers = group.layers;
        out.append(std::move(layer));
    }
    noteSliding(out);
    return out;
}

// What the reading of a layer type depends on beyond the config as a whole: its dict, its theta
// keys, its head. Types alike in all of it read alike; a type whose findings name it (per-layer
// dicts) is its own key.
QString RopeConfigReader::readingKey(const LayerGroup &group) const
{
    const QString &type = group.type;
    if (m_nested || group.name != type)
        return u"type:"_s + group.name;
    const auto dict = m_dicts.find(type);
    const QString dictPath = dict != m_dicts.end() && dict->second ? dict->second->path() : QString();
    const bool ownTheta = m_row.theta.contains(type) || !typeThetaKey(type).isEmpty();
    const bool ownHead = m_row.headDimByType.contains(type);
    return u"%1|%2|%3|%4"_s.arg(ownTheta || ownHead ? type : QString(), dictPath)
        .arg(m_c.plan.headDimOf(type))
        .arg(dict != m_dicts.end());
}

QSet<QString> RopeConfigReader::labels() const
{
    QSet<QString> types;
    for (const LayerGroup &group : m_c.plan.groups) {
        if (group.rope)
            types.insert(group.type);
    }
    return types;
}

// From the plan's groups, not each of its layers (a config may list 65,536).
QSet<QString> RopeConfigReader::plannedTypes() const
{
    QSet<QString> types;
    for (const LayerGroup &group : m_c.plan.groups)
        types.insert(group.type);
    return types;
}

// convert_rope_params_to_dict: `rope_scaling or rope_parameters` (an empty rope_scaling is
// Python-false), then nested by layer type when every key is one.
void RopeConfigReader::readDicts()
{
    const ConfigObject &t = m_c.text;
    const auto scaling = t.object(u"rope_scaling"_s);
    auto parameters = t.object(u"rope_parameters"_s);
    const bool scalingUsed = scaling && !scaling->json().isEmpty();
    if (scalingUsed && parameters && !parameters->json().isEmpty()) {
        if (scaling->json() == parameters->json())
            m_c.find(u"rope-scaling-duplicates-parameters"_s,
                     u"rope_scaling and rope_parameters are both given and alike: HF reads rope_scaling"_s);
        else
            m_c.find(u"rope-scaling-overrides-parameters"_s,
                     u"rope_scaling %1 and rope_parameters %2 differ: HF reads rope_scaling and ignores "
                     "rope_parameters"_s.arg(ConfigObject::jsonText(scaling->json()),
                                             ConfigObject::jsonText(parameters->json())));
    }
    m_dictPath = scalingUsed ? u"rope_scaling"_s : u"rope_parameters"_s;
    if (!scalingUsed && parameters && !parameters->json().isEmpty())
        m_c.find(
            u"rope-parameters-v5-form"_s,
            u"%1 is transformers 5's form: transformers 4 and the tools that read rope_scaling (and "
            "rope_theta beside it) see no scaling here, and tools that read config.rope_theta get their "
            "default (DeepSpeed#8345, vllm#42624, sglang#14745, slime#1720)"_s.arg(t.pathOf(u"rope_parameters"_s)));
    // The class's own rope_parameters when the config gives none (GptOssConfig's yarn, Ministral3Config's).
    if (!scalingUsed && (!parameters || parameters->json().isEmpty()) && !m_row.defaultRope.isEmpty()) {
        m_c.implicitDefault(u"rope_parameters"_s, ConfigObject::jsonText(m_row.defaultRope));
        parameters = ConfigObject(m_row.defaultRope, t.pathOf(u"rope_parameters"_s), &m_c.result.problems);
        m_fromClass = true;
    }
    if (m_row.dicts != u"one"_s) {
        readPerType(scalingUsed ? scaling : std::nullopt, parameters);
        return;
    }
    const std::optional<ConfigObject> chosen = scalingUsed ? scaling : parameters;
    const QSet<QString> types = labels();
    if (chosen && !chosen->json().isEmpty() && readNested(*chosen, types))
        return;
    for (const QString &type : types)
        m_dicts[type] = chosen;
}

// A dict keyed by layer types, for a model whose rotary embedding reads one dict: each layer type
// read from its own, with the finding that HF cannot. False when the dict is flat.
bool RopeConfigReader::readNested(const ConfigObject &chosen, const QSet<QString> &types)
{
    const QStringList keys = chosen.json().keys();
    const QSet<QString> planned = plannedTypes();
    const qsizetype inTypes = std::count_if(keys.cbegin(), keys.cend(),
                                            [&](const QString &k) { return types.contains(k) || planned.contains(k); });
    if (inTypes == 0)
        return false;
    m_nested = true;
    mixedKeys(chosen, types);
    m_c.find(u"per-layer-dicts-unsupported"_s,
             u"%1 gives one dict per layer type, but HF's %2 builds one rotary embedding from "
             "rope_parameters[\"rope_type\"], which a per-layer form lacks"_s.arg(chosen.path(), m_row.configClass));
    for (const QString &type : types) {
        if (!chosen.has(type))
            m_c.find(u"layer-dict-missing"_s, u"%1 has no dict for layer type %2"_s.arg(chosen.path(), type), type);
        m_dicts[type] = chosen.object(type);
    }
    return true;
}

void RopeConfigReader::mixedKeys(const ConfigObject &chosen, const QSet<QString> &types)
{
    QStringList stray;
    const QSet<QString> planned = plannedTypes();
    for (const QString &k : chosen.json().keys()) {
        if (!types.contains(k) && !planned.contains(k))
            stray.append(k);
    }
    if (!stray.isEmpty())
        m_c.find(u"rope-parameters-mixed-keys"_s,
                 u"%1 holds %2 beside its per-layer dicts: HF's standardize_rope_params then reads the "
                 "whole as one flat dict, and no layer type's as its own%3"_s.arg(
                     chosen.path(), ConfigText::keyList(stray),
                     stray.contains(u"truncate"_s) ? u" (truncate belongs in the yarn dict)"_s : QString()));
}

// A class that keeps a rope dict per layer type: Gemma3TextConfig, ModernBertConfig and
// Olmo3Config convert rope_scaling (into the layer types of scaling_to) and their theta keys
// into the dicts; Gemma4TextConfig converts nothing (convert_rope_params_to_dict is a no-op), so
// its dicts must be given per layer type.
void RopeConfigReader::readPerType(const std::optional<ConfigObject> &scaling,
                                   const std::optional<ConfigObject> &parameters)
{
    m_nested = true;
    const bool only = m_row.dicts == u"per-type-only"_s;
    if (parameters && !parameters->json().isEmpty())
        mixedKeys(*parameters, labels());
    if (only && m_c.text.has(u"rope_theta"_s))
        m_c.find(
            u"rope-theta-not-read"_s,
            u"%1 is beside the per-layer dicts, where HF's %2 does not read it (its convert_rope_params_to_dict is "
            "a no-op): each layer type's theta is its dict's"_s.arg(m_c.text.pathOf(u"rope_theta"_s),
                                                                    m_row.configClass));
    for (const QString &type : labels()) {
        std::optional<ConfigObject> dict;
        if (parameters && !parameters->json().isEmpty()) {
            if (!parameters->has(type))
                m_c.find(u"layer-dict-missing"_s,
                         u"%1 has no %2 dict: %3 reads rope_parameters[\"%2\"] (KeyError)"_s.arg(
                             parameters->path(), type, m_row.configClass),
                         type);
            dict = parameters->object(type);
        }
        QJsonObject merged = dict ? dict->json() : QJsonObject {{u"rope_type"_s, u"default"_s}};
        if (scaling && m_row.scalingTo.contains(type)) {
            // rope_scaling's legacy type is its rope_type (standardize_rope_params), not default's.
            if (!dict && scaling->json().contains(u"type"_s))
                merged.remove(u"rope_type"_s);
            for (auto it = scaling->json().begin(); it != scaling->json().end(); ++it)
                merged.insert(it.key(), it.value());
            // DeepseekV4Config: compress.setdefault("attention_factor", 1.0) for yarn (its reference
            // does not multiply cos and sin by yarn's mscale).
            const QJsonValue forced = m_row.raw.value(u"yarn_attention_factor"_s);
            const QString word = merged.value(u"rope_type"_s).toString(merged.value(u"type"_s).toString());
            if (forced.isDouble() && word == u"yarn"_s && !merged.contains(u"attention_factor"_s))
                merged.insert(u"attention_factor"_s, forced);
        }
        const QString path = dict                       ? dict->path()
            : scaling && m_row.scalingTo.contains(type) ? scaling->path()
                                                        : m_c.text.path();
        m_dicts[type] = ConfigObject(merged, path, &m_c.result.problems);
    }
}

ConfigLayer RopeConfigReader::layerOf(const LayerGroup &group)
{
    ConfigLayer layer;
    layer.layerType = group.name;
    layer.layers = group.layers;
    m_headDim = m_c.plan.headDimOf(group.type);
    Params &p = layer.params;
    p.dModel = std::clamp<std::int64_t>(std::max(m_c.plan.hidden, m_headDim), 1, Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(m_c.plan.maxPositions, 1, Params::kMaxLen);
    p.encoding = Encoding::Rope;
    QHash<QString, QString> sources;
    readRope(layer, group.type, sources);
    layer.readFrom = sources;
    settleLayer(m_c, layer, sources);
    return layer;
}

// A class with a theta per layer type (Gemma 3's rope_local_base_freq): the sliding layers' own
// theta, unscaled, beside the full layers'.
void RopeConfigReader::noteSliding(const QList<ConfigLayer> &layers)
{
    const auto find = [&](const QString &type) -> const ConfigLayer * {
        for (const ConfigLayer &l : layers) {
            if (l.layerType == type && l.params.encoding == Encoding::Rope)
                return &l;
        }
        return nullptr;
    };
    const ConfigLayer *full = find(u"full_attention"_s);
    const ConfigLayer *sliding = find(u"sliding_attention"_s);
    const QString slidingKey = m_row.theta.value(u"sliding_attention"_s).toString();
    if (m_row.dicts == u"one"_s || !full || !sliding || full->params.rope.theta == sliding->params.rope.theta)
        return;
    const auto words = [](const RopeParams &r) {
        const QString type = RopeTypes::words().value(int(r.type));
        return u"theta %1, %2%3"_s.arg(ConfigText::number(r.theta), type,
                                       r.factor ? u" factor %1"_s.arg(ConfigText::number(*r.factor)) : QString());
    };
    m_c.find(u"sliding-layers-own-theta"_s,
             u"the sliding_attention layers turn with %1 (%2), the full_attention layers with %3: a port that gives "
             "every layer the global theta and scaling computes the local layers wrong (candle#2891)"_s.arg(
                 words(sliding->params.rope), slidingKey.isEmpty() ? u"the class's default"_s : slidingKey,
                 words(full->params.rope)),
             u"sliding_attention"_s);
}

} // namespace posenc
