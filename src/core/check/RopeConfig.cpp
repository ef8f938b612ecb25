// HF transformers' reading of a rotary config, as its main branch does it: modeling_rope_utils.py
// (RotaryEmbeddingConfigMixin.convert_rope_params_to_dict, standardize_rope_params, validate_rope
// and the _validate_<type>_rope_parameters, _check_received_keys; the _compute_<type>_parameters),
// and the config classes' own conversions (Gemma3TextConfig's per-layer dicts from rope_scaling and
// rope_local_base_freq, GPTNeoXConfig's rotary_pct and rotary_emb_base, Phi3Config's "su",
// DeepseekV3Config's qk_rope_head_dim, Llama4TextConfig's and SmolLM3Config's no_rope_layers).
#include "ConfigContext.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using ModelFamilies::LayerRule;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr qsizetype kMaxList = qsizetype(1) << 16;
constexpr std::int64_t kMaxCount = std::int64_t(1) << 40;
// Real models have a few hundred layers at most.
constexpr std::int64_t kMaxLayers = std::int64_t(1) << 16;

// A number in a message: a whole one written out (500000, not 5e+05).
QString num(double v)
{
    if (std::abs(v) < 1e15 && v == std::floor(v))
        return QString::number(static_cast<qint64>(v));
    return NumberText::exact(v);
}

// A word of the file as JSON writes it, quoted and escaped: a message stays one line.
QString quote(const QString &word)
{
    return ConfigObject::jsonText(QJsonValue(word));
}

// Keys of the file in a message: plain names as they are, others quoted and escaped, at most
// eight of them.
QString keyList(const QStringList &keys)
{
    // Anchored as a whole: PCRE's $ would also match before a final newline.
    static const QRegularExpression plain(QRegularExpression::anchoredPattern(u"[A-Za-z0-9_.-]{1,64}"_s));
    QStringList words;
    for (const QString &k : keys.mid(0, 8))
        words.append(plain.match(k).hasMatch() ? k : quote(k));
    if (keys.size() > 8)
        words.append(u"%1 more"_s.arg(keys.size() - 8));
    return words.join(u", "_s);
}

// The keys _check_received_keys takes for each type: required, then optional
// (partial_rotary_factor and the legacy type are taken by every type).
struct TypeKeys
{
    QStringList required;
    QStringList optional;
};

TypeKeys keysOf(RopeType type)
{
    switch (type) {
    case RopeType::Default:
        return {{u"rope_type"_s}, {u"rope_theta"_s}};
    case RopeType::Linear:
    case RopeType::Dynamic:
        return {{u"rope_type"_s, u"factor"_s}, {u"rope_theta"_s}};
    case RopeType::Yarn:
        return {{u"rope_type"_s, u"factor"_s, u"original_max_position_embeddings"_s},
                {u"rope_theta"_s, u"attention_factor"_s, u"beta_fast"_s, u"beta_slow"_s, u"mscale"_s,
                 u"mscale_all_dim"_s, u"truncate"_s}};
    case RopeType::LongRope:
        return {{u"rope_type"_s, u"short_factor"_s, u"long_factor"_s, u"original_max_position_embeddings"_s},
                {u"rope_theta"_s, u"attention_factor"_s, u"factor"_s}};
    case RopeType::Llama3:
        return {{u"rope_type"_s, u"factor"_s, u"original_max_position_embeddings"_s, u"low_freq_factor"_s,
                 u"high_freq_factor"_s, u"rope_theta"_s},
                {}};
    case RopeType::Proportional:
        return {{u"rope_type"_s, u"rope_theta"_s}, {}};
    }
    return {};
}

// standardize_rope_params moves original_max_position_embeddings into these types' dicts.
bool takesOriginal(RopeType type)
{
    return type == RopeType::Yarn || type == RopeType::LongRope || type == RopeType::Llama3;
}

double getMscale(double scale, double m)
{
    return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
}

// The values shared by every layer type of a rotary model.
struct ModelShape
{
    std::int64_t hidden = 0;
    std::int64_t heads = 0;
    std::int64_t headDim = 0;
    std::int64_t maxPositions = 0;
    std::int64_t layerCount = 0;
    std::optional<std::int64_t> slidingWindow;
    QStringList layerTypes; // one per layer
    std::vector<bool> ropeOn; // one per layer: false for NoPE
};

class RopeReader
{
public:
    explicit RopeReader(ConfigContext &c)
        : m_c(c)
        , m_f(c.family)
    { }

    QList<ConfigLayer> layers()
    {
        readShape();
        readDicts();
        QList<ConfigLayer> out;
        // Layer types in the order their first layer comes.
        QStringList order;
        for (qsizetype i = 0; i < m_shape.layerTypes.size(); ++i) {
            const QString name = groupName(i);
            if (!order.contains(name))
                order.append(name);
        }
        if (order.isEmpty())
            order.append(u"full_attention"_s);
        for (const QString &name : order)
            out.append(layerOf(name));
        noteNope();
        noteSliding(out);
        return out;
    }

private:
    ConfigContext &m_c;
    const ModelFamilies::Family &m_f;
    ModelShape m_shape;
    // The rope dict of each layer type as HF reads it, and where it sits in the file.
    std::map<QString, std::optional<ConfigObject>> m_dicts;
    bool m_nested = false;
    QString m_dictPath; // "rope_scaling" or "rope_parameters"

    // The layer types that have a layer where RoPE turns.
    QSet<QString> m_turning;
    QString m_where; // the layer type the findings of the dict being read concern, or none

    QString groupName(qsizetype layer) const
    {
        const QString type = m_shape.layerTypes.at(layer);
        // NoPE layers of a type whose other layers turn get a name of their own.
        if (!m_shape.ropeOn.at(std::size_t(layer)) && m_turning.contains(type))
            return type + u":nope"_s;
        return type;
    }

