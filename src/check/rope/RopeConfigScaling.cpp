// RoPE's config reader: a layer type's scaling as HF's _compute_<type>_parameters and their
// validators read it, and the values a layer prints (RopeConfigReader.h).
#include "RopeConfigReader.h"

#include "check/mrope/MropeMistakes.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

void RopeConfigReader::readScaling(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources)
{
    RopeParams &r = layer.params.rope;
    const ConfigObject &t = m_c.text;
    const QString lt = m_where;
    const std::int64_t maxPos = m_c.plan.maxPositions;
    if (!d)
        return;
    const auto numberIn = [&](const QString &key, const QString &param) -> std::optional<double> {
        if (!d->has(key))
            return std::nullopt;
        sources.insert(param, d->pathOf(key));
        return d->number(key, -ConfigBounds::kInf, ConfigBounds::kInf);
    };
    // Factor: read for every type that reads it; proportional divides by it too.
    if (r.type != RopeType::Default) {
        r.factor = numberIn(u"factor"_s, u"rope-factor"_s);
        if (r.factor && *r.factor < 1.0 && r.type != RopeType::LongRope)
            m_c.find(u"factor-below-one"_s,
                     u"%1 is %2: below 1 the scaling shortens the context it stretches (HF warns: \"factor field "
                     "must be a float or int >= 1\")"_s.arg(d->pathOf(u"factor"_s), ConfigText::number(*r.factor)),
                     lt);
    }
    // original_max_position_embeddings: Phi3Config's top-level value wins (standardize_rope_params's
    // "exception case"); else the dict's; else max_position_embeddings.
    std::optional<std::int64_t> original;
    if (RopeTypes::of(r.type).takesOriginal || r.type == RopeType::Dynamic) {
        if (d->has(u"original_max_position_embeddings"_s)) {
            original = d->integer(u"original_max_position_embeddings"_s, 1, Params::kMaxLen);
            sources.insert(u"original-max-len"_s, d->pathOf(u"original_max_position_embeddings"_s));
        }
        // A class field of its own (Phi3Config's 4096), read when the config gives none.
        const std::optional<double> classOriginal = m_row.number(u"original_max_position_embeddings"_s);
        if (t.has(u"original_max_position_embeddings"_s) && RopeTypes::of(r.type).takesOriginal) {
            const auto topOriginal = t.integer(u"original_max_position_embeddings"_s, 1, Params::kMaxLen);
            if (original && topOriginal && *original != *topOriginal)
                m_c.find(u"original-twice"_s,
                         u"%1 is %2 but %3 is %4: HF's standardize_rope_params takes the top level's"_s.arg(
                             d->pathOf(u"original_max_position_embeddings"_s), QString::number(*original),
                             t.pathOf(u"original_max_position_embeddings"_s), QString::number(*topOriginal)),
                         lt);
            original = topOriginal;
            sources.insert(u"original-max-len"_s, t.pathOf(u"original_max_position_embeddings"_s));
        } else if (classOriginal && RopeTypes::of(r.type).takesOriginal && !original) {
            original = std::int64_t(*classOriginal);
            m_c.implicitDefault(u"original_max_position_embeddings"_s, QString::number(*original));
        }
        if (!original && RopeTypes::of(r.type).takesOriginal) {
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
                     "rotary dim %5"_s.arg(ConfigText::number(r.partialRotaryFactor))
                         .arg(r.headDim)
                         .arg(std::int64_t(std::floor(r.partialRotaryFactor * double(r.headDim) / 2.0)))
                         .arg(r.headDim / 2)
                         .arg(std::int64_t(double(r.headDim) * r.partialRotaryFactor)),
                     lt);
        break;
    case RopeType::Dynamic:
        if (readNtkAlpha(layer, d, sources))
            break;
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
                         .arg(ConfigText::number(*r.factor)),
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

// NTK alpha, a published form of dynamic (Hunyuan's configs: {"type": "dynamic", "alpha": A}):
// transformers' HunYuanDenseV1RotaryEmbedding and HunYuanMoEV1RotaryEmbedding.__init__ ("Diff from
// Llama - DynamicNTKAlphaRotary") and vLLM's get_rope (DynamicNTKAlphaRotaryEmbedding, taken for
// dynamic wherever the dict holds alpha) turn at base = rope_theta * alpha ** (d / (d - 2)), d the
// head dim, at every length up to max_position_embeddings: the default table of that base, its
// attention factor 1, no factor read. The base is the layer's rope_theta from here on, its source
// the alpha key; a port that reads factor instead (mobius#293) turns at rope_theta unscaled.
bool RopeConfigReader::readNtkAlpha(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources)
{
    RopeParams &r = layer.params.rope;
    if (!d || !d->has(u"alpha"_s))
        return false;
    const std::optional<double> alpha = d->number(u"alpha"_s, 0.0, ConfigBounds::kInf);
    if (!alpha || !(*alpha > 0.0) || r.headDim <= 2)
        return false;
    const double given = r.theta;
    const double exponent = double(r.headDim) / double(r.headDim - 2);
    r.theta = given * std::pow(*alpha, exponent);
    r.type = RopeType::Default;
    r.factor.reset();
    r.originalMaxLen.reset();
    sources.insert(u"rope-theta"_s,
                   u"%1 (rope_theta %2 * alpha^(%3/%4) = %5, NTK alpha: HunYuanDenseV1RotaryEmbedding, vLLM's "
                   "DynamicNTKAlphaRotaryEmbedding)"_s.arg(d->pathOf(u"alpha"_s), ConfigText::number(given))
                       .arg(r.headDim)
                       .arg(r.headDim - 2)
                       .arg(ConfigText::number(r.theta)));
    m_c.find(u"dynamic-ntk-alpha"_s,
             u"%1 is %2 with rope_type dynamic: Hunyuan's rotary embedding and vLLM's DynamicNTKAlphaRotaryEmbedding "
             "turn at base rope_theta %3 * alpha^(%4/%5) = %6 at every length, not dynamic's factor; ports that read "
             "the factor turn at rope_theta %3 (mobius#293)"_s.arg(d->pathOf(u"alpha"_s), ConfigText::number(*alpha),
                                                                  ConfigText::number(given))
                 .arg(r.headDim)
                 .arg(r.headDim - 2)
                 .arg(ConfigText::number(r.theta)),
             m_where);
    return true;
}

void RopeConfigReader::readYarn(ConfigLayer &layer, const ConfigObject *d, std::optional<std::int64_t> original,
                                const NumberIn &numberIn)
{
    RopeParams &r = layer.params.rope;
    const QString lt = m_where;
    const std::int64_t maxPos = m_c.plan.maxPositions;
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
                 u"beta_fast %1 is below beta_slow %2: the ramp runs backwards (HF warns)"_s.arg(
                     ConfigText::number(r.betaFast), ConfigText::number(r.betaSlow)),
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
    if (r.mscale && r.mscaleAllDim && *r.mscale != 0.0 && *r.mscaleAllDim != 0.0 && r.factor && !r.attentionFactor) {
        const double f = *r.factor;
        const double ratio = RopeFrequencies::getMscale(f, *r.mscale) / RopeFrequencies::getMscale(f, *r.mscaleAllDim);
        const double softmax = std::pow(RopeFrequencies::getMscale(f, *r.mscaleAllDim), 2.0);
        // Only an attention that applies yarn_get_mscale to its softmax (DeepSeek's MLA) moves the
        // temperature there; the others keep head_dim^-0.5 (Ministral3Attention).
        if (m_row.softmax == u"mla"_s)
            m_c.find(
                u"mscale-pair"_s,
                u"mscale %1 and mscale_all_dim %2: cos and sin are multiplied by %3, and the attention multiplies "
                "its softmax scale by get_mscale(%4, %2)^2 = %5 (DeepSeek-style): a port that applies 0.1 ln %4 + 1 "
                "to cos and sin as plain yarn does scales the logits twice (exllamav3#259)"_s.arg(
                    ConfigText::number(*r.mscale), ConfigText::number(*r.mscaleAllDim), NumberText::compact(ratio, 5),
                    ConfigText::number(f), NumberText::compact(softmax, 5)),
                lt);
        else
            m_c.find(u"mscale-pair"_s,
                     u"mscale %1 and mscale_all_dim %2: cos and sin are multiplied by %3, and %6's attention keeps its "
                     "softmax scale (no get_mscale(%4, %2)^2 = %5, which DeepSeek's applies); vLLM's YaRN ignored the "
                     "pair and multiplied by %7 (vllm#48621)"_s.arg(
                         ConfigText::number(*r.mscale), ConfigText::number(*r.mscaleAllDim),
                         NumberText::compact(ratio, 5), ConfigText::number(f), NumberText::compact(softmax, 5),
                         m_row.configClass, NumberText::compact(RopeFrequencies::getMscale(f, 1.0), 5)),
                     lt);
    }
    if (!r.factor && d->contains(u"factor"_s) && original) {
        r.factor = double(maxPos) / double(*original);
        m_c.find(u"implicit-default"_s,
                 u"%1 is null: HF's _compute_yarn_parameters takes max_position_embeddings / original = %2"_s.arg(
                     d->pathOf(u"factor"_s), ConfigText::number(*r.factor)),
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
                     .arg(ConfigText::number(f)),
                 lt);
    } else if (implicit != f && implicit != 1.0) {
        m_c.find(u"yarn-factor-mismatch"_s,
                 u"factor %1, but max_position_embeddings / original = %2 / %3 = %4: HF warns and uses the "
                 "factor %1 (before transformers PR #40320 it used %4: transformers#38224, Qwen3#1424)"_s
                     .arg(ConfigText::number(f))
                     .arg(maxPos)
                     .arg(*original)
                     .arg(NumberText::compact(implicit, 6)),
                 lt);
    } else if (implicit == 1.0 && f > 1.0) {
        m_c.find(u"yarn-context-not-extended"_s,
                 u"max_position_embeddings equals original_max_position_embeddings (%1): the config does not say "
                 "the context is now %2 (factor x original), and HF skips its check of the factor"_s.arg(maxPos)
                     .arg(ConfigText::number(f * double(*original))),
                 lt);
    }
}

void RopeConfigReader::readLongRope(ConfigLayer &layer, const ConfigObject *d, std::optional<std::int64_t> original,
                                    QHash<QString, QString> &sources)
{
    RopeParams &r = layer.params.rope;
    const QString lt = m_where;
    r.originalMaxLen = original;
    if (d->has(u"attention_factor"_s)) {
        r.attentionFactor = d->number(u"attention_factor"_s, -ConfigBounds::kInf, ConfigBounds::kInf);
        sources.insert(u"attention-factor"_s, d->pathOf(u"attention_factor"_s));
    }
    if (!r.factor && original) {
        // _compute_longrope_parameters: factor = max_position_embeddings / original.
        r.factor = double(m_c.plan.maxPositions) / double(*original);
        sources.insert(u"rope-factor"_s, m_c.text.pathOf(u"max_position_embeddings"_s));
        m_c.find(u"longrope-factor-from-context"_s,
                 u"%1 has no factor: HF takes max_position_embeddings / original = %2 / %3 = %4 for the attention "
                 "factor (and warns to set factor)"_s.arg(d->path())
                     .arg(m_c.plan.maxPositions)
                     .arg(*original)
                     .arg(ConfigText::number(*r.factor)),
                 lt);
    }
    for (const bool longList : {false, true}) {
        const QString key = longList ? u"long_factor"_s : u"short_factor"_s;
        const auto list = d->numbers(key, -ConfigBounds::kInf, ConfigBounds::kInf, ConfigBounds::kMaxList);
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

void RopeConfigReader::readLlama3(ConfigLayer &layer, std::optional<std::int64_t> original, const NumberIn &numberIn)
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
                 "divided one (above %4) overlap"_s.arg(ConfigText::number(*low), ConfigText::number(*high))
                     .arg(NumberText::compact(double(original.value_or(1)) / *high, 6))
                     .arg(NumberText::compact(double(original.value_or(1)) / *low, 6)),
                 lt);
    else if (low && high && *low == *high)
        m_c.find(u"llama3-low-equals-high"_s,
                 u"low_freq_factor = high_freq_factor = %1 (Llama 4 Scout's): no pair is blended, each is kept or "
                 "divided at wavelength %2; HF warns \"high_freq_factor must be greater\", and computes this as "
                 "Meta's code does"_s.arg(ConfigText::number(*low))
                     .arg(NumberText::compact(double(original.value_or(1)) / *low, 6)),
                 lt);
    if (original && *original >= m_c.plan.maxPositions)
        m_c.find(u"llama3-original-not-below-max"_s,
                 u"original_max_position_embeddings %1 is not below max_position_embeddings %2: the context "
                 "the factor %3 stretches to is not stated (HF warns)"_s.arg(*original)
                     .arg(m_c.plan.maxPositions)
                     .arg(r.factor ? ConfigText::number(*r.factor) : u"(none)"_s),
                 lt);
}

void RopeConfigReader::readMrope(ConfigLayer &layer, const ConfigObject *d)
{
    const RopeParams &r = layer.params.rope;
    const auto sections = d ? d->integers(u"mrope_section"_s, 0, ConfigBounds::kMaxCount, 64) : std::nullopt;
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
            m_c.find(MropeMistakes::kSectionSum,
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

void RopeConfigReader::checkRotaryDim(ConfigLayer &layer)
{
    const RopeParams &r = layer.params.rope;
    if (r.type == RopeType::Proportional || r.headDim < 2)
        return;
    const std::int64_t dim = RopeFrequencies::rotaryDim(r);
    if (dim % 2 != 0 && dim > 0)
        m_c.find(u"odd-rotary-dim"_s,
                 u"the rotary dim int(%1 * %2) = %3 is odd: HF makes ceil(%3 / 2) = %4 frequencies and turns %5 "
                 "columns, one more than the config means"_s.arg(r.headDim)
                     .arg(ConfigText::number(r.partialRotaryFactor))
                     .arg(dim)
                     .arg((dim + 1) / 2)
                     .arg(dim + 1),
                 m_where);
}

void RopeConfigReader::fillValues(ConfigLayer &layer, const ConfigObject *)
{
    const RopeParams &r = layer.params.rope;
    const auto optionalInt = [](const std::optional<std::int64_t> &v) { return v ? ConfigValue(*v) : ConfigValue(); };
    const auto optionalNum = [](const std::optional<double> &v) { return v ? ConfigValue(*v) : ConfigValue(); };
    const bool scaled = RopeTypes::of(r.type).takesOriginal;
    const std::int64_t context = scaled && r.originalMaxLen ? *r.originalMaxLen : m_c.plan.maxPositions;
    layer.values = {
        {u"head_dim"_s, r.headDim},
        {u"rope_theta"_s, r.theta},
        {u"partial_rotary_factor"_s, r.partialRotaryFactor},
        {u"rope_layout"_s, r.layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s},
        {u"factor"_s, optionalNum(r.factor)},
        {u"original_max_position_embeddings"_s, scaled ? optionalInt(r.originalMaxLen) : ConfigValue()},
        {u"max_position_embeddings"_s, m_c.plan.maxPositions},
        {u"frequencies_context"_s, context},
    };
}

// Mistral 3's query scaling (Ministral3Attention.forward, get_llama_4_attn_scale): every layer's
// queries times 1 + beta ln(1 + floor(p / L0)), beta the rope dict's llama_4_scaling_beta and L0
// its original_max_position_embeddings. Without beta the multiplication fails (beta is None).
void RopeConfigReader::readQueryScale(ConfigLayer &layer, const ConfigObject *d)
{
    if (m_row.qscale.value(u"kind"_s).toString() != u"beta"_s)
        return;
    const RopeParams &r = layer.params.rope;
    const QString key = m_row.qscale.value(u"key"_s).toString();
    const auto beta = d ? d->number(key, -ConfigBounds::kInf, ConfigBounds::kInf) : std::nullopt;
    if (!beta) {
        if (r.type == RopeType::Yarn)
            m_c.find(u"query-scale-key-missing"_s,
                     u"%1 is absent: HF's %2 multiplies each query by 1 + beta ln(1 + floor(p / L0)) with beta None "
                     "(TypeError)"_s.arg(d ? d->pathOf(key) : m_c.text.pathOf(key), m_row.configClass),
                     m_where);
        return;
    }
    const std::int64_t length = r.originalMaxLen.value_or(m_c.plan.maxPositions);
    layer.scheme.query = QueryScale {QueryScale::Kind::Beta, *beta, std::max<std::int64_t>(length, 1)};
}

} // namespace posenc
