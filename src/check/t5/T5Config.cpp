// T5's config reader, as HF transformers' T5Attention reads the config: the bias in the first
// layer of each stack (has_relative_attention_bias), shared by the later layers.
#include "T5Config.h"

#include "core/t5/T5Buckets.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> T5Config::layers(ConfigContext &c)
{
    const ConfigObject &t = c.text;
    const std::int64_t heads = c.integerOr({u"num_heads"_s}, 1, 1 << 16, 8, false);
    const std::int64_t hidden = c.integerOr({u"d_model"_s}, 1, ConfigBounds::kMaxCount, 512, false);
    const std::int64_t encoderLayers = c.integerOr({u"num_layers"_s}, 1, ConfigBounds::kMaxLayers, 6, false);
    const std::int64_t decoderLayers
        = c.integerOr({u"num_decoder_layers"_s}, 1, ConfigBounds::kMaxLayers, encoderLayers, false);
    const std::int64_t buckets = c.integerOr({u"relative_attention_num_buckets"_s}, 1, T5Params::kMaxBuckets, 32, true);
    const std::int64_t maxDistance
        = c.integerOr({u"relative_attention_max_distance"_s}, 1, ConfigBounds::kMaxCount, 128, true);
    const std::int64_t positions = t.integer(u"n_positions"_s, 1, ConfigBounds::kMaxCount).value_or(512);
    QList<ConfigLayer> out;
    for (const bool decoder : {false, true}) {
        // _relative_position_bucket: a bidirectional half has buckets / 2, of which max_exact are
        // exact distances; the logarithmic rest needs max_distance above max_exact.
        const std::int64_t side = T5Buckets::sideBuckets(buckets, !decoder);
        const std::int64_t maxExact = side / 2;
        if ((!decoder && buckets % 2 != 0) || buckets < 2 || maxDistance <= maxExact) {
            t.problem(u"relative_attention_max_distance"_s,
                      u"above max_exact = %1 with an even relative_attention_num_buckets >= 2"_s.arg(maxExact),
                      u"%1 with %2 buckets"_s.arg(maxDistance).arg(buckets));
            return out;
        }
        ConfigLayer layer;
        layer.layerType = decoder ? u"decoder"_s : u"encoder"_s;
        layer.layers = layerRange(decoder ? decoderLayers : encoderLayers);
        layer.params = configParams(hidden, positions);
        layer.params.encoding = Encoding::T5;
        layer.params.t5 = T5Params {buckets, maxDistance, decoder};
        // The buckets, max_exact and the rest are posenc describe's keys.
        layer.values = {{u"heads"_s, heads}, {u"bias_layer"_s, std::int64_t(0)}};
        settleLayer(c, layer,
                    {{u"t5-buckets"_s, t.pathOf(u"relative_attention_num_buckets"_s)},
                     {u"t5-max-distance"_s, t.pathOf(u"relative_attention_max_distance"_s)},
                     {u"max-len"_s, t.pathOf(u"n_positions"_s)}});
        out.append(layer);
    }
    return out;
}

QList<ConfigFindings::Kind> T5Config::findings()
{
    return {};
}

} // namespace posenc
