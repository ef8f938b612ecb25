// DeBERTa-v2's config reader, as HF transformers' DebertaV2Encoder reads the config
// (build_relative_position, make_log_bucket_position), and its absolute table when
// position_biased_input.
#include "DebertaConfig.h"

#include "check/BucketConfig.h"
#include "check/learned/LearnedConfig.h"
#include "core/deberta/DebertaBuckets.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> DebertaConfig::layers(ConfigContext &c)
{
    const ConfigObject &t = c.text;
    const BucketConfig::Shape shape
        = BucketConfig::shape(c, {u"num_attention_heads"_s, 12}, {u"hidden_size"_s, 768}, {u"num_hidden_layers"_s, 12},
                              {u"max_position_embeddings"_s, 512, true});
    const std::int64_t maxPositions = shape.positions;
    QList<ConfigLayer> out;
    const bool biased = t.boolean(u"position_biased_input"_s).value_or(true);
    if (!t.has(u"position_biased_input"_s))
        c.implicitDefault(u"position_biased_input"_s, u"true (an absolute table added to the input)"_s);
    if (biased)
        out.append(LearnedConfig::tableLayer(u"input"_s, shape.hidden, maxPositions, 0, shape.layers));
    if (!t.has(u"relative_attention"_s))
        c.implicitDefault(u"relative_attention"_s, u"false: no relative positions at all"_s);
    if (!t.boolean(u"relative_attention"_s).value_or(false))
        return out;
    if (biased)
        c.find(u"position-biased-input"_s,
               u"position_biased_input is true: an absolute table of %1 rows enters the input besides the "
               "relative buckets (DeBERTa-v3 sets it false)"_s.arg(maxPositions));
    BucketConfig::Layer read;
    read.bucketsKey = u"position_buckets"_s;
    read.limitKey = u"max_relative_positions"_s;
    std::int64_t span = t.integer(read.limitKey, -ConfigBounds::kMaxCount, ConfigBounds::kMaxCount).value_or(-1);
    if (span < 1)
        span = maxPositions; // DebertaV2Encoder: max_relative_positions < 1 means max_position_embeddings
    const std::int64_t buckets
        = t.integer(read.bucketsKey, -ConfigBounds::kMaxCount, DebertaParams::kMaxBuckets).value_or(-1);
    // pos_att_type: a list, or the older "p2c|c2p".
    const QString types = t.json().value(u"pos_att_type"_s).isArray()
        ? t.strings(u"pos_att_type"_s, 8).value_or(QStringList()).join(u'|')
        : t.string(u"pos_att_type"_s).value_or(QString());
    if (buckets > 0 && span - 1 <= buckets / 2) {
        t.problem(read.bucketsKey, u"at most 2 (max_relative_positions - 1) = %1"_s.arg(2 * (span - 1)),
                  QString::number(buckets));
        return out;
    }
    read.type = u"attention"_s;
    read.layers = shape.layers;
    read.buckets = buckets > 0 ? buckets : 0;
    read.limit = span;
    // Without position_buckets the attention spans max_relative_positions: no buckets to settle.
    out.append(BucketConfig::layer(c, DebertaBuckets::bucketFamily(), shape, read,
                                   {{u"position_buckets"_s, buckets > 0 ? ConfigValue(buckets) : ConfigValue()},
                                    {u"max_relative_positions"_s, span},
                                    {u"attention_span"_s, buckets > 0 ? buckets : span},
                                    {u"pos_att_type"_s, types},
                                    {u"max_position_embeddings"_s, maxPositions}},
                                   {}, buckets > 0));
    return out;
}

QList<ConfigFindings::Kind> DebertaConfig::findings()
{
    return {
        {u"position-biased-input"_s, Severity::Note,
         u"DeBERTa adds an absolute table to its input besides its relative buckets"_s},
    };
}

} // namespace posenc
