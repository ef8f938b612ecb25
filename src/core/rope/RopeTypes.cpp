#include "RopeTypes.h"

using namespace Qt::StringLiterals;

namespace posenc::RopeTypes {

namespace {

// HF transformers main, src/transformers/modeling_rope_utils.py: the required and optional keys of
// RotaryEmbeddingConfigMixin._validate_<type>_rope_parameters, and the types whose dicts
// standardize_rope_params gives original_max_position_embeddings ("llama3", "yarn", "longrope").
QList<TypeSpec> makeTable()
{
    return {
        {RopeType::Default,
         u"default"_s,
         {u"rope_type"_s},
         {u"rope_theta"_s},
         false,
         {},
         {},
         u"θ<sub>i</sub> = θ<sup>−2i/r</sup>"_s},
        {RopeType::Linear,
         u"linear"_s,
         {u"rope_type"_s, u"factor"_s},
         {u"rope_theta"_s},
         false,
         {u"rope-factor"_s},
         {u"rope-factor"_s},
         u"θ<sub>i</sub>/factor (position interpolation)"_s},
        // _compute_dynamic_ntk_parameters reads the original length from config.max_position_embeddings,
        // outside the dict: posenc holds it in original-max-len.
        {RopeType::Dynamic,
         u"dynamic"_s,
         {u"rope_type"_s, u"factor"_s},
         {u"rope_theta"_s},
         false,
         {u"rope-factor"_s, u"original-max-len"_s},
         {u"rope-factor"_s, u"original-max-len"_s},
         u"NTK, the base raised as max_len passes the original length"_s},
        {RopeType::Yarn,
         u"yarn"_s,
         {u"rope_type"_s, u"factor"_s, u"original_max_position_embeddings"_s},
         {u"rope_theta"_s, u"attention_factor"_s, u"beta_fast"_s, u"beta_slow"_s, u"mscale"_s, u"mscale_all_dim"_s,
          u"truncate"_s},
         true,
         {u"rope-factor"_s, u"original-max-len"_s, u"beta-fast"_s, u"beta-slow"_s, u"yarn-truncate"_s, u"mscale"_s,
          u"mscale-all-dim"_s, u"attention-factor"_s},
         {u"rope-factor"_s, u"original-max-len"_s},
         u"the slow pairs divided by the factor, the fast kept, a ramp between, and an attention factor"_s},
        {RopeType::LongRope,
         u"longrope"_s,
         {u"rope_type"_s, u"short_factor"_s, u"long_factor"_s, u"original_max_position_embeddings"_s},
         {u"rope_theta"_s, u"attention_factor"_s, u"factor"_s},
         true,
         {u"rope-factor"_s, u"original-max-len"_s, u"attention-factor"_s, u"short-factor"_s, u"long-factor"_s},
         {u"original-max-len"_s, u"short-factor"_s, u"long-factor"_s},
         u"each pair divided by its short or long factor"_s},
        {RopeType::Llama3,
         u"llama3"_s,
         {u"rope_type"_s, u"factor"_s, u"original_max_position_embeddings"_s, u"low_freq_factor"_s,
          u"high_freq_factor"_s, u"rope_theta"_s},
         {},
         true,
         {u"rope-factor"_s, u"original-max-len"_s, u"low-freq-factor"_s, u"high-freq-factor"_s},
         {u"rope-factor"_s, u"original-max-len"_s},
         u"pairs kept, blended or divided by their wavelength"_s},
        {RopeType::Proportional,
         u"proportional"_s,
         {u"rope_type"_s, u"rope_theta"_s},
         {},
         false,
         {u"rope-factor"_s},
         {},
         u"the first pairs of head_dim turn, the rest stay at 0"_s},
    };
}

// Whether any type reads `param` as a key of its scaling.
bool isScalingKey(const QString &param)
{
    for (const TypeSpec &t : all()) {
        if (t.reads.contains(param))
            return true;
    }
    return false;
}

} // namespace

const QList<TypeSpec> &all()
{
    static const QList<TypeSpec> table = makeTable();
    return table;
}

const TypeSpec &of(RopeType type)
{
    return all()[static_cast<qsizetype>(type)];
}

const QStringList &words()
{
    static const QStringList list = [] {
        QStringList w;
        for (const TypeSpec &t : all())
            w.append(t.word);
        return w;
    }();
    return list;
}

QString word(RopeType type)
{
    return words().value(static_cast<qsizetype>(type));
}

std::optional<RopeType> fromWord(const QString &word)
{
    const qsizetype i = words().indexOf(word);
    return i < 0 ? std::nullopt : std::optional<RopeType>(all()[i].type);
}

const QList<Key> &keys()
{
    static const QList<Key> list = {
        {u"rope_theta"_s, u"rope-theta"_s},
        {u"partial_rotary_factor"_s, u"partial-rotary-factor"_s},
        {u"rope_type"_s, u"rope-type"_s},
        {u"factor"_s, u"rope-factor"_s},
        {u"original_max_position_embeddings"_s, u"original-max-len"_s},
        {u"low_freq_factor"_s, u"low-freq-factor"_s},
        {u"high_freq_factor"_s, u"high-freq-factor"_s},
        {u"beta_fast"_s, u"beta-fast"_s},
        {u"beta_slow"_s, u"beta-slow"_s},
        {u"truncate"_s, u"yarn-truncate"_s},
        {u"mscale"_s, u"mscale"_s},
        {u"mscale_all_dim"_s, u"mscale-all-dim"_s},
        {u"attention_factor"_s, u"attention-factor"_s},
        {u"short_factor"_s, u"short-factor"_s},
        {u"long_factor"_s, u"long-factor"_s},
    };
    return list;
}

QString configKey(const QString &param)
{
    for (const Key &k : keys()) {
        if (k.param == param)
            return k.config;
    }
    return param;
}

bool reads(RopeType type, const QString &param)
{
    return of(type).reads.contains(param) || !isScalingKey(param);
}

QList<RopeType> readers(const QString &param)
{
    QList<RopeType> types;
    for (const TypeSpec &t : all()) {
        if (reads(t.type, param))
            types.append(t.type);
    }
    return types;
}

QList<RopeType> needers(const QString &param)
{
    QList<RopeType> types;
    for (const TypeSpec &t : all()) {
        if (t.needs.contains(param))
            types.append(t.type);
    }
    return types;
}

} // namespace posenc::RopeTypes