    void readShape()
    {
        const ConfigObject &t = m_c.text;
        const bool gptj = m_f.modelType == u"gptj"_s;
        m_shape.hidden = m_c.integerOr(gptj ? QStringList {u"n_embd"_s} : QStringList {u"hidden_size"_s}, 1, kMaxCount,
                                       m_f.defaultHidden, false);
        m_shape.heads = m_c.integerOr(gptj ? QStringList {u"n_head"_s} : QStringList {u"num_attention_heads"_s}, 1,
                                      kMaxCount, m_f.defaultHeads, false);
        if (m_f.modelType.startsWith(u"deepseek"_s)) {
            // DeepseekV3Config points head_dim at qk_rope_head_dim: the rotary part of each head.
            m_shape.headDim = m_c.integerOr({u"qk_rope_head_dim"_s}, 1, kMaxCount, 64, true);
        } else if (!gptj && t.has(u"head_dim"_s)) {
            m_shape.headDim = t.integer(u"head_dim"_s, 1, kMaxCount).value_or(0);
        } else {
            m_shape.headDim = m_f.defaultHeadDim.value_or(m_shape.hidden / m_shape.heads);
            if (m_f.defaultHeadDim && !gptj)
                m_c.implicitDefault(u"head_dim"_s, QString::number(*m_f.defaultHeadDim));
        }
        m_shape.maxPositions
            = m_c.integerOr(gptj ? QStringList {u"n_positions"_s} : QStringList {u"max_position_embeddings"_s}, 1,
                            kMaxCount, m_f.defaultMaxPositions, true);
        m_shape.layerCount = m_c.integerOr(gptj ? QStringList {u"n_layer"_s}
                                                : QStringList {u"num_hidden_layers"_s, u"n_layer"_s, u"num_layers"_s},
                                           1, kMaxLayers, m_f.defaultLayers, false);
        m_shape.slidingWindow = t.integer(u"sliding_window"_s, 1, kMaxCount);
        readLayerTypes();
        for (qsizetype i = 0; i < m_shape.layerTypes.size(); ++i) {
            if (m_shape.ropeOn.at(std::size_t(i)))
                m_turning.insert(m_shape.layerTypes.at(i));
        }
    }

    void readLayerTypes()
    {
        const ConfigObject &t = m_c.text;
        const std::int64_t n = m_shape.layerCount;
        std::vector<bool> ropeOn(std::size_t(n), true);
        if (m_f.noRopeLayers) {
            const auto list = t.integers(u"no_rope_layers"_s, 0, 1, 1 << 20);
            if (list && !list->empty()) {
                if (std::int64_t(list->size()) < n)
                    m_c.find(u"layer-types-length"_s,
                             u"no_rope_layers lists %1 layers; the model has %2 (num_hidden_layers), so HF's "
                             "attention of layer %1 reads past its end (IndexError)"_s.arg(list->size())
                                 .arg(n));
                for (std::size_t i = 0; i < std::min(list->size(), ropeOn.size()); ++i)
                    ropeOn[i] = (*list)[i] != 0;
            } else {
                const std::int64_t interval = t.integer(u"no_rope_layer_interval"_s, 1, 1 << 20).value_or(4);
                if (!t.has(u"no_rope_layer_interval"_s))
                    m_c.implicitDefault(u"no_rope_layers"_s, u"a NoPE layer every 4th layer"_s);
                for (std::int64_t i = 0; i < n; ++i)
                    ropeOn[std::size_t(i)] = (i + 1) % interval != 0;
            }
        }
        m_shape.ropeOn = ropeOn;
        if (const auto listed = t.strings(u"layer_types"_s, 1 << 20)) {
            if (listed->size() != n)
                m_c.find(u"layer-types-length"_s,
                         u"layer_types lists %1 layers; num_hidden_layers is %2 (HF's layer_type_validation raises "
                         "ValueError)"_s.arg(listed->size())
                             .arg(n));
            QStringList types = *listed;
            while (types.size() < n)
                types.append(u"full_attention"_s);
            m_shape.layerTypes = types.mid(0, n);
            return;
        }
        const bool useSliding = t.boolean(u"use_sliding_window"_s).value_or(false);
        QStringList types;
        for (std::int64_t i = 0; i < n; ++i) {
            switch (m_f.layerRule) {
            case LayerRule::AllFull:
                types.append(u"full_attention"_s);
                break;
            case LayerRule::AllSliding:
                types.append(m_shape.slidingWindow ? u"sliding_attention"_s : u"full_attention"_s);
                break;
            case LayerRule::Gemma3: {
                const std::int64_t pattern = t.integer(u"sliding_window_pattern"_s, 1, 1 << 20).value_or(6);
                types.append((i + 1) % pattern ? u"sliding_attention"_s : u"full_attention"_s);
                break;
            }
            case LayerRule::Alternate:
                types.append((i + 1) % 2 ? u"sliding_attention"_s : u"full_attention"_s);
                break;
            case LayerRule::Qwen2: {
                const std::int64_t from = t.integer(u"max_window_layers"_s, 0, 1 << 20).value_or(28);
                types.append(m_shape.slidingWindow && useSliding && i >= from ? u"sliding_attention"_s
                                                                              : u"full_attention"_s);
                break;
            }
            case LayerRule::Llama4:
                types.append(ropeOn[std::size_t(i)] ? u"chunked_attention"_s : u"full_attention"_s);
                break;
            case LayerRule::SmolLM3:
                types.append(useSliding && m_shape.slidingWindow && !ropeOn[std::size_t(i)] ? u"sliding_attention"_s
                                                                                            : u"full_attention"_s);
                break;
            }
        }
        m_shape.layerTypes = types;
    }

    QSet<QString> labels() const { return QSet<QString>(m_shape.layerTypes.cbegin(), m_shape.layerTypes.cend()); }

