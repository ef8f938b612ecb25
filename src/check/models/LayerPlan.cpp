// The interpreter of a model row's layer rules (LayerPlan.h). Each rule is one of the few shapes
// HF's config classes compute layer_types with, named in the row with its keys:
// - "all": every layer full_attention; "all-sliding": every layer sliding_attention when the window
//   is set (MistralConfig, MinistralConfig); "use-sliding-all": the same when use_sliding_window
//   (Qwen3MoeConfig);
// - "period": on if (i + offset) % P else off, P a key's value or fixed, the last layer forced to
//   "last" (Gemma3TextConfig, Cohere2Config, Gemma4TextConfig, ModernBertConfig, Qwen3NextConfig);
// - "qwen2", "qwen2-moe": sliding from or below max_window_layers when use_sliding_window;
// - "rope-flags" (Llama4TextConfig: chunked where RoPE turns), "smollm3" (sliding on NoPE layers);
// - "indices", "offset-period", "pattern", "one-based", "listed": the hybrids' attention layers
//   among their mixers (Bamba, Jamba, NemotronH, Kimi-Linear, GraniteMoeHybrid).
#include "LayerPlan.h"

#include "check/ConfigContext.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using ConfigBounds::kMaxCount;
using ConfigBounds::kMaxLayers;

class Planner
{
public:
    explicit Planner(ConfigContext &c)
        : m_c(c)
        , m_row(c.model)
        , m_rule(c.model.layers)
    { }

    LayerPlan plan()
    {
        readShape();
        readTypes();
        readCrossAttention();
        readNope();
        group();
        return m_plan;
    }

private:
    ConfigContext &m_c;
    const ModelRow &m_row;
    const QJsonObject &m_rule;
    LayerPlan m_plan;

    std::int64_t count(const QString &key, std::int64_t lo, std::int64_t fallback, bool warn)
    {
        const std::int64_t def = std::int64_t(m_row.number(m_row.keyName(key)).value_or(double(fallback)));
        return m_c.integerOr({m_row.keyName(key)}, lo, kMaxCount, def, warn);
    }

    // A flag of the config, or the class's default: Python's truth of the value (4 is true).
    bool truth(const QString &key, bool fallback) const
    {
        const QJsonValue v = m_c.text.json().value(key);
        if (v.isBool())
            return v.toBool();
        if (v.isDouble())
            return v.toDouble() != 0.0;
        if (v.isNull() && m_c.text.contains(key))
            return false;
        return m_row.number(key).value_or(fallback ? 1.0 : 0.0) != 0.0;
    }

    void readShape()
    {
        LayerPlan &p = m_plan;
        p.hidden = count(u"hidden_size"_s, 1, 4096, false);
        p.heads = count(u"num_attention_heads"_s, 1, 32, false);
        p.maxPositions = count(u"max_position_embeddings"_s, 1, 2048, true);
        const QStringList layerKeys {m_row.keyName(u"num_hidden_layers"_s), u"n_layer"_s, u"num_layers"_s};
        p.layerCount = m_c.integerOr(layerKeys, 1, kMaxLayers,
                                     std::int64_t(m_row.number(layerKeys.first()).value_or(32.0)), false);
        p.headDim = headDimFrom(u"head_dim"_s);
        for (auto it = m_row.headDimByType.begin(); it != m_row.headDimByType.end(); ++it)
            p.typeHeadDims.push_back({it.key(), headDimFrom(it.value().toString())});
        const QString windowKey = m_row.window.value(u"key"_s).toString(u"sliding_window"_s);
        if (m_c.text.contains(windowKey))
            p.slidingWindow = m_c.text.integer(windowKey, 1, kMaxCount);
        else if (const auto def = m_row.number(windowKey))
            p.slidingWindow = std::int64_t(*def);
    }

