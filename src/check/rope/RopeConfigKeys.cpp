// RoPE's config reader: a layer type's rope_type, theta, rotary part and keys as HF's
// standardize_rope_params and _check_received_keys read them (RopeConfigReader.h).
#include "RopeConfigReader.h"

#include "check/mrope/MropeMistakes.h"
#include "core/rope/RopeTypes.h"

using namespace Qt::StringLiterals;

namespace posenc {

void RopeConfigReader::readRope(ConfigLayer &layer, const QString &type, QHash<QString, QString> &sources)
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
                         "ports, transformers before 4.45) compute %4"_s.arg(
                             d->pathOf(u"rope_type"_s), ConfigText::quote(word), d->pathOf(u"type"_s),
                             ConfigText::quote(legacy)),
                         m_where);
        }
    } else if (inDict(u"type"_s)) {
        word = d->string(u"type"_s).value_or(u"default"_s);
        m_c.find(u"legacy-type-key"_s,
                 u"%1 is %2, the legacy key: HF reads it as rope_type, but ports that read rope_type alone "
                 "(mlxcel#1355, TensorRT-Model-Connect#399) find none and compute default RoPE"_s.arg(
                     d->pathOf(u"type"_s), ConfigText::quote(word)),
                 m_where);
    }
    const QString typeKeyPath = inDict(u"rope_type"_s) ? d->pathOf(u"rope_type"_s) : pathOf(u"type"_s);
    if (inDict(u"rope_type"_s) || inDict(u"type"_s))
        sources.insert(u"rope-type"_s, typeKeyPath);
    // Model classes' own conversions.
    bool mrope = false;
    if (word == u"mrope"_s || (d && d->contains(u"mrope_section"_s))) {
        // Qwen2-VL's configs turn "mrope" into default and keep mrope_section.
        mrope = true;
        if (word == u"mrope"_s)
            word = u"default"_s;
    }
    // The class's own renames (Phi3Config: "For backward compatibility if previous version used su or yarn").
    if (m_row.ropeTypes.contains(word))
        word = m_row.ropeTypes.value(word).toString();
    const qsizetype index = RopeTypes::words().indexOf(word);
    if (index < 0) {
        m_c.find(u"unknown-rope-type"_s,
                 u"%1 %2 is no type HF computes (%3): ROPE_INIT_FUNCTIONS[%2] raises KeyError"_s.arg(
                     typeKeyPath, ConfigText::quote(word), RopeTypes::words().join(u", "_s)),
                 m_where);
        layer.described = false;
        return;
    }
    r.type = static_cast<RopeType>(index);
    if (!m_row.ropeTypesAllowed.isEmpty() && !m_row.ropeTypesAllowed.contains(word))
        m_c.find(u"rope-type-refused"_s,
                 u"%1 is %2: %3.validate_rope takes only %4 (ValueError)"_s.arg(
                     typeKeyPath, ConfigText::quote(word), m_row.configClass, m_row.ropeTypesAllowed.join(u" and "_s)),
                 m_where);
    // rope_interleave (DeepseekV3Config, default true) chooses between the two; the others are fixed.
    r.layout = m_row.layout == u"half"_s ? RopeLayout::Half : RopeLayout::Interleaved;
    if (m_row.layout == u"rope_interleave"_s)
        r.layout = t.boolean(u"rope_interleave"_s).value_or(true) ? RopeLayout::Interleaved : RopeLayout::Half;
    if (m_row.layout == u"rope_interleave"_s && t.has(u"rope_interleave"_s))
        sources.insert(u"rope-layout"_s, t.pathOf(u"rope_interleave"_s));
    // A model the table lacks says its pairing by its keys: rope_interleave (DeepseekV3Config's) or
    // rope_is_neox_style false (vLLM's get_rope is_neox_style: adjacent pairs).
    if (!m_row.known() && t.boolean(u"rope_interleave"_s).value_or(false)) {
        r.layout = RopeLayout::Interleaved;
        sources.insert(u"rope-layout"_s, t.pathOf(u"rope_interleave"_s));
    }
    if (!m_row.known() && t.has(u"rope_is_neox_style"_s) && !t.boolean(u"rope_is_neox_style"_s).value_or(true)) {
        r.layout = RopeLayout::Interleaved;
        sources.insert(u"rope-layout"_s, t.pathOf(u"rope_is_neox_style"_s));
    }

    readTheta(layer, d, sources);
    r.headDim = m_headDim;
    readPartial(layer, d, sources);
    const QString headKey = m_row.headDim == u"mla"_s ? u"qk_rope_head_dim"_s
        : m_row.headDimByType.contains(type)          ? m_row.headDimByType.value(type).toString()
                                                      : u"head_dim"_s;
    sources.insert(u"head-dim"_s, t.pathOf(headKey));
    if (t.has(headKey))
        sources.insert(u"head-dim-key"_s, t.pathOf(headKey));
    sources.insert(u"max-len"_s, t.pathOf(u"max_position_embeddings"_s));
    checkKeys(layer, d, mrope);
    readScaling(layer, d, sources);
    // A model whose row another family reads on RoPE's keys (M-RoPE's reader) has its sections read there.
    if (mrope && m_row.scheme == u"rope"_s)
        readMrope(layer, d);
    checkRotaryDim(layer);
    readQueryScale(layer, d);
    fillValues(layer, d);
}