    // convert_rope_params_to_dict: `rope_scaling or rope_parameters` (an empty rope_scaling is
    // Python-false), then nested by layer type when every key is one.
    void readDicts()
    {
        const ConfigObject &t = m_c.text;
        const auto scaling = t.object(u"rope_scaling"_s);
        const auto parameters = t.object(u"rope_parameters"_s);
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
        std::optional<ConfigObject> chosen = scalingUsed ? scaling : parameters;
        m_dictPath = scalingUsed ? u"rope_scaling"_s : u"rope_parameters"_s;
        if (!scalingUsed && parameters && !parameters->json().isEmpty())
            m_c.find(u"rope-parameters-v5-form"_s,
                     u"%1 is transformers 5's form: transformers 4 and the tools that read rope_scaling (and "
                     "rope_theta beside it) see no scaling here"_s.arg(t.pathOf(u"rope_parameters"_s)));
        if (m_f.perLayerRope) {
            readGemma3(scalingUsed ? scaling : std::nullopt, parameters);
            return;
        }
        const QSet<QString> types = labels();
        if (chosen && !chosen->json().isEmpty()) {
            const QStringList keys = chosen->json().keys();
            const qsizetype inTypes
                = std::count_if(keys.cbegin(), keys.cend(), [&](const QString &k) { return types.contains(k); });
            if (inTypes > 0) {
                m_nested = true;
                if (inTypes < keys.size()) {
                    QStringList stray;
                    for (const QString &k : keys) {
                        if (!types.contains(k))
                            stray.append(k);
                    }
                    m_c.find(
                        u"rope-parameters-mixed-keys"_s,
                        u"%1 holds %2 beside its per-layer dicts: HF's standardize_rope_params then reads the "
                        "whole as one flat dict, and no layer type's as its own%3"_s.arg(
                            chosen->path(), keyList(stray),
                            stray.contains(u"truncate"_s) ? u" (truncate belongs in the yarn dict)"_s : QString()));
                }
                m_c.find(u"per-layer-dicts-unsupported"_s,
                         u"%1 gives one dict per layer type, but HF's %2 builds one rotary embedding from "
                         "rope_parameters[\"rope_type\"], which a per-layer form lacks"_s.arg(chosen->path(),
                                                                                              m_f.configClass));
                for (const QString &type : types) {
                    const auto dict = chosen->object(type);
                    if (!chosen->has(type))
                        m_c.find(u"layer-dict-missing"_s,
                                 u"%1 has no dict for layer type %2"_s.arg(chosen->path(), type), type);
                    m_dicts[type] = dict;
                }
                return;
            }
        }
        for (const QString &type : types)
            m_dicts[type] = chosen;
    }

    // Gemma3TextConfig.convert_rope_params_to_dict: rope_parameters (default: both layer types
    // default), rope_scaling merged into full_attention's, rope_theta (1e6) and
    // rope_local_base_freq (1e4) as the two dicts' defaults.
    void readGemma3(const std::optional<ConfigObject> &scaling, const std::optional<ConfigObject> &parameters)
    {
        m_nested = true;
        for (const QString &type : {u"full_attention"_s, u"sliding_attention"_s}) {
            std::optional<ConfigObject> dict;
            if (parameters && !parameters->json().isEmpty()) {
                if (!parameters->has(type))
                    m_c.find(u"layer-dict-missing"_s,
                             u"%1 has no %2 dict: Gemma3TextConfig reads rope_parameters[\"%2\"] (KeyError)"_s.arg(
                                 parameters->path(), type),
                             type);
                dict = parameters->object(type);
            }
            QJsonObject merged = dict ? dict->json() : QJsonObject {{u"rope_type"_s, u"default"_s}};
            if (type == u"full_attention"_s && scaling) {
                for (auto it = scaling->json().begin(); it != scaling->json().end(); ++it)
                    merged.insert(it.key(), it.value());
            }
            const QString path
                = dict ? dict->path() : (type == u"full_attention"_s && scaling ? scaling->path() : m_c.text.path());
            m_dicts[type] = ConfigObject(merged, path, &m_c.result.problems);
        }
    }

    ConfigLayer layerOf(const QString &name)
    {
        ConfigLayer layer;
        layer.layerType = name;
        const bool nope = name.endsWith(u":nope"_s);
        const QString hfType = nope ? name.chopped(5) : name;
        for (qsizetype i = 0; i < m_shape.layerTypes.size(); ++i) {
            if (groupName(i) == name)
                layer.layers.push_back(i);
        }
        Params &p = layer.params;
        p.dModel = std::clamp<std::int64_t>(std::max(m_shape.hidden, m_shape.headDim), 1, Params::kMaxDModel);
        p.maxLen = std::clamp<std::int64_t>(m_shape.maxPositions, 1, Params::kMaxLen);
        const bool allNope = !layer.layers.empty()
            && std::none_of(layer.layers.cbegin(), layer.layers.cend(),
                            [&](std::int64_t l) { return bool(m_shape.ropeOn.at(std::size_t(l))); });
        if (nope || allNope) {
            p.encoding = Encoding::None;
            layer.values = {{u"max_position_embeddings"_s, m_shape.maxPositions}};
            return layer;
        }
        p.encoding = Encoding::Rope;
        QHash<QString, QString> sources;
        readRope(layer, hfType, sources);
        settleLayer(m_c, layer, sources);
        return layer;
    }