    std::int64_t headDimFrom(const QString &key)
    {
        const LayerPlan &p = m_plan;
        const std::int64_t split = p.hidden / std::max<std::int64_t>(p.heads, 1);
        // More heads than hidden_size's units: hidden_size // heads is 0, no head's width. Said of
        // the heads, where the file holds them, not of a head_dim it may not hold; the problem leaves
        // no layer described (ModelConfig::check), and the narrowest rotary width, 2, stands in for
        // the head so that the problem is the run's one line.
        const auto noSplit = [&] {
            const QString heads = m_row.keyName(u"num_attention_heads"_s);
            if (split >= 1 || !m_c.text.has(heads))
                return split;
            m_c.text.problem(heads, u"a whole number in [1, %1] (hidden_size, of which each head takes "
                                    "hidden_size // num_attention_heads)"_s.arg(p.hidden),
                             QString::number(p.heads));
            return std::int64_t(2);
        };
        if (m_row.headDim == u"hidden"_s || m_row.headDim == u"rotary_dim"_s)
            return noSplit(); // the class sets head_dim from hidden_size / heads whatever the key says
        if (m_row.headDim == u"mla"_s && key == u"head_dim"_s)
            return m_c.integerOr({u"qk_rope_head_dim"_s}, 1, kMaxCount,
                                 std::int64_t(m_row.number(u"qk_rope_head_dim"_s).value_or(64.0)), true);
        const QString name = m_row.keyName(key); // the class's own key (QWenConfig's kv_channels)
        if (m_c.text.has(name))
            return m_c.text.integer(name, 1, kMaxCount).value_or(split);
        if (const auto def = m_row.number(name)) {
            m_c.implicitDefault(name, QString::number(std::int64_t(*def)));
            return std::int64_t(*def);
        }
        return noSplit();
    }

    // The rule's period: a fixed one, or a key's (the class's default when absent). A string or
    // zero period cannot be computed: HF's (i + 1) % P raises, unless layer_types is given.
    std::optional<std::int64_t> period(bool typesGiven)
    {
        if (m_rule.contains(u"fixed"_s))
            return m_rule.value(u"fixed"_s).toInt();
        const QString key = m_rule.value(u"key"_s).toString();
        const QString zeroWithout = m_rule.value(u"zero_without"_s).toString();
        if (!zeroWithout.isEmpty() && m_c.text.contains(zeroWithout) && !m_c.text.has(zeroWithout)) {
            if (!typesGiven)
                m_c.find(u"layer-rule-fails"_s,
                         u"%1 is null and layer_types is absent: HF's %2 sets %3 to 0 and computes (i + 1) %% 0 "
                         "(ZeroDivisionError)"_s.arg(m_c.text.pathOf(zeroWithout), m_row.configClass, key));
            return std::nullopt;
        }
        const QJsonValue v = m_c.text.json().value(key);
        if (v.isString()) {
            if (!typesGiven)
                m_c.find(
                    u"layer-rule-fails"_s,
                    u"%1 is %2, a word, and layer_types is absent: HF's %3 computes (i + 1) %% %2 (TypeError)"_s.arg(
                        m_c.text.pathOf(key), ConfigText::quote(v.toString()), m_row.configClass));
            return std::nullopt;
        }
        const auto given = m_c.text.has(key) ? m_c.text.integer(key, 1, kMaxLayers) : std::nullopt;
        if (!given && !m_c.text.has(key) && !typesGiven)
            m_c.implicitDefault(key, QString::number(std::int64_t(m_row.number(key).value_or(1.0))));
        return given.value_or(std::int64_t(m_row.number(key).value_or(1.0)));
    }

    // The layers a list key names, by index (or 1-based), or nothing when it is absent.
    std::optional<std::vector<std::int64_t>> indices(const QString &path)
    {
        const QStringList parts = path.split(u'.');
        std::optional<ConfigObject> object = m_c.text;
        for (qsizetype i = 0; i + 1 < parts.size() && object; ++i)
            object = object->object(parts[i]);
        if (!object)
            return std::nullopt;
        return object->integers(parts.last(), 0, kMaxLayers, kMaxLayers);
    }

    // What a rule reads of the row and the config, once for all the layers it types.
    struct Rule
    {
        QString rule, on, off;
        std::optional<QString> last; // the last layer's type, where the row forces it
        bool window = false, useSliding = false;
        std::int64_t from = 0; // max_window_layers
        std::int64_t offset = 1; // "period": the layer i whose (i + offset) % period is 0 is "off"
        std::int64_t periodOffset = 0; // "offset-period": the layer i % period == it is "on"
    };

    Rule readRule()
    {
        Rule r;
        r.rule = m_rule.value(u"rule"_s).toString();
        r.on = m_rule.value(u"on"_s).toString(u"full_attention"_s);
        r.off = m_rule.value(u"off"_s).toString(u"full_attention"_s);
        if (m_rule.contains(u"last"_s))
            r.last = m_rule.value(u"last"_s).toString();
        r.window = m_plan.slidingWindow.has_value();
        r.useSliding = truth(u"use_sliding_window"_s, false);
        r.from = count(u"max_window_layers"_s, 0, 28, false);
        r.offset = m_rule.value(u"offset"_s).toInt(1);
        if (r.rule == u"offset-period"_s)
            r.periodOffset = count(m_rule.value(u"offset_key"_s).toString(), 0, 4, false);
        return r;
    }