void RopeConfigReader::readTheta(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources)
{
    const ConfigObject &t = m_c.text;
    RopeParams &r = layer.params.rope;
    const double lo = -ConfigBounds::kInf;
    // Read wide here: Params' check refuses what no model could use, naming the key.
    const auto read = [&](const ConfigObject &o, const QString &key) {
        sources.insert(u"rope-theta"_s, o.pathOf(key));
        return o.number(key, lo, ConfigBounds::kInf);
    };
    std::optional<double> inDict;
    if (d && d->has(u"rope_theta"_s))
        inDict = read(*d, u"rope_theta"_s);
    // The class's keys of this layer type's theta (GPTNeoXConfig's rotary_emb_base, Gemma 3's
    // rope_local_base_freq for its sliding layers); none where the model fixes it (GPT-J's 10000)
    // or its class reads no key for it (Olmo 3's sliding layers take default_theta).
    const QString type = layer.layerType.section(u':', 0, 0);
    QJsonValue keys = m_row.theta.contains(type) ? m_row.theta.value(type)
        : m_row.theta.contains(u"*"_s)           ? m_row.theta.value(u"*"_s)
                                                 : QJsonValue(u"rope_theta"_s);
    // A row without keys of its own for the type: the ecosystem's per-type theta keys, read from the
    // keys whatever the model_type (MiMo-V2's swa_rope_theta, as sgl-jax's MiMoV2DecoderLayer reads
    // it: rope_theta=getattr(config, "swa_rope_theta", rope_theta) on its sliding layers). Such a key
    // is the layer type's own, so a rope_theta in the shared dict is the other layers'.
    if (!m_row.theta.contains(type) && !m_row.theta.contains(u"*"_s)) {
        if (const QString own = typeThetaKey(type); !own.isEmpty()) {
            keys = own;
            inDict.reset();
        }
    }
    QStringList topKeys;
    if (keys.isString() && !keys.toString().isEmpty())
        topKeys.append(keys.toString());
    for (const QJsonValue &k : keys.toArray())
        topKeys.append(k.toString());
    // Gemma 4 reads only its dicts: a top-level rope_theta is not moved in.
    if (m_row.dicts == u"per-type-only"_s)
        topKeys.clear();
    QString topKey = topKeys.value(0, u"rope_theta"_s);
    for (const QString &k : topKeys) {
        if (t.has(k)) {
            topKey = k;
            break;
        }
    }
    std::optional<double> beside;
    if (!topKeys.isEmpty() && t.has(topKey)) {
        const auto keep = sources.value(u"rope-theta"_s);
        beside = t.number(topKey, lo, ConfigBounds::kInf);
        if (!inDict)
            sources.insert(u"rope-theta"_s, t.pathOf(topKey));
        else
            sources.insert(u"rope-theta"_s, keep);
    }
    if (inDict && beside && *inDict != *beside)
        m_c.find(
            u"rope-theta-twice"_s,
            u"%1 is %2 but %3 is %4: transformers 5 reads the dict's, transformers 4 the top level's"_s.arg(
                d->pathOf(u"rope_theta"_s), ConfigText::number(*inDict), t.pathOf(topKey), ConfigText::number(*beside)),
            m_where);
    if (keys.isString() && topKeys.isEmpty() && !inDict) {
        // Olmo3Config moves rope_theta into the full layers' dict only: these take default_theta.
        r.theta = m_row.number(u"rope_theta"_s).value_or(10000.0);
        if (t.has(u"rope_theta"_s) && t.number(u"rope_theta"_s, lo, ConfigBounds::kInf).value_or(r.theta) != r.theta)
            m_c.find(u"rope-theta-not-read"_s,
                     u"%1 is not read for the %2 layers: HF's %3 moves it into the full_attention dict only, and "
                     "these turn with its default_theta %4"_s.arg(t.pathOf(u"rope_theta"_s), type, m_row.configClass,
                                                                  ConfigText::number(r.theta)),
                     layer.layerType);
        return;
    }
    if (inDict) {
        r.theta = *inDict;
    } else if (beside) {
        r.theta = *beside;
    } else {
        // The class's default for the key (rope_local_base_freq's 1e4), or its default_theta.
        const double fallback
            = m_row.number(topKeys.value(0, u"rope_theta"_s)).value_or(m_row.number(u"rope_theta"_s).value_or(10000.0));
        r.theta = fallback;
        if (keys.isArray() && topKeys.isEmpty() && m_row.dicts != u"per-type-only"_s)
            return; // the model's code fixes it: no key to miss
        // A key written as null is read as absent (ConfigObject::has), and said so.
        const bool perType = d && (m_row.dicts == u"per-type-only"_s);
        const ConfigObject &holder = perType ? *d : t;
        const QString key = perType ? u"rope_theta"_s : topKey;
        const bool null = holder.contains(key) && holder.json().value(key).isNull();
        m_c.find(u"rope-theta-absent"_s,
                 u"%1 is %5: HF's %2 takes %3%4"_s.arg(
                     perType ? d->pathOf(u"rope_theta"_s) : t.pathOf(topKey),
                     m_row.configClass, ConfigText::number(fallback),
                     fallback == 10000.0 ? QString() : u" (not the 10000 a port might assume)"_s,
                     null ? u"null, read as absent"_s : u"absent"_s),
                 m_where);
    }
}