    void readRope(ConfigLayer &layer, const QString &type, QHash<QString, QString> &sources)
    {
        // What a dict shared by every layer type says concerns the config as a whole.
        m_where = m_nested ? layer.layerType : QString();
        RopeParams &r = layer.params.rope;
        const ConfigObject &t = m_c.text;
        const auto it = m_dicts.find(type);
        const std::optional<ConfigObject> dict = it != m_dicts.end() ? it->second : std::nullopt;
        const ConfigObject *d = dict ? &*dict : nullptr;
        const auto inDict = [&](const QString &key) { return d && d->has(key); };
        const auto pathOf = [&](const QString &key) { return d ? d->pathOf(key) : t.pathOf(key); };

        // The type: rope_type, else the legacy type, else default.
        QString word = u"default"_s;
        if (inDict(u"rope_type"_s)) {
            word = d->string(u"rope_type"_s).value_or(u"default"_s);
            if (inDict(u"type"_s)) {
                const QString legacy = d->string(u"type"_s).value_or(word);
                if (legacy != word)
                    m_c.find(u"type-and-rope-type-differ"_s,
                             u"%1 is %2 but %3 is %4: HF reads rope_type; readers of the legacy key (older "
                             "ports, transformers before 4.45) compute %4"_s.arg(d->pathOf(u"rope_type"_s), quote(word),
                                                                                 d->pathOf(u"type"_s), quote(legacy)),
                             m_where);
            }
        } else if (inDict(u"type"_s)) {
            word = d->string(u"type"_s).value_or(u"default"_s);
            m_c.find(u"legacy-type-key"_s,
                     u"%1 is %2, the legacy key: HF reads it as rope_type, but ports that read rope_type alone "
                     "(mlxcel#1355, TensorRT-Model-Connect#399) find none and compute default RoPE"_s.arg(
                         d->pathOf(u"type"_s), quote(word)),
                     m_where);
        }
        const QString typeKeyPath = inDict(u"rope_type"_s) ? d->pathOf(u"rope_type"_s) : pathOf(u"type"_s);
        // Model classes' own conversions.
        bool mrope = false;
        if (word == u"mrope"_s || (d && d->contains(u"mrope_section"_s))) {
            // Qwen2-VL's configs turn "mrope" into default and keep mrope_section.
            mrope = true;
            if (word == u"mrope"_s)
                word = u"default"_s;
        }
        if (m_f.modelType == u"phi3"_s && (word == u"su"_s || word == u"yarn"_s))
            word = u"longrope"_s; // Phi3Config: "For backward compatibility if previous version used su or yarn"
        const qsizetype index = RopeTypes::words().indexOf(word);
        if (index < 0) {
            m_c.find(u"unknown-rope-type"_s,
                     u"%1 %2 is no type HF computes (%3): ROPE_INIT_FUNCTIONS[%2] raises KeyError"_s.arg(
                         typeKeyPath, quote(word), RopeTypes::words().join(u", "_s)),
                     m_where);
            layer.described = false;
            return;
        }
        r.type = static_cast<RopeType>(index);
        r.layout = m_f.layout;
        if (m_f.modelType == u"phi3"_s && r.type != RopeType::Default && r.type != RopeType::LongRope)
            m_c.find(u"phi3-rope-type"_s,
                     u"%1 is %2: Phi3Config.validate_rope takes only default and longrope (ValueError)"_s.arg(
                         typeKeyPath, quote(word)),
                     m_where);
        if (d && m_f.modelType.startsWith(u"deepseek"_s))
            r.layout = t.boolean(u"rope_interleave"_s).value_or(true) ? RopeLayout::Interleaved : RopeLayout::Half;

        readTheta(layer, d, sources);
        readPartial(layer, d, sources);
        r.headDim = m_shape.headDim;
        sources.insert(u"head-dim"_s,
                       t.pathOf(m_f.modelType.startsWith(u"deepseek"_s) ? u"qk_rope_head_dim"_s : u"head_dim"_s));
        sources.insert(u"max-len"_s, t.pathOf(u"max_position_embeddings"_s));
        checkKeys(layer, d, mrope);
        readScaling(layer, d, sources);
        if (mrope)
            readMrope(layer, d);
        checkRotaryDim(layer);
        if (r.layout == RopeLayout::Interleaved)
            m_c.find(u"interleaved-pairs"_s,
                     u"%1 turns pairs (2i, 2i + 1) (%2), not rotate_half's (i, i + r/2): a port with the other layout "
                     "must permute its query and key weights"_s.arg(m_f.modelType,
                                                                    m_f.modelType == u"gptj"_s ? u"rotate_every_two"_s
                                                                        : m_f.modelType.startsWith(u"deepseek"_s)
                                                                        ? u"rope_interleave"_s
                                                                        : u"complex multiplication"_s));
        fillValues(layer, d);
    }

    void readTheta(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources)
    {
        const ConfigObject &t = m_c.text;
        RopeParams &r = layer.params.rope;
        const double lo = -kInf;
        // Read wide here: Params' check refuses what no model could use, naming the key.
        const auto read = [&](const ConfigObject &o, const QString &key) {
            sources.insert(u"rope-theta"_s, o.pathOf(key));
            return o.number(key, lo, kInf);
        };
        std::optional<double> inDict;
        if (d && d->has(u"rope_theta"_s))
            inDict = read(*d, u"rope_theta"_s);
        // GPTNeoXConfig names its theta rotary_emb_base; Gemma3's sliding layers take rope_local_base_freq.
        QString topKey
            = m_f.modelType == u"gpt_neox"_s && t.has(u"rotary_emb_base"_s) ? u"rotary_emb_base"_s : u"rope_theta"_s;
        const bool gemmaLocal = m_f.perLayerRope && layer.layerType == u"sliding_attention"_s;
        if (gemmaLocal)
            topKey = u"rope_local_base_freq"_s;
        std::optional<double> beside;
        if (t.has(topKey)) {
            const auto keep = sources.value(u"rope-theta"_s);
            beside = t.number(topKey, lo, kInf);
            if (!inDict)
                sources.insert(u"rope-theta"_s, t.pathOf(topKey));
            else
                sources.insert(u"rope-theta"_s, keep);
        }
        if (inDict && beside && *inDict != *beside)
            m_c.find(u"rope-theta-twice"_s,
                     u"%1 is %2 but %3 is %4: transformers 5 reads the dict's, transformers 4 the top level's"_s.arg(
                         d->pathOf(u"rope_theta"_s), num(*inDict), t.pathOf(topKey), num(*beside)),
                     m_where);
        if (inDict) {
            r.theta = *inDict;
        } else if (beside) {
            r.theta = *beside;
        } else {
            const double fallback = gemmaLocal ? 10000.0 : m_f.defaultTheta;
            r.theta = fallback;
            if (m_f.modelType == u"gptj"_s)
                return; // modeling_gptj.py has no theta key: 10000 is the model's own
            m_c.find(u"rope-theta-absent"_s,
                     u"%1 is absent: HF's %2 takes %3%4"_s.arg(
                         t.pathOf(topKey), m_f.configClass, num(fallback),
                         fallback == 10000.0 ? QString() : u" (not the 10000 a port might assume)"_s),
                     m_where);
        }
    }