    QString ruleType(const Rule &r, std::int64_t i, std::optional<std::int64_t> p,
                     const std::vector<std::int64_t> &listed) const
    {
        const QString &rule = r.rule;
        if (rule == u"all-sliding"_s)
            return r.window ? u"sliding_attention"_s : u"full_attention"_s;
        if (rule == u"use-sliding-all"_s)
            return r.window && r.useSliding ? u"sliding_attention"_s : u"full_attention"_s;
        if (rule == u"period"_s) {
            if (i == m_plan.layerCount - 1 && r.last)
                return *r.last;
            return p && (i + r.offset) % *p != 0 ? r.on : r.off;
        }
        if (rule == u"qwen2"_s)
            return r.window && r.useSliding && i >= r.from ? u"sliding_attention"_s : u"full_attention"_s;
        if (rule == u"qwen2-moe"_s)
            return (i + 1) % 2 != 0 && i < r.from && r.useSliding ? u"sliding_attention"_s : u"full_attention"_s;
        if (rule == u"rope-flags"_s)
            return m_plan.ropeOn[std::size_t(i)] ? r.on : r.off;
        if (rule == u"smollm3"_s)
            return r.useSliding && r.window && !m_plan.ropeOn[std::size_t(i)] ? u"sliding_attention"_s
                                                                              : u"full_attention"_s;
        if (rule == u"indices"_s || rule == u"one-based"_s) {
            const std::int64_t index = rule == u"one-based"_s ? i + 1 : i;
            return std::find(listed.cbegin(), listed.cend(), index) != listed.cend() ? r.on : r.off;
        }
        if (rule == u"offset-period"_s)
            return p && i % *p == r.periodOffset ? r.on : r.off;
        if (rule == u"listed"_s)
            return m_rule.value(u"default"_s).toString();
        if (rule == u"map"_s)
            return mapped(i, listed);
        return u"full_attention"_s;
    }

    void readTypes()
    {
        LayerPlan &p = m_plan;
        const std::int64_t n = p.layerCount;
        p.ropeOn.assign(std::size_t(n), true);
        // Flags first: Llama 4's and SmolLM3's layer types follow them.
        if (m_row.nope.value(u"rule"_s).toString() == u"flags"_s)
            readFlags();
        const QString rule = m_rule.value(u"rule"_s).toString();
        if (rule == u"pattern"_s) {
            readPattern();
            return;
        }
        const auto listed = m_row.readsLayerTypes ? m_c.text.strings(u"layer_types"_s, 1 << 20) : std::nullopt;
        if (listed) {
            if (listed->size() != n)
                m_c.find(u"layer-types-length"_s,
                         u"layer_types lists %1 layers; num_hidden_layers is %2 (HF's layer_type_validation raises "
                         "ValueError)"_s.arg(listed->size())
                             .arg(n));
            p.types = listed->mid(0, n);
            while (p.types.size() < n)
                p.types.append(u"full_attention"_s);
            if (m_rule.contains(u"last"_s) && p.types.last() != m_rule.value(u"last"_s).toString())
                p.types.last() = m_rule.value(u"last"_s).toString(); // "Forcing last layer to full_attention"
            return;
        }
        if (rule == u"all"_s && readSlidingFlags())
            return;
        std::optional<std::int64_t> per;
        if (rule == u"period"_s)
            per = period(false);
        else if (rule == u"offset-period"_s)
            per = count(m_rule.value(u"key"_s).toString(), 1, 8, false);
        std::vector<std::int64_t> chosen;
        if (rule == u"map"_s)
            chosen = indices(m_rule.value(u"key"_s).toString()).value_or(std::vector<std::int64_t> {});
        if (rule == u"indices"_s || rule == u"one-based"_s) {
            const QString key = m_rule.value(u"key"_s).toString();
            if (const auto given = indices(key))
                chosen = *given;
            else
                chosen = layerRange(n); // LFM2: every layer attends without full_attn_idxs
        }
        if (rule == u"period"_s && !per) {
            for (std::int64_t i = 0; i < n; ++i)
                p.types.append(u"full_attention"_s);
            return;
        }
        if (n == 0)
            return;
        const Rule read = readRule(); // read at the first layer, as each layer would read it alike
        for (std::int64_t i = 0; i < n; ++i)
            p.types.append(ruleType(read, i, per, chosen));
    }

