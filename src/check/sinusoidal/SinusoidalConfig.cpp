// The sinusoid's config reader: Whisper's encoder adds sinusoids(max_source_positions, d_model)
// (modeling_whisper.py), its decoder a learned table of max_target_positions rows.
#include "SinusoidalConfig.h"

#include "check/learned/LearnedConfig.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> SinusoidalConfig::layers(ConfigContext &c)
{
    const std::int64_t hidden = c.integerOr({u"d_model"_s}, 1, ConfigBounds::kMaxCount, 384, false);
    const std::int64_t source = c.integerOr({u"max_source_positions"_s}, 1, ConfigBounds::kMaxCount, 1500, true);
    const std::int64_t target = c.integerOr({u"max_target_positions"_s}, 1, ConfigBounds::kMaxCount, 448, true);
    const std::int64_t encoderLayers = c.integerOr({u"encoder_layers"_s}, 1, ConfigBounds::kMaxLayers, 4, false);
    const std::int64_t decoderLayers = c.integerOr({u"decoder_layers"_s}, 1, ConfigBounds::kMaxLayers, 4, false);
    ConfigLayer encoder;
    encoder.layerType = u"encoder"_s;
    encoder.layers = layerRange(encoderLayers);
    encoder.params = configParams(hidden, source);
    encoder.params.encoding = Encoding::Sinusoidal;
    encoder.params.sinusoidal.base = 10000.0;
    encoder.params.sinusoidal.layout = Layout::Split;
    encoder.params.sinusoidal.freqShift = 1.0; // log(10000) / (channels // 2 - 1)
    // sinusoids forms the frequencies, the angles and the sines in torch's default float32.
    encoder.params.sinusoidal.angles = Angles::Float32;
    encoder.values = {{u"positions"_s, source},
                      {u"hidden_size"_s, hidden},
                      {u"layout"_s, u"split"_s},
                      {u"frequencies"_s, u"half-dim-minus-one"_s},
                      {u"base"_s, 10000.0}};
    c.find(u"half-dim-minus-one"_s,
           u"Whisper's encoder adds sinusoids(%1, %2): sines then cosines (split), w_i = 10000^(-i / (%3 - 1)), "
           "the half_dim - 1 denominator, not the paper's 2i/d"_s.arg(source)
               .arg(hidden)
               .arg(hidden / 2),
           u"encoder"_s);
    return {encoder, LearnedConfig::tableLayer(u"decoder"_s, hidden, target, 0, decoderLayers)};
}

QList<ConfigFindings::Kind> SinusoidalConfig::findings()
{
    return {
        {u"half-dim-minus-one"_s, Severity::Note,
         u"a sinusoid whose exponent divides by half_dim - 1 (Whisper, fairseq, tensor2tensor)"_s},
    };
}

} // namespace posenc
