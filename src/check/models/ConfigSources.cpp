// Where each number of a checked config comes from (ConfigSources.h). The families' readers note
// the keys they read (ConfigLayer::readFrom); the rest follows from the model's row: a class
// default where the key is absent, the model's code where the row says the code fixes it, and a
// guess for all of that when the row is itself a guess (a model_type the table lacks).
#include "ConfigSources.h"

#include "check/ConfigContext.h"
#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeTypes.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

class Sourcer
{
public:
    explicit Sourcer(const ConfigContext &c)
        : m_c(c)
        , m_row(c.model)
    { }

    QList<std::pair<QString, QString>> of(const ConfigLayer &layer) const
    {
        QList<std::pair<QString, QString>> out;
        out.append({u"layers"_s, layers(layer)});
        if ((layer.scheme.encoding == u"none"_s || layer.scheme.encoding == u"cross_attention"_s)
            && layer.scheme.headDim > 0)
            out.append({u"encoding"_s, nope(layer)});
        if (FamilyChecks::of(layer.params.encoding).rotary && layer.scheme.rotaryPlace.size() > 0)
            rotary(layer, out);
        if (layer.scheme.window)
            out.append({u"sliding_window"_s, window()});
        if (layer.scheme.softmaxScale)
            out.append({u"softmax_scale"_s, softmax(layer)});
        return out;
    }

private:
    const ConfigContext &m_c;
    const ModelRow &m_row;

    static QString key(const QString &path) { return u"key "_s + path; }

    // A class default the config leaves out: the row's class's, or a guess of it.
    QString byDefault(const QString &what) const
    {
        if (m_row.known())
            return u"default %1's %2"_s.arg(m_row.configClass, what);
        return u"guess %1's default %2, as model_type %3 is not in posenc's table"_s.arg(m_row.configClass, what,
                                                                                         m_row.type);
    }

    // What the model's code fixes, no key saying it: the row's file, or a guess of it.
    QString byCode(const QString &what) const
    {
        if (m_row.known())
            return u"code %1 (%2)"_s.arg(m_row.file, what);
        return u"guess %1 (%2), as model_type %3 is not in posenc's table"_s.arg(m_row.file, what, m_row.type);
    }

    QString layers(const ConfigLayer &layer) const
    {
        const ConfigObject &t = m_c.text;
        const QString type = layer.layerType.section(u':', 0, 0);
        if (type == u"cross_attention"_s)
            return key(t.pathOf(u"cross_attention_layers"_s));
        if (layer.layerType.endsWith(u":nope"_s) && t.has(u"no_rope_layers"_s))
            return key(t.pathOf(u"no_rope_layers"_s));
        if (m_row.readsLayerTypes && t.has(u"layer_types"_s))
            return key(t.pathOf(u"layer_types"_s));
        const QString ruleKey = m_row.layers.value(u"key"_s).toString();
        if (!ruleKey.isEmpty() && t.has(ruleKey))
            return key(t.pathOf(ruleKey));
        const QString rule = m_row.layers.value(u"rule"_s).toString();
        // Every layer alike, unless MiMo-V2's hybrid_layer_pattern says which slide (LayerPlan).
        if ((rule.isEmpty() || rule == u"all"_s) && t.has(u"hybrid_layer_pattern"_s))
            return key(t.pathOf(u"hybrid_layer_pattern"_s));
        if (!rule.isEmpty() && rule != u"all"_s)
            return ruleKey.isEmpty() ? byCode(u"its layer rule, %1"_s.arg(rule))
                                     : byDefault(u"%1 (its layer rule, %2)"_s.arg(ruleKey, rule));
        // By the class's own name of it where the row gives one (GPT-2's n_layer, DistilBERT's n_layers).
        const QString layersKey = m_row.keyName(u"num_hidden_layers"_s);
        if (t.has(layersKey))
            return key(t.pathOf(layersKey));
        return t.has(u"num_hidden_layers"_s) ? key(t.pathOf(u"num_hidden_layers"_s))
                                             : byDefault(u"num_hidden_layers"_s);
    }