    // "map": a list key of one number per layer, each mapped to a layer type (DeepseekV4Config's
    // compress_ratios: 0 sliding, 4 compressed sparse, 128 heavily compressed; longer lists are cut to
    // num_hidden_layers). Without the key, `bootstrap` layers of the first alternate type, then the
    // alternates in turn (V4-Pro's default: 2 HCA, then HCA and CSA).
    QString mapped(std::int64_t i, const std::vector<std::int64_t> &given) const
    {
        const QJsonObject map = m_rule.value(u"map"_s).toObject();
        const QJsonArray alternate = m_rule.value(u"alternate"_s).toArray();
        if (!given.empty()) {
            const std::int64_t v = std::size_t(i) < given.size() ? given[std::size_t(i)] : 0;
            return map.value(QString::number(v)).toString(alternate.at(0).toString(u"full_attention"_s));
        }
        const std::int64_t bootstrap = m_rule.value(u"bootstrap"_s).toInteger(0);
        if (i < bootstrap || alternate.isEmpty())
            return alternate.at(0).toString(u"full_attention"_s);
        return alternate.at((i - bootstrap) % alternate.size()).toString();
    }

    // A model whose row has no layer rule of its own, read from its keys: hybrid_layer_pattern, one
    // flag per layer, 1 a sliding-window layer and 0 a full one (MiMo-V2's remote code, as
    // transformers' MiMoV2FlashConfig and sgl-jax's MiMoV2DecoderLayer read it). False when absent.
    bool readSlidingFlags()
    {
        const auto flags = m_c.text.integers(u"hybrid_layer_pattern"_s, 0, 1, kMaxLayers);
        if (!flags || flags->empty())
            return false;
        if (std::int64_t(flags->size()) != m_plan.layerCount)
            m_c.find(u"layer-types-length"_s,
                     u"hybrid_layer_pattern lists %1 layers; num_hidden_layers is %2"_s.arg(flags->size())
                         .arg(m_plan.layerCount));
        for (std::int64_t i = 0; i < m_plan.layerCount; ++i) {
            const bool sliding = std::size_t(i) < flags->size() && (*flags)[std::size_t(i)] != 0;
            m_plan.types.append(sliding && m_plan.slidingWindow ? u"sliding_attention"_s : u"full_attention"_s);
        }
        return true;
    }

    // cross_attention_layers: the layers that attend to another modality's states and take no
    // position, whatever the model_type (MllamaTextModel.__init__: MllamaCrossAttentionDecoderLayer
    // where layer_idx is in cross_attention_layers; MllamaTextCrossAttention.forward applies no rotary).
    void readCrossAttention()
    {
        const auto listed = m_c.text.integers(u"cross_attention_layers"_s, 0, kMaxLayers, kMaxLayers);
        if (!listed)
            return;
        for (const std::int64_t i : *listed) {
            if (i < m_plan.layerCount) {
                m_plan.types[i] = u"cross_attention"_s;
                m_plan.ropeOn[std::size_t(i)] = false;
            }
        }
    }

    void readPattern()
    {
        const QString key = m_rule.value(u"key"_s).toString();
        const QString pattern = m_c.text.string(key).value_or(m_row.word(key));
        const QJsonObject map = m_rule.value(u"map"_s).toObject();
        m_plan.types.clear();
        for (const QChar ch : pattern)
            m_plan.types.append(map.value(QString(ch)).toString(u"full_attention"_s));
        // NemotronHConfig: the pattern's length is the layer count, num_hidden_layers only warned of.
        m_plan.layerCount = m_plan.types.size();
        m_plan.ropeOn.assign(std::size_t(m_plan.layerCount), true);
    }

    // no_rope_layers: 1 where RoPE turns, 0 where it does not; absent or empty, every
    // no_rope_layer_interval-th layer is NoPE (Llama4TextConfig, SmolLM3Config).
    void readFlags()
    {
        std::vector<bool> &ropeOn = m_plan.ropeOn;
        const std::int64_t n = m_plan.layerCount;
        const auto list = m_c.text.integers(u"no_rope_layers"_s, 0, 1, 1 << 20);
        if (list && !list->empty()) {
            if (std::int64_t(list->size()) < n)
                m_c.find(u"layer-types-length"_s,
                         u"no_rope_layers lists %1 layers; the model has %2 (num_hidden_layers), so HF's attention of "
                         "layer %1 reads past its end (IndexError)"_s.arg(list->size())
                             .arg(n));
            for (std::size_t i = 0; i < std::min(list->size(), ropeOn.size()); ++i)
                ropeOn[i] = (*list)[i] != 0;
            return;
        }
        const std::int64_t interval = count(u"no_rope_layer_interval"_s, 1, 4, false);
        if (!m_c.text.has(u"no_rope_layer_interval"_s))
            m_c.implicitDefault(u"no_rope_layers"_s, u"a NoPE layer every %1th layer"_s.arg(interval));
        for (std::int64_t i = 0; i < n; ++i)
            ropeOn[std::size_t(i)] = (i + 1) % interval != 0;
    }