    void readPartial(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources)
    {
        const ConfigObject &t = m_c.text;
        RopeParams &r = layer.params.rope;
        std::optional<double> inDict;
        std::optional<double> beside;
        QString besideKey = u"partial_rotary_factor"_s;
        if (d && d->has(u"partial_rotary_factor"_s)) {
            inDict = d->number(u"partial_rotary_factor"_s, -kInf, kInf);
            sources.insert(u"partial-rotary-factor"_s, d->pathOf(u"partial_rotary_factor"_s));
        }
        if (m_f.modelType == u"gpt_neox"_s)
            besideKey = u"rotary_pct"_s; // GPTNeoXConfig: partial_rotary_factor = rotary_pct (0.25)
        if (t.has(besideKey)) {
            beside = t.number(besideKey, -kInf, kInf);
            if (!inDict)
                sources.insert(u"partial-rotary-factor"_s, t.pathOf(besideKey));
        }
        if (m_f.modelType == u"gptj"_s) {
            // GPTJConfig: rotary_dim of each head's n_embd / n_head columns; null turns them all.
            const auto rotary = t.integer(u"rotary_dim"_s, 1, kMaxCount);
            beside = rotary ? double(*rotary) / double(std::max<std::int64_t>(1, m_shape.headDim)) : 1.0;
            sources.insert(u"partial-rotary-factor"_s, t.pathOf(u"rotary_dim"_s));
            if (!t.contains(u"rotary_dim"_s))
                m_c.implicitDefault(u"rotary_dim"_s, u"64"_s);
        }
        if (inDict && beside && *inDict != *beside)
            m_c.find(u"partial-rotary-factor-twice"_s,
                     u"%1 is %2 but %3 is %4: HF versions disagree on which one standardize_rope_params keeps"_s.arg(
                         d->pathOf(u"partial_rotary_factor"_s), num(*inDict), t.pathOf(besideKey), num(*beside)),
                     m_where);
        if (inDict)
            r.partialRotaryFactor = *inDict;
        else if (beside)
            r.partialRotaryFactor = *beside;
        else {
            r.partialRotaryFactor = m_f.defaultPartial;
            if (m_f.defaultPartial != 1.0)
                m_c.implicitDefault(besideKey, num(m_f.defaultPartial));
        }
    }

    // _check_received_keys: a required key absent raises KeyError; an unknown one is warned of.
    void checkKeys(ConfigLayer &layer, const ConfigObject *d, bool mrope)
    {
        const RopeType type = layer.params.rope.type;
        const TypeKeys keys = keysOf(type);
        // standardize_rope_params sets these before the validator runs.
        QStringList received = d ? d->json().keys() : QStringList();
        for (const QString &given : {u"rope_type"_s, u"rope_theta"_s})
            received.append(given);
        if (takesOriginal(type))
            received.append(u"original_max_position_embeddings"_s);
        QStringList missing;
        for (const QString &k : keys.required) {
            // A null counts as absent where the computation would use it as a number; yarn's factor
            // null is max_position_embeddings / original (_compute_yarn_parameters).
            const bool nullTaken = type == RopeType::Yarn && k == u"factor"_s;
            if (!received.contains(k) || (d && d->contains(k) && !d->has(k) && k != u"rope_theta"_s && !nullTaken))
                missing.append(k);
        }
        if (!missing.isEmpty()) {
            layer.described = false;
            m_c.find(
                u"missing-required-key"_s,
                u"rope_type %1 needs %2 in %3: HF's _check_received_keys raises KeyError"_s.arg(
                    RopeTypes::words().value(int(type)), missing.join(u", "_s), d ? d->path() : m_dictPath),
                m_where);
        }
        if (!d)
            return;
        QStringList unknown;
        for (const QString &k : d->json().keys()) {
            if (keys.required.contains(k) || keys.optional.contains(k) || k == u"partial_rotary_factor"_s
                || k == u"type"_s)
                continue;
            if (mrope && (k == u"mrope_section"_s || k == u"mrope_interleaved"_s))
                continue;
            if (type == RopeType::Dynamic && k == u"original_max_position_embeddings"_s)
                continue; // dynamic-ignores-original says more
            if (m_f.perLayerRope && (k == u"rope_type"_s || k == u"rope_theta"_s))
                continue;
            unknown.append(k);
        }
        if (!unknown.isEmpty())
            m_c.find(u"unrecognized-rope-key"_s,
                     u"%1 holds %2, which HF's validator does not know for rope_type %3 (\"Unrecognized keys\"): "
                     "%4 does not read %5"_s.arg(
                         d->path(), keyList(unknown), RopeTypes::words().value(int(type)),
                         u"_compute_%1_parameters"_s.arg(RopeTypes::words().value(int(type))),
                         unknown.size() == 1 ? u"it"_s : u"them"_s),
                     m_where);
    }