// partial_rotary_factor as the row's class reads it (ModelRow::partial): the key beside or in the
// dict, GPT-NeoX's rotary_pct, GPT-J's rotary_dim columns, or a factor the class fixes; a Llama-style
// default rope_type turns the whole head whatever the factor.
void RopeConfigReader::readPartial(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources)
{
    const ConfigObject &t = m_c.text;
    RopeParams &r = layer.params.rope;
    const double fallback = m_row.number(u"partial_rotary_factor"_s).value_or(1.0);
    if (m_row.partial == u"fixed"_s) {
        r.partialRotaryFactor = fallback;
        return;
    }
    if (m_row.partial == u"rotary_dim"_s) {
        // GPTJConfig: rotary_dim of each head's n_embd / n_head columns; null turns them all.
        const auto rotary = t.integer(u"rotary_dim"_s, 1, ConfigBounds::kMaxCount);
        const double columns = rotary     ? double(*rotary)
            : t.contains(u"rotary_dim"_s) ? double(m_headDim)
                                          : m_row.number(u"rotary_dim"_s).value_or(64.0);
        r.partialRotaryFactor = columns / double(std::max<std::int64_t>(1, m_headDim));
        sources.insert(u"partial-rotary-factor"_s, t.pathOf(u"rotary_dim"_s));
        if (!t.contains(u"rotary_dim"_s))
            m_c.implicitDefault(u"rotary_dim"_s, ConfigText::number(columns));
        return;
    }
    const QString besideKey = m_row.partial == u"rotary_pct"_s ? u"rotary_pct"_s : u"partial_rotary_factor"_s;
    std::optional<double> inDict;
    std::optional<double> beside;
    if (d && d->has(u"partial_rotary_factor"_s)) {
        inDict = d->number(u"partial_rotary_factor"_s, -ConfigBounds::kInf, ConfigBounds::kInf);
        sources.insert(u"partial-rotary-factor"_s, d->pathOf(u"partial_rotary_factor"_s));
    }
    if (t.has(besideKey)) {
        beside = t.number(besideKey, -ConfigBounds::kInf, ConfigBounds::kInf);
        if (!inDict)
            sources.insert(u"partial-rotary-factor"_s, t.pathOf(besideKey));
    }
    if (inDict && beside && *inDict != *beside)
        m_c.find(u"partial-rotary-factor-twice"_s,
                 u"%1 is %2 but %3 is %4: HF versions disagree on which one standardize_rope_params keeps"_s.arg(
                     d->pathOf(u"partial_rotary_factor"_s), ConfigText::number(*inDict), t.pathOf(besideKey),
                     ConfigText::number(*beside)),
                 m_where);
    if (inDict)
        r.partialRotaryFactor = *inDict;
    else if (beside)
        r.partialRotaryFactor = *beside;
    else if (const auto columns = rotaryColumns(); columns && m_row.partial == u"honoured"_s) {
        // rotary_dim, the columns turned (MiniMax's modeling_minimax_m2.py and vLLM's MiniMaxM2Attention:
        // rotary_dim=config.rotary_dim), read wherever no partial_rotary_factor says otherwise.
        r.partialRotaryFactor = double(*columns) / double(std::max<std::int64_t>(1, m_headDim));
        sources.insert(u"partial-rotary-factor"_s,
                       t.pathOf(t.has(u"rotary_dim"_s) ? u"rotary_dim"_s : u"qk_rope_head_dim"_s));
    } else {
        r.partialRotaryFactor = fallback;
        if (fallback != 1.0 && !m_fromClass)
            m_c.implicitDefault(besideKey, ConfigText::number(fallback));
    }
    if (m_row.partial == u"ignored"_s && r.type == RopeType::Default && r.partialRotaryFactor != 1.0) {
        m_c.find(u"partial-rotary-factor-ignored"_s,
                 u"partial_rotary_factor %1 is not read by the default rope_type of %2: its "
                 "compute_default_rope_parameters turns the whole head of %3 (the scaled types would honour it)"_s
                     .arg(ConfigText::number(r.partialRotaryFactor), m_row.configClass)
                     .arg(m_headDim),
                 m_where);
        r.partialRotaryFactor = 1.0;
    }
}