    void readNope()
    {
        LayerPlan &p = m_plan;
        const QString rule = m_row.nope.value(u"rule"_s).toString();
        const bool window = p.slidingWindow.has_value();
        std::vector<bool> ropeOn(std::size_t(p.layerCount), true);
        for (std::int64_t i = 0; i < p.layerCount; ++i) {
            const QString type = p.types.at(i);
            bool on = p.ropeOn[std::size_t(i)];
            if (LayerPlans::mixerOf(type, m_row.mixer) != u"attention"_s) {
                on = false;
            } else if (rule == u"sliding-only"_s) {
                const QString without = m_row.nope.value(u"without_window"_s).toString();
                const bool sliding = type == u"sliding_attention"_s;
                on = window ? sliding : (without == u"all"_s || (without == u"sliding"_s && sliding));
                const QString force = m_row.nope.value(u"force"_s).toString();
                if (!force.isEmpty() && truth(force, false))
                    on = true;
            } else if (rule == u"all"_s) {
                on = false;
            } else if (rule == u"flag"_s) {
                on = truth(m_row.nope.value(u"key"_s).toString(), false);
            } else if (rule == u"equals"_s) {
                const QString key = m_row.nope.value(u"key"_s).toString();
                on = m_c.text.string(key).value_or(QString()) == m_row.nope.value(u"value"_s).toString();
            } else if (rule == u"key"_s) {
                on = !truth(m_row.nope.value(u"key"_s).toString(), false);
            }
            ropeOn[std::size_t(i)] = on;
        }
        p.ropeOn = ropeOn;
    }

    void group()
    {
        LayerPlan &p = m_plan;
        // Linear in the layer types: a hash of the names, and the layer before's name and group
        // first, as layers come in runs of one type (a comparison costs less than a hash).
        QSet<QString> turning;
        const QString *last = nullptr; // the type last inserted (an empty name is a type too)
        for (std::int64_t i = 0; i < p.layerCount; ++i) {
            if (p.ropeOn[std::size_t(i)] && (!last || p.types.at(i) != *last)) {
                last = &p.types.at(i);
                turning.insert(*last);
            }
        }
        QHash<QString, qsizetype> index; // a group's place by name
        QString lastName;
        qsizetype lastGroup = -1;
        for (std::int64_t i = 0; i < p.layerCount; ++i) {
            const QString &type = p.types.at(i);
            const bool rope = p.ropeOn[std::size_t(i)];
            // NoPE layers of a type whose other layers turn get a name of their own.
            const QString name = !rope && turning.contains(type) ? type + u":nope"_s : type;
            if (lastGroup < 0 || name != lastName) {
                auto it = index.constFind(name);
                if (it == index.cend()) {
                    it = index.insert(name, p.groups.size());
                    p.groups.append({name, type, LayerPlans::mixerOf(type, m_row.mixer), rope, {}});
                }
                lastName = name;
                lastGroup = *it;
            }
            p.groups[lastGroup].layers.push_back(i);
        }
    }
};

} // namespace

std::int64_t LayerPlan::headDimOf(const QString &type) const
{
    for (const auto &[t, dim] : typeHeadDims) {
        if (t == type)
            return dim;
    }
    return headDim;
}

namespace LayerPlans {

LayerPlan plan(ConfigContext &context)
{
    return Planner(context).plan();
}

QString mixerOf(const QString &type, const QString &rowMixer)
{
    if (type == u"linear_attention"_s || type == u"mamba"_s || type == u"conv"_s)
        return type == u"mamba"_s ? u"ssm"_s : type == u"conv"_s ? u"conv"_s : rowMixer;
    if (type == u"mlp"_s || type == u"moe"_s)
        return u"mlp"_s;
    if (type == u"cross_attention"_s)
        return type;
    return u"attention"_s;
}

} // namespace LayerPlans

} // namespace posenc