    void readScaling(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources)
    {
        RopeParams &r = layer.params.rope;
        const ConfigObject &t = m_c.text;
        const QString lt = m_where;
        const std::int64_t maxPos = m_shape.maxPositions;
        if (!d)
            return;
        const auto numberIn = [&](const QString &key, const QString &param) -> std::optional<double> {
            if (!d->has(key))
                return std::nullopt;
            sources.insert(param, d->pathOf(key));
            return d->number(key, -kInf, kInf);
        };
        // Factor: read for every type that reads it; proportional divides by it too.
        if (r.type != RopeType::Default) {
            r.factor = numberIn(u"factor"_s, u"rope-factor"_s);
            if (r.factor && *r.factor < 1.0 && r.type != RopeType::LongRope)
                m_c.find(u"factor-below-one"_s,
                         u"%1 is %2: below 1 the scaling shortens the context it stretches (HF warns: \"factor field "
                         "must be a float or int >= 1\")"_s.arg(d->pathOf(u"factor"_s), num(*r.factor)),
                         lt);
        }
        // original_max_position_embeddings: Phi3Config's top-level value wins (standardize_rope_params's
        // "exception case"); else the dict's; else max_position_embeddings.
        std::optional<std::int64_t> original;
        if (takesOriginal(r.type) || r.type == RopeType::Dynamic) {
            if (d->has(u"original_max_position_embeddings"_s)) {
                original = d->integer(u"original_max_position_embeddings"_s, 1, Params::kMaxLen);
                sources.insert(u"original-max-len"_s, d->pathOf(u"original_max_position_embeddings"_s));
            }
            const bool phi3 = m_f.modelType == u"phi3"_s;
            if (t.has(u"original_max_position_embeddings"_s) && takesOriginal(r.type)) {
                const auto topOriginal = t.integer(u"original_max_position_embeddings"_s, 1, Params::kMaxLen);
                if (original && topOriginal && *original != *topOriginal)
                    m_c.find(u"original-twice"_s,
                             u"%1 is %2 but %3 is %4: HF's standardize_rope_params takes the top level's"_s.arg(
                                 d->pathOf(u"original_max_position_embeddings"_s), QString::number(*original),
                                 t.pathOf(u"original_max_position_embeddings"_s), QString::number(*topOriginal)),
                             lt);
                original = topOriginal;
                sources.insert(u"original-max-len"_s, t.pathOf(u"original_max_position_embeddings"_s));
            } else if (phi3 && takesOriginal(r.type) && !original) {
                original = 4096; // Phi3Config's field default
                m_c.implicitDefault(u"original_max_position_embeddings"_s, u"4096"_s);
            }
            if (!original && takesOriginal(r.type)) {
                original = maxPos;
                m_c.find(u"implicit-default"_s,
                         u"%1 is absent: HF's standardize_rope_params takes max_position_embeddings (%2)"_s
                             .arg(d->pathOf(u"original_max_position_embeddings"_s))
                             .arg(maxPos),
                         lt);
            }
        }
        switch (r.type) {
        case RopeType::Default:
        case RopeType::Linear:
        case RopeType::Proportional:
            if (r.type == RopeType::Proportional && r.partialRotaryFactor < 1.0)
                m_c.find(u"proportional-not-partial"_s,
                         u"proportional turns int(%1 * %2 // 2) = %3 of %4 pairs at theta^(-2j/%2) and leaves the rest "
                         "at frequency 0: read as partial rotary (neuronx PR#106) the exponent would divide by the "
                         "rotary dim %5"_s.arg(num(r.partialRotaryFactor))
                             .arg(r.headDim)
                             .arg(std::int64_t(std::floor(r.partialRotaryFactor * double(r.headDim) / 2.0)))
                             .arg(r.headDim / 2)
                             .arg(std::int64_t(double(r.headDim) * r.partialRotaryFactor)),
                         lt);
            break;
        case RopeType::Dynamic:
            // _compute_dynamic_ntk_parameters grows the base past max_position_embeddings, whatever
            // original_max_position_embeddings says.
            if (original && *original != maxPos)
                m_c.find(u"dynamic-ignores-original"_s,
                         u"%1 is %2, but HF's dynamic scales from max_position_embeddings (%3): the base starts "
                         "growing only past %3"_s.arg(d->pathOf(u"original_max_position_embeddings"_s))
                             .arg(*original)
                             .arg(maxPos),
                         lt);
            if (original && r.factor && double(maxPos) == double(*original) * *r.factor && *r.factor > 1.0)
                m_c.find(u"factor-applied-twice"_s,
                         u"max_position_embeddings %1 is already %2 x factor %3: HF's dynamic stretches past %1, "
                         "applying the factor a second time"_s.arg(maxPos)
                             .arg(*original)
                             .arg(num(*r.factor)),
                         lt);
            r.originalMaxLen = maxPos;
            sources.insert(u"original-max-len"_s, t.pathOf(u"max_position_embeddings"_s));
            break;
        case RopeType::Yarn:
            readYarn(layer, d, original, numberIn);
            break;
        case RopeType::LongRope:
            readLongRope(layer, d, original, sources);
            break;
        case RopeType::Llama3:
            readLlama3(layer, original, numberIn);
            break;
        }
    }