    // Why an attention layer turns nothing: the key or the code its row reads (LayerPlan's NoPE rules).
    QString nope(const ConfigLayer &layer) const
    {
        const ConfigObject &t = m_c.text;
        const QString rule = m_row.nope.value(u"rule"_s).toString();
        const QString ruleKey = rule == u"flags"_s ? u"no_rope_layers"_s : m_row.nope.value(u"key"_s).toString();
        if (layer.layerType.section(u':', 0, 0) == u"cross_attention"_s)
            return byCode(u"cross-attention takes no rotary embedding"_s);
        if (!ruleKey.isEmpty() && t.has(ruleKey))
            return key(t.pathOf(ruleKey));
        // Without the list, every no_rope_layer_interval-th layer (Llama4TextConfig, SmolLM3Config).
        if (rule == u"flags"_s && t.has(u"no_rope_layer_interval"_s))
            return key(t.pathOf(u"no_rope_layer_interval"_s));
        if (rule == u"sliding-only"_s)
            return byCode(u"RoPE on the sliding-window layers only"_s);
        if (!ruleKey.isEmpty())
            return byDefault(ruleKey);
        return byCode(u"no rotary embedding in its attention"_s);
    }

    void rotary(const ConfigLayer &layer, QList<std::pair<QString, QString>> &out) const
    {
        const QHash<QString, QString> &from = layer.readFrom;
        const RopeParams &r = layer.params.rope;
        const QString type = layer.layerType.section(u':', 0, 0);
        const QJsonValue thetaKeys = m_row.theta.value(m_row.theta.contains(type) ? type : u"*"_s);
        out.append({u"rope_theta"_s,
                    from.contains(u"rope-theta"_s)                             ? key(from.value(u"rope-theta"_s))
                        : thetaKeys.isArray() && thetaKeys.toArray().isEmpty() ? byCode(u"a fixed theta"_s)
                                                                               : byDefault(u"rope_theta"_s)});
        out.append({u"rotary_dim"_s, rotaryDim(layer)});
        out.append({u"rotary_place"_s, place(layer)});
        out.append({u"rope_type"_s,
                    from.contains(u"rope-type"_s) ? key(from.value(u"rope-type"_s))
                                                  : u"default no rope_scaling or rope_parameters type: default"_s});
        const bool interleaved = r.layout == RopeLayout::Interleaved;
        out.append({u"rope_layout"_s,
                    from.contains(u"rope-layout"_s) ? key(from.value(u"rope-layout"_s))
                                                    : byCode(interleaved ? u"adjacent pairs (2i, 2i + 1)"_s
                                                                         : u"rotate_half's pairs (i, i + r/2)"_s)});
        out.append({u"attention_factor"_s,
                    from.contains(u"attention-factor"_s)
                        ? key(from.value(u"attention-factor"_s))
                        : u"code modeling_rope_utils.py (_compute_%1_parameters)"_s.arg(RopeTypes::word(r.type))});
    }

    QString rotaryDim(const ConfigLayer &layer) const
    {
        const QHash<QString, QString> &from = layer.readFrom;
        if (m_row.partial == u"fixed"_s)
            return byCode(u"a fixed partial_rotary_factor"_s);
        if (from.contains(u"partial-rotary-factor"_s) && layer.params.rope.partialRotaryFactor != 1.0)
            return key(from.value(u"partial-rotary-factor"_s));
        if (from.contains(u"partial-rotary-factor"_s))
            return byCode(u"the whole head: %1 is not read for the default rope_type"_s.arg(
                from.value(u"partial-rotary-factor"_s)));
        // A share the config leaves to its class (persimmon-8b-base's config.json names none, and
        // PersimmonConfig's 0.5 turns half of each head): not the whole head.
        if (layer.params.rope.partialRotaryFactor != 1.0 && m_row.partial == u"honoured"_s)
            return byDefault(u"partial_rotary_factor %1 of the head"_s.arg(layer.params.rope.partialRotaryFactor));
        if (m_row.headDim == u"mla"_s)
            return from.contains(u"head-dim-key"_s) ? key(from.value(u"head-dim-key"_s))
                                                    : byDefault(u"qk_rope_head_dim"_s);
        if (from.contains(u"head-dim-key"_s) && m_row.headDim != u"hidden"_s)
            return key(from.value(u"head-dim-key"_s));
        if (m_row.headDim != u"hidden"_s && m_row.number(u"head_dim"_s))
            return byDefault(u"head_dim"_s);
        return byCode(u"the whole head, hidden_size / num_attention_heads"_s);
    }