// The key of a layer type's own theta that the config gives, or none.
QString RopeConfigReader::typeThetaKey(const QString &type) const
{
    static const QStringList sliding
        = {u"swa_rope_theta"_s, u"sliding_window_rope_theta"_s, u"local_rope_theta"_s, u"rope_local_base_freq"_s};
    static const QStringList full = {u"global_rope_theta"_s};
    const QStringList &keys = type == u"sliding_attention"_s ? sliding
        : type == u"full_attention"_s                        ? full
                                                             : QStringList();
    for (const QString &k : keys) {
        if (m_c.text.has(k))
            return k;
    }
    return QString();
}

// The rotary_dim key, when it names fewer columns than the head (a key of the config, not the head).
// Without it, qk_rope_head_dim names them where the head is not MLA's nope + rope (DeepseekV4Config:
// partial_rotary_factor = qk_rope_head_dim / head_dim).
std::optional<std::int64_t> RopeConfigReader::rotaryColumns() const
{
    const QString key
        = m_c.text.has(u"rotary_dim"_s) || m_row.headDim == u"mla"_s ? u"rotary_dim"_s : u"qk_rope_head_dim"_s;
    const auto columns = m_c.text.has(key) ? m_c.text.integer(key, 1, ConfigBounds::kMaxCount) : std::nullopt;
    if (!columns || *columns >= m_headDim)
        return std::nullopt;
    return columns;
}

