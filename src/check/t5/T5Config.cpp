// T5's config reader, as HF transformers' T5Attention reads the config: the bias in the first
// layer of each stack (has_relative_attention_bias), shared by the later layers.
#include "T5Config.h"

#include "check/BucketConfig.h"
#include "core/t5/T5Buckets.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> T5Config::layers(ConfigContext &c)
{
    const ConfigObject &t = c.text;
    // n_positions is no key of T5Config's: 512 where it is absent, unsaid.
    const BucketConfig::Shape shape = BucketConfig::shape(c, {u"num_heads"_s, 8}, {u"d_model"_s, 512},
                                                          {u"num_layers"_s, 6}, {u"n_positions"_s, 512});
    const std::int64_t decoderLayers
        = c.integerOr({u"num_decoder_layers"_s}, 1, ConfigBounds::kMaxLayers, shape.layers, false);
    BucketConfig::Layer read;
    read.bucketsKey = u"relative_attention_num_buckets"_s;
    read.limitKey = u"relative_attention_max_distance"_s;
    read.buckets = c.integerOr({read.bucketsKey}, 1, T5Params::kMaxBuckets, 32, true);
    read.limit = c.integerOr({read.limitKey}, 1, ConfigBounds::kMaxCount, 128, true);
    QList<ConfigLayer> out;
    for (const bool decoder : {false, true}) {
        // _relative_position_bucket: a bidirectional half has buckets / 2, of which max_exact are
        // exact distances; the logarithmic rest needs max_distance above max_exact.
        const std::int64_t maxExact = T5Buckets::sideBuckets(read.buckets, !decoder) / 2;
        if ((!decoder && read.buckets % 2 != 0) || read.buckets < 2 || read.limit <= maxExact) {
            t.problem(read.limitKey,
                      u"above max_exact = %1 with an even relative_attention_num_buckets >= 2"_s.arg(maxExact),
                      u"%1 with %2 buckets"_s.arg(read.limit).arg(read.buckets));
            return out;
        }
        read.type = decoder ? u"decoder"_s : u"encoder"_s;
        read.layers = decoder ? decoderLayers : shape.layers;
        read.params.t5.causal = decoder;
        // The buckets, max_exact and the rest are posenc describe's keys.
        out.append(BucketConfig::layer(c, T5Buckets::bucketFamily(), shape, read, {{u"bias_layer"_s, std::int64_t(0)}},
                                       {{u"max-len"_s, t.pathOf(u"n_positions"_s)}}));
    }
    return out;
}

QList<ConfigFindings::Kind> T5Config::findings()
{
    return {};
}

} // namespace posenc
