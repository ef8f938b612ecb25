// DeBERTa-v2's config reader, as HF transformers' DebertaV2Encoder reads the config
// (build_relative_position, make_log_bucket_position), and its absolute table when
// position_biased_input.
#include "DebertaConfig.h"

#include "check/learned/LearnedConfig.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> DebertaConfig::layers(ConfigContext &c)
{
    const ConfigObject &t = c.text;
    const std::int64_t heads = c.integerOr({u"num_attention_heads"_s}, 1, 1 << 16, 12, false);
    const std::int64_t hidden = c.integerOr({u"hidden_size"_s}, 1, ConfigBounds::kMaxCount, 768, false);
    const std::int64_t layers = c.integerOr({u"num_hidden_layers"_s}, 1, ConfigBounds::kMaxLayers, 12, false);
    const std::int64_t maxPositions
        = c.integerOr({u"max_position_embeddings"_s}, 1, ConfigBounds::kMaxCount, 512, true);
    QList<ConfigLayer> out;
    const bool biased = t.boolean(u"position_biased_input"_s).value_or(true);
    if (!t.has(u"position_biased_input"_s))
        c.implicitDefault(u"position_biased_input"_s, u"true (an absolute table added to the input)"_s);
    if (biased)
        out.append(LearnedConfig::tableLayer(u"input"_s, hidden, maxPositions, 0, layers));
    if (!t.has(u"relative_attention"_s))
        c.implicitDefault(u"relative_attention"_s, u"false: no relative positions at all"_s);
    if (!t.boolean(u"relative_attention"_s).value_or(false))
        return out;
    if (biased)
        c.find(u"position-biased-input"_s,
               u"position_biased_input is true: an absolute table of %1 rows enters the input besides the "
               "relative buckets (DeBERTa-v3 sets it false)"_s.arg(maxPositions));
    std::int64_t span
        = t.integer(u"max_relative_positions"_s, -ConfigBounds::kMaxCount, ConfigBounds::kMaxCount).value_or(-1);
    if (span < 1)
        span = maxPositions; // DebertaV2Encoder: max_relative_positions < 1 means max_position_embeddings
    const std::int64_t buckets
        = t.integer(u"position_buckets"_s, -ConfigBounds::kMaxCount, DebertaParams::kMaxBuckets).value_or(-1);
    // pos_att_type: a list, or the older "p2c|c2p".
    const QString types = t.json().value(u"pos_att_type"_s).isArray()
        ? t.strings(u"pos_att_type"_s, 8).value_or(QStringList()).join(u'|')
        : t.string(u"pos_att_type"_s).value_or(QString());
    if (buckets > 0 && span - 1 <= buckets / 2) {
        t.problem(u"position_buckets"_s, u"at most 2 (max_relative_positions - 1) = %1"_s.arg(2 * (span - 1)),
                  QString::number(buckets));
        return out;
    }
    ConfigLayer layer;
    layer.layerType = u"attention"_s;
    layer.layers = layerRange(layers);
    layer.params = configParams(hidden, maxPositions);
    layer.params.encoding = Encoding::Deberta;
    layer.params.deberta = DebertaParams {buckets > 0 ? buckets : 0, span};
    layer.values = {{u"heads"_s, heads},
                    {u"position_buckets"_s, buckets > 0 ? ConfigValue(buckets) : ConfigValue()},
                    {u"max_relative_positions"_s, span},
                    {u"attention_span"_s, buckets > 0 ? buckets : span},
                    {u"pos_att_type"_s, types},
                    {u"max_position_embeddings"_s, maxPositions}};
    if (buckets > 0)
        settleLayer(c, layer,
                    {{u"deberta-buckets"_s, t.pathOf(u"position_buckets"_s)},
                     {u"deberta-max-position"_s, t.pathOf(u"max_relative_positions"_s)}});
    out.append(layer);
    return out;
}

// A table of `rows` rows whose row `first` holds position 0.

QList<ConfigFindings::Kind> DebertaConfig::findings()
{
    return {
        {u"position-biased-input"_s, Severity::Note,
         u"DeBERTa adds an absolute table to its input besides its relative buckets"_s},
    };
}

} // namespace posenc