// _check_received_keys: a required key absent raises KeyError; an unknown one is warned of.
void RopeConfigReader::checkKeys(ConfigLayer &layer, const ConfigObject *d, bool mrope)
{
    const RopeType type = layer.params.rope.type;
    const RopeTypes::TypeSpec &keys = RopeTypes::of(type);
    // standardize_rope_params sets these before the validator runs.
    QStringList received = d ? d->json().keys() : QStringList();
    for (const QString &given : {u"rope_type"_s, u"rope_theta"_s})
        received.append(given);
    if (keys.takesOriginal)
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
        m_c.find(u"missing-required-key"_s,
                 u"rope_type %1 needs %2 in %3: HF's _check_received_keys raises KeyError"_s.arg(
                     RopeTypes::words().value(int(type)), missing.join(u", "_s), d ? d->path() : m_dictPath),
                 m_where);
    }
    if (!d)
        return;
    QStringList unknown;
    for (const QString &k : d->json().keys()) {
        if (keys.required.contains(k) || keys.optional.contains(k) || k == u"partial_rotary_factor"_s || k == u"type"_s)
            continue;
        if (mrope && (k == u"mrope_section"_s || k == u"mrope_interleaved"_s))
            continue;
        if (type == RopeType::Dynamic && k == u"original_max_position_embeddings"_s)
            continue; // dynamic-ignores-original says more
        if (type == RopeType::Dynamic && k == u"alpha"_s)
            continue; // NTK alpha: read (RopeConfigReader::readNtkAlpha)
        if (m_row.dicts != u"one"_s && (k == u"rope_type"_s || k == u"rope_theta"_s))
            continue;
        // Keys the class takes out of the validation (Ministral3Config's llama_4_scaling_beta).
        if (k == m_row.qscale.value(u"key"_s).toString())
            continue;
        unknown.append(k);
    }
    if (!unknown.isEmpty())
        m_c.find(u"unrecognized-rope-key"_s,
                 u"%1 holds %2, which HF's validator does not know for rope_type %3 (\"Unrecognized keys\"): "
                 "%4 does not read %5"_s.arg(d->path(), ConfigText::keyList(unknown),
                                             RopeTypes::words().value(int(type)),
                                             u"_compute_%1_parameters"_s.arg(RopeTypes::words().value(int(type))),
                                             unknown.size() == 1 ? u"it"_s : u"them"_s),
                 m_where);
}