    template<typename NumberIn>
    void readYarn(ConfigLayer &layer, const ConfigObject *d, std::optional<std::int64_t> original, NumberIn numberIn)
    {
        RopeParams &r = layer.params.rope;
        const QString lt = m_where;
        const std::int64_t maxPos = m_shape.maxPositions;
        r.originalMaxLen = original;
        // beta_fast / beta_slow: `get(...) or 32`, so 0 and null take the default too.
        const auto beta = [&](const QString &key, const QString &param, double fallback) {
            const auto v = numberIn(key, param);
            return v && *v != 0.0 ? *v : fallback;
        };
        r.betaFast = beta(u"beta_fast"_s, u"beta-fast"_s, 32.0);
        r.betaSlow = beta(u"beta_slow"_s, u"beta-slow"_s, 1.0);
        if (r.betaFast < r.betaSlow)
            m_c.find(u"beta-fast-below-slow"_s,
                     u"beta_fast %1 is below beta_slow %2: the ramp runs backwards (HF warns)"_s.arg(num(r.betaFast),
                                                                                                     num(r.betaSlow)),
                     lt);
        r.mscale = numberIn(u"mscale"_s, u"mscale"_s);
        r.mscaleAllDim = numberIn(u"mscale_all_dim"_s, u"mscale-all-dim"_s);
        r.attentionFactor = numberIn(u"attention_factor"_s, u"attention-factor"_s);
        // _compute_yarn_parameters reads truncate from config.rope_parameters, the top of the dict:
        // inside a per-layer dict it is never seen.
        const auto truncate = d->boolean(u"truncate"_s);
        if (truncate && !*truncate && m_nested) {
            m_c.find(u"truncate-in-layer-dict"_s,
                     u"%1 is false inside the %2 dict, but HF's _compute_yarn_parameters reads "
                     "config.rope_parameters.get(\"truncate\", True) from the top: it rounds the band edges"_s.arg(
                         d->pathOf(u"truncate"_s), lt),
                     lt);
            r.yarnTruncate = true;
        } else {
            r.yarnTruncate = truncate.value_or(true);
        }
        if (r.mscale && r.mscaleAllDim && *r.mscale != 0.0 && *r.mscaleAllDim != 0.0 && r.factor
            && !r.attentionFactor) {
            const double f = *r.factor;
            const double ratio = getMscale(f, *r.mscale) / getMscale(f, *r.mscaleAllDim);
            const double softmax = std::pow(getMscale(f, *r.mscaleAllDim), 2.0);
            m_c.find(
                u"mscale-pair"_s,
                u"mscale %1 and mscale_all_dim %2: cos and sin are multiplied by %3, and the attention multiplies "
                "its softmax scale by get_mscale(%4, %2)^2 = %5 (DeepSeek-style): a port that applies 0.1 ln %4 + 1 "
                "to cos and sin as plain yarn does scales the logits twice (exllamav3#259)"_s.arg(
                    num(*r.mscale), num(*r.mscaleAllDim), NumberText::compact(ratio, 5), num(f),
                    NumberText::compact(softmax, 5)),
                lt);
        }
        if (!r.factor && d->contains(u"factor"_s) && original) {
            r.factor = double(maxPos) / double(*original);
            m_c.find(u"implicit-default"_s,
                     u"%1 is null: HF's _compute_yarn_parameters takes max_position_embeddings / original = %2"_s.arg(
                         d->pathOf(u"factor"_s), num(*r.factor)),
                     lt);
        }
        if (!r.factor || !original)
            return;
        const double f = *r.factor;
        const double implicit = double(maxPos) / double(*original);
        if (std::abs(implicit - f * f) < 1e-9 * f * f && f > 1.0) {
            m_c.find(u"factor-applied-twice"_s,
                     u"max_position_embeddings %1 is original %2 x factor %3 squared: the factor is in the context "
                     "twice (vLLM PR#55116)"_s.arg(maxPos)
                         .arg(*original)
                         .arg(num(f)),
                     lt);
        } else if (implicit != f && implicit != 1.0) {
            m_c.find(
                u"yarn-factor-mismatch"_s,
                u"factor %1, but max_position_embeddings / original = %2 / %3 = %4: HF warns and uses the "
                "factor %1 (before transformers PR #40320 it used %4: transformers#38224, Qwen3#1424)"_s.arg(num(f))
                    .arg(maxPos)
                    .arg(*original)
                    .arg(NumberText::compact(implicit, 6)),
                lt);
        } else if (implicit == 1.0 && f > 1.0) {
            m_c.find(u"yarn-context-not-extended"_s,
                     u"max_position_embeddings equals original_max_position_embeddings (%1): the config does not say "
                     "the context is now %2 (factor x original), and HF skips its check of the factor"_s.arg(maxPos)
                         .arg(num(f * double(*original))),
                     lt);
        }
    }

    void readLongRope(ConfigLayer &layer, const ConfigObject *d, std::optional<std::int64_t> original,
                      QHash<QString, QString> &sources)
    {
        RopeParams &r = layer.params.rope;
        const QString lt = m_where;
        r.originalMaxLen = original;
        if (d->has(u"attention_factor"_s)) {
            r.attentionFactor = d->number(u"attention_factor"_s, -kInf, kInf);
            sources.insert(u"attention-factor"_s, d->pathOf(u"attention_factor"_s));
        }
        if (!r.factor && original) {
            // _compute_longrope_parameters: factor = max_position_embeddings / original.
            r.factor = double(m_shape.maxPositions) / double(*original);
            sources.insert(u"rope-factor"_s, m_c.text.pathOf(u"max_position_embeddings"_s));
            m_c.find(u"longrope-factor-from-context"_s,
                     u"%1 has no factor: HF takes max_position_embeddings / original = %2 / %3 = %4 for the attention "
                     "factor (and warns to set factor)"_s.arg(d->path())
                         .arg(m_shape.maxPositions)
                         .arg(*original)
                         .arg(num(*r.factor)),
                     lt);
        }
        for (const bool longList : {false, true}) {
            const QString key = longList ? u"long_factor"_s : u"short_factor"_s;
            const auto list = d->numbers(key, -kInf, kInf, kMaxList);
            sources.insert(longList ? u"long-factor"_s : u"short-factor"_s, d->pathOf(key));
            if (list)
                (longList ? r.longFactor : r.shortFactor) = *list;
            const std::int64_t want = RopeFrequencies::pairs(r);
            if (list && std::int64_t(list->size()) != want && want > 0)
                m_c.find(u"factor-list-length"_s,
                         u"%1 holds %2 values; the rotary dim %3 has %4 pairs (HF: \"must have length %4\")"_s
                             .arg(d->pathOf(key))
                             .arg(list->size())
                             .arg(RopeFrequencies::rotaryDim(r))
                             .arg(want),
                         lt);
        }
    }

    template<typename NumberIn>
    void readLlama3(ConfigLayer &layer, std::optional<std::int64_t> original, NumberIn numberIn)
    {
        RopeParams &r = layer.params.rope;
        const QString lt = m_where;
        r.originalMaxLen = original;
        const auto low = numberIn(u"low_freq_factor"_s, u"low-freq-factor"_s);
        const auto high = numberIn(u"high_freq_factor"_s, u"high-freq-factor"_s);
        if (low)
            r.lowFreqFactor = *low;
        if (high)
            r.highFreqFactor = *high;
        if (low && high && *low > *high)
            m_c.find(u"llama3-low-above-high"_s,
                     u"low_freq_factor %1 is above high_freq_factor %2: the kept band (wavelengths below %3) and the "
                     "divided one (above %4) overlap"_s.arg(num(*low), num(*high))
                         .arg(NumberText::compact(double(original.value_or(1)) / *high, 6))
                         .arg(NumberText::compact(double(original.value_or(1)) / *low, 6)),
                     lt);
        else if (low && high && *low == *high)
            m_c.find(u"llama3-low-equals-high"_s,
                     u"low_freq_factor = high_freq_factor = %1 (Llama 4 Scout's): no pair is blended, each is kept or "
                     "divided at wavelength %2; HF warns \"high_freq_factor must be greater\", and computes this as "
                     "Meta's code does"_s.arg(num(*low))
                         .arg(NumberText::compact(double(original.value_or(1)) / *low, 6)),
                     lt);
        if (original && *original >= m_shape.maxPositions)
            m_c.find(u"llama3-original-not-below-max"_s,
                     u"original_max_position_embeddings %1 is not below max_position_embeddings %2: the context "
                     "the factor %3 stretches to is not stated (HF warns)"_s.arg(*original)
                         .arg(m_shape.maxPositions)
                         .arg(r.factor ? num(*r.factor) : u"(none)"_s),
                     lt);
    }