    QString place(const ConfigLayer &layer) const
    {
        const QString &place = layer.scheme.rotaryPlace;
        if (place == u"mla-tail"_s && m_row.headDim == u"mla"_s)
            return byCode(u"MLA: the last qk_rope_head_dim columns"_s);
        if (place == u"mla-tail"_s && m_row.place == u"suffix"_s)
            return byCode(u"the last columns, x[..., -rope_dim:]"_s);
        if (place == u"mla-tail"_s)
            return u"guess key %1: the tail, as DeepSeek's MLA turns it"_s.arg(m_c.text.pathOf(u"qk_rope_head_dim"_s));
        if (place == u"proportional"_s)
            return layer.readFrom.contains(u"rope-type"_s) ? key(layer.readFrom.value(u"rope-type"_s))
                                                           : byCode(u"proportional"_s);
        return byCode(u"the first rotary_dim columns turn"_s);
    }

    QString window() const
    {
        const QString windowKey = m_row.window.value(u"key"_s).toString(u"sliding_window"_s);
        return m_c.text.has(windowKey) ? key(m_c.text.pathOf(windowKey)) : byDefault(windowKey);
    }

    QString softmax(const ConfigLayer &layer) const
    {
        const QString &words = layer.scheme.softmaxWords;
        for (const QString &k : {u"query_pre_attn_scalar"_s, u"attention_multiplier"_s, u"key_multiplier"_s}) {
            if (words.contains(k) && m_c.text.has(k))
                return u"key %1 (%2)"_s.arg(m_c.text.pathOf(k), words);
        }
        return byCode(layer.scheme.softmaxCite.isEmpty() ? words : words + u": "_s + layer.scheme.softmaxCite);
    }
};

} // namespace

namespace ConfigSources {

void fill(const ConfigContext &context, QList<ConfigLayer> &layers)
{
    const Sourcer sourcer(context);
    const ModelRow &row = context.model;
    // Layers read alike (one reading shared, RopeConfigReader::readingKey) have the same sources:
    // said once for a run of them, as a config may name tens of thousands of layer types. A type
    // with rules of its own is sourced on its own.
    const ConfigLayer *alike = nullptr;
    for (ConfigLayer &layer : layers) {
        const QString type = layer.layerType.section(u':', 0, 0);
        const bool own = layer.layerType.contains(u':') || row.theta.contains(type) || type == u"cross_attention"_s
            || type == u"sliding_attention"_s || type == u"full_attention"_s;
        const auto same = [&](const ConfigLayer &other) {
            return layer.readFrom.isSharedWith(other.readFrom) && layer.params.encoding == other.params.encoding
                && layer.scheme.encoding == other.scheme.encoding
                && layer.scheme.rotaryPlace == other.scheme.rotaryPlace
                && layer.scheme.window.has_value() == other.scheme.window.has_value()
                && layer.scheme.softmaxWords == other.scheme.softmaxWords;
        };
        if (!own && alike && same(*alike)) {
            layer.sources = alike->sources;
            continue;
        }
        layer.sources = sourcer.of(layer);
        if (!own)
            alike = &layer;
    }
}

bool isGuess(const QString &source)
{
    return source.startsWith(u"guess"_s);
}

QString keyOf(const QString &source)
{
    static const QRegularExpression key(u"^(?:guess )?key ([^\\s:,;()]+)"_s);
    return key.match(source).captured(1);
}

} // namespace ConfigSources

} // namespace posenc