QList<ConfigFindings::Kind> RopeConfig::findings()
{
    return {
        {u"unknown-rope-type"_s, Severity::Error,
         u"a rope_type HF has no function for: its rotary embedding raises KeyError"_s},
        {u"missing-required-key"_s, Severity::Error,
         u"a key HF's validator requires for the rope_type is absent (KeyError)"_s},
        {u"type-and-rope-type-differ"_s, Severity::Error,
         u"the legacy type and rope_type name different types: HF reads rope_type, older readers type"_s},
        {u"rope-scaling-overrides-parameters"_s, Severity::Error,
         u"rope_scaling and rope_parameters differ: HF reads rope_scaling and ignores rope_parameters"_s},
        {u"rope-theta-twice"_s, Severity::Error,
         u"rope_theta beside and inside the rope dict differ: transformers 5 reads the dict's, 4 the top level's"_s},
        {u"partial-rotary-factor-twice"_s, Severity::Error,
         u"partial_rotary_factor beside and inside the rope dict differ: HF versions disagree on which wins"_s},
        {u"original-twice"_s, Severity::Error,
         u"original_max_position_embeddings beside and inside the rope dict differ: HF takes the top level's"_s},
        {u"truncate-in-layer-dict"_s, Severity::Error,
         u"yarn's truncate false inside a per-layer dict: HF reads truncate from rope_parameters' top level"_s},
        {u"rope-parameters-mixed-keys"_s, Severity::Error,
         u"keys beside the per-layer dicts (truncate outside them): HF no longer reads them as per-layer"_s},
        {u"layer-dict-missing"_s, Severity::Error, u"the per-layer rope_parameters lack a layer type's dict"_s},
        {u"per-layer-dicts-unsupported"_s, Severity::Error,
         u"per-layer rope_parameters for a model whose HF rotary embedding reads one dict"_s},
        {u"llama3-low-above-high"_s, Severity::Error,
         u"llama3's low_freq_factor above high_freq_factor: the bands overlap"_s},
        {u"odd-rotary-dim"_s, Severity::Error,
         u"the rotary dim int(head_dim * partial_rotary_factor) is odd: HF turns one column more"_s},
        {u"factor-applied-twice"_s, Severity::Error,
         u"max_position_embeddings already holds the factor the scaling applies again"_s},
        {u"dynamic-ignores-original"_s, Severity::Error,
         u"dynamic with original_max_position_embeddings: HF scales from max_position_embeddings instead"_s},
        {u"factor-list-length"_s, Severity::Error,
         u"longrope's short_factor or long_factor does not hold rotary_dim / 2 values"_s},
        {MropeMistakes::kSectionSum, Severity::Error, MropeMistakes::words(MropeMistakes::kSectionSum)},
        {u"rope-type-refused"_s, Severity::Error,
         u"a rope_type the model's config class refuses (Phi-3's takes only default and longrope: ValueError)"_s},
        {u"query-scale-key-missing"_s, Severity::Error,
         u"Mistral 3's yarn dict without llama_4_scaling_beta: the query scaling multiplies by None (TypeError)"_s},
        {u"partial-rotary-factor-ignored"_s, Severity::Warning,
         u"partial_rotary_factor with the default rope_type of a Llama-style model, which turns the whole head"_s},
        {u"rope-theta-not-read"_s, Severity::Warning,
         u"a rope_theta the model's class does not read for a layer type (Gemma 4's, Olmo 3's sliding layers)"_s},
        {u"legacy-type-key"_s, Severity::Warning,
         u"the legacy key type instead of rope_type: HF converts it, readers of rope_type miss it"_s},
        {u"rope-theta-absent"_s, Severity::Warning, u"no rope_theta: the model class's default is assumed"_s},
        {u"yarn-factor-mismatch"_s, Severity::Warning,
         u"yarn's factor is not max_position_embeddings / original_max_position_embeddings (HF warns)"_s},
        {u"longrope-factor-from-context"_s, Severity::Warning,
         u"longrope without factor: HF takes max_position_embeddings / original (and warns)"_s},
        {u"rope-scaling-duplicates-parameters"_s, Severity::Warning,
         u"rope_scaling and rope_parameters both given, alike: HF reads rope_scaling"_s},
        {u"unrecognized-rope-key"_s, Severity::Warning, u"a key HF's validator does not know for the rope_type"_s},
        {u"factor-below-one"_s, Severity::Warning, u"a scaling factor below 1 shortens the context (HF warns)"_s},
        {u"llama3-original-not-below-max"_s, Severity::Warning,
         u"llama3's original_max_position_embeddings is not below max_position_embeddings (HF warns)"_s},
        {u"beta-fast-below-slow"_s, Severity::Warning, u"yarn's beta_fast below beta_slow (HF warns)"_s},
        {u"dynamic-ntk-alpha"_s, Severity::Note,
         u"dynamic with alpha (Hunyuan): the base is rope_theta * alpha^(d/(d-2)) at every length, not the factor's"_s},
        {u"llama3-low-equals-high"_s, Severity::Note,
         u"llama3 with low_freq_factor = high_freq_factor (Llama 4 Scout): no blended band; HF warns"_s},
        {u"mscale-pair"_s, Severity::Note,
         u"yarn's mscale and mscale_all_dim: the temperature moves into the softmax scale"_s},
        {u"sliding-layers-own-theta"_s, Severity::Note,
         u"sliding-window layers turn with their own theta, unscaled (Gemma 3's local layers)"_s},
        {u"proportional-not-partial"_s, Severity::Note,
         u"proportional's partial_rotary_factor is not partial rotary: the exponent divides by head_dim"_s},
        {u"rope-parameters-v5-form"_s, Severity::Note,
         u"rope_parameters, transformers 5's form: readers of rope_scaling see no scaling"_s},
        {u"yarn-context-not-extended"_s, Severity::Note,
         u"yarn with max_position_embeddings = original: the config does not state the extended context"_s},
        {u"mrope-text-positions"_s, Severity::Note,
         u"M-RoPE: text turns as default RoPE, images by sections of the pairs"_s},
    };
}

} // namespace posenc