    void readMrope(ConfigLayer &layer, const ConfigObject *d)
    {
        const RopeParams &r = layer.params.rope;
        const auto sections = d ? d->integers(u"mrope_section"_s, 0, kMaxCount, 64) : std::nullopt;
        QString words = u"no mrope_section"_s;
        if (sections) {
            std::int64_t sum = 0;
            QStringList parts;
            for (const std::int64_t s : *sections) {
                sum += s;
                parts.append(QString::number(s));
            }
            words = u"mrope_section [%1]"_s.arg(parts.join(u", "_s));
            if (sum != RopeFrequencies::pairs(r))
                m_c.find(u"mrope-section-sum"_s,
                         u"%1 adds up to %2 pairs; the rotary dim %3 has %4"_s.arg(d->pathOf(u"mrope_section"_s))
                             .arg(sum)
                             .arg(RopeFrequencies::rotaryDim(r))
                             .arg(RopeFrequencies::pairs(r)),
                         m_where);
        }
        m_c.find(u"mrope-text-positions"_s,
                 u"M-RoPE (%1): the pairs split into temporal, height and width sections; text tokens hold one "
                 "position on all three axes and so turn as default RoPE, which is what is described"_s.arg(words),
                 m_where);
    }

    void checkRotaryDim(ConfigLayer &layer)
    {
        const RopeParams &r = layer.params.rope;
        if (r.type == RopeType::Proportional || r.headDim < 2)
            return;
        const std::int64_t dim = RopeFrequencies::rotaryDim(r);
        if (dim % 2 != 0 && dim > 0)
            m_c.find(u"odd-rotary-dim"_s,
                     u"the rotary dim int(%1 * %2) = %3 is odd: HF makes ceil(%3 / 2) = %4 frequencies and turns %5 "
                     "columns, one more than the config means"_s.arg(r.headDim)
                         .arg(num(r.partialRotaryFactor))
                         .arg(dim)
                         .arg((dim + 1) / 2)
                         .arg(dim + 1),
                     m_where);
    }

    void fillValues(ConfigLayer &layer, const ConfigObject *)
    {
        const RopeParams &r = layer.params.rope;
        const auto optionalInt
            = [](const std::optional<std::int64_t> &v) { return v ? ConfigValue(*v) : ConfigValue(); };
        const auto optionalNum = [](const std::optional<double> &v) { return v ? ConfigValue(*v) : ConfigValue(); };
        const bool scaled = takesOriginal(r.type);
        const std::int64_t context = scaled && r.originalMaxLen ? *r.originalMaxLen : m_shape.maxPositions;
        const bool sliding = layer.layerType.startsWith(u"sliding"_s);
        layer.values = {
            {u"head_dim"_s, r.headDim},
            {u"rope_theta"_s, r.theta},
            {u"partial_rotary_factor"_s, r.partialRotaryFactor},
            {u"rope_layout"_s, r.layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s},
            {u"factor"_s, optionalNum(r.factor)},
            {u"original_max_position_embeddings"_s, scaled ? optionalInt(r.originalMaxLen) : ConfigValue()},
            {u"max_position_embeddings"_s, m_shape.maxPositions},
            {u"frequencies_context"_s, context},
            {u"sliding_window"_s, sliding ? optionalInt(m_shape.slidingWindow) : ConfigValue()},
        };
    }

    // NoPE layers and sliding layers' own theta, said once the layer types are known.
    void noteNope()
    {
        std::vector<std::int64_t> nope;
        for (std::size_t i = 0; i < m_shape.ropeOn.size(); ++i) {
            if (!m_shape.ropeOn[i])
                nope.push_back(std::int64_t(i));
        }
        if (!nope.empty()) {
            QString temperature;
            if (m_f.layerRule == LayerRule::Llama4
                && m_c.text.integer(u"attn_temperature_tuning"_s, 0, kMaxCount).value_or(1) != 0)
                temperature = u"; HF's Llama 4 scales their queries by log(floor((p + 1) / floor_scale) + 1) * "
                              "attn_scale + 1 instead (attn_temperature_tuning)"_s;
            m_c.find(u"nope-layers"_s,
                     u"layers %1 have no RoPE (no_rope_layers 0; 1 means RoPE turns): their attention sees order only "
                     "through the causal mask%2"_s.arg(layerList(nope, m_shape.layerCount), temperature));
        }
    }

    // Gemma 3's sliding layers: their own theta, unscaled, beside the full layers'.
    void noteSliding(const QList<ConfigLayer> &layers)
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
        if (!m_f.perLayerRope || !full || !sliding)
            return;
        const auto words = [](const RopeParams &r) {
            const QString type = RopeTypes::words().value(int(r.type));
            return u"theta %1, %2%3"_s.arg(num(r.theta), type,
                                           r.factor ? u" factor %1"_s.arg(num(*r.factor)) : QString());
        };
        m_c.find(u"sliding-layers-own-theta"_s,
                 u"the sliding_attention layers turn with %1 (rope_local_base_freq, no scaling), the full_attention "
                 "layers with %2: a port that gives every layer the global theta and scaling computes the local "
                 "layers wrong (candle#2891)"_s.arg(words(sliding->params.rope), words(full->params.rope)),
                 u"sliding_attention"_s);
    }
};

} // namespace

QList<ConfigLayer> ropeLayers(ConfigContext &context)
{
    return RopeReader(context).layers();
}

} // namespace posenc
