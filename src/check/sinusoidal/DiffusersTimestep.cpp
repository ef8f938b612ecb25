#include "DiffusersTimestep.h"

#include "check/ConfigValues.h"
#include "core/NumberText.h"

#include <QJsonArray>

#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::DiffusersTimestep {

namespace {

// Where a class takes its channel count: a key, the first of a list key (block_out_channels[0]),
// that halved (Kandinsky 3's init_channels), the product of two keys (CogVideoX's inner_dim), or
// a number its code fixes.
enum class Channels { Key, FirstOf, HalfFirstOf, Product, Fixed };

struct Row
{
    const char *className;
    const char *code;
    Channels channels;
    const char *key; // the channels' key (the product's first)
    const char *otherKey; // the product's second
    std::int64_t channelDefault; // the class's default of the key, or the fixed count
    std::int64_t otherDefault;
    bool flip; // the class's default, or the fixed value
    bool flipFromKey; // flip_sin_to_cos read from the config
    double shift;
    bool shiftFromKey; // freq_shift read from the config
    double scale; // the class's default, or the fixed value
    const char *scaleKey; // empty: fixed
    const char *periodKey; // max_period's key, empty: 10000
};

// Read from huggingface/diffusers main (58eb52c0), src/diffusers/models/.
const Row kRows[] = {
    {"UNet2DConditionModel",
     "unets/unet_2d_condition.py, UNet2DConditionModel._set_time_proj (Stable Diffusion 1-2, SDXL)", Channels::FirstOf,
     "block_out_channels", "", 320, 0, true, true, 0.0, true, 1.0, "", ""},
    {"UNet2DModel", "unets/unet_2d.py, UNet2DModel.__init__ (DDPM)", Channels::FirstOf, "block_out_channels", "", 224,
     0, true, true, 0.0, true, 1.0, "", ""},
    {"ControlNetModel", "controlnets/controlnet.py, ControlNetModel.__init__", Channels::FirstOf, "block_out_channels",
     "", 320, 0, true, true, 0.0, true, 1.0, "", ""},
    {"UNet3DConditionModel", "unets/unet_3d_condition.py, UNet3DConditionModel.__init__", Channels::FirstOf,
     "block_out_channels", "", 320, 0, true, false, 0.0, false, 1.0, "", ""},
    {"UNetSpatioTemporalConditionModel",
     "unets/unet_spatio_temporal_condition.py, UNetSpatioTemporalConditionModel.__init__ (Stable Video Diffusion)",
     Channels::FirstOf, "block_out_channels", "", 320, 0, true, false, 0.0, false, 1.0, "", ""},
    {"I2VGenXLUNet", "unets/unet_i2vgen_xl.py, I2VGenXLUNet.__init__", Channels::FirstOf, "block_out_channels", "", 320,
     0, true, false, 0.0, false, 1.0, "", ""},
    {"UNetMotionModel", "unets/unet_motion_model.py, UNetMotionModel.__init__ (AnimateDiff)", Channels::FirstOf,
     "block_out_channels", "", 320, 0, true, false, 0.0, false, 1.0, "", ""},
    {"Kandinsky3UNet", "unets/unet_kandinsky3.py, Kandinsky3UNet.__init__ (init_channels = block_out_channels[0] // 2)",
     Channels::HalfFirstOf, "block_out_channels", "", 384, 0, false, false, 1.0, false, 1.0, "", ""},
    {"CogVideoXTransformer3DModel", "transformers/cogvideox_transformer_3d.py, CogVideoXTransformer3DModel.__init__",
     Channels::Product, "num_attention_heads", "attention_head_dim", 30, 64, true, true, 0.0, true, 1.0, "", ""},
    {"WanTransformer3DModel", "transformers/transformer_wan.py, WanTimeTextImageEmbedding.__init__", Channels::Key,
     "freq_dim", "", 256, 0, true, false, 0.0, false, 1.0, "", ""},
    {"FluxTransformer2DModel",
     "embeddings.py, CombinedTimestepTextProjEmbeddings and CombinedTimestepGuidanceTextProjEmbeddings.__init__",
     Channels::Fixed, "", "", 256, 0, true, false, 0.0, false, 1.0, "", ""},
    {"SD3Transformer2DModel", "embeddings.py, CombinedTimestepTextProjEmbeddings.__init__ (Stable Diffusion 3)",
     Channels::Fixed, "", "", 256, 0, true, false, 0.0, false, 1.0, "", ""},
    {"DiTTransformer2DModel", "embeddings.py, CombinedTimestepLabelEmbeddings.__init__ (DiT)", Channels::Fixed, "", "",
     256, 0, true, false, 1.0, false, 1.0, "", ""},
    {"PixArtTransformer2DModel", "embeddings.py, PixArtAlphaCombinedTimestepSizeEmbeddings.__init__", Channels::Fixed,
     "", "", 256, 0, true, false, 0.0, false, 1.0, "", ""},
    {"HunyuanVideoTransformer3DModel", "transformers/transformer_hunyuan_video.py, CombinedTimestepTextProjEmbeddings",
     Channels::Fixed, "", "", 256, 0, true, false, 0.0, false, 1.0, "", ""},
    {"SanaTransformer2DModel", "transformers/sana_transformer.py, SanaTransformer2DModel.__init__", Channels::Fixed, "",
     "", 256, 0, true, false, 0.0, false, 1.0, "", ""},
    {"AuraFlowTransformer2DModel", "transformers/auraflow_transformer_2d.py, AuraFlowTransformer2DModel.__init__",
     Channels::Fixed, "", "", 256, 0, true, false, 0.0, false, 1000.0, "", ""},
    {"QwenImageTransformer2DModel", "transformers/transformer_qwenimage.py, QwenTimestepProjEmbeddings.__init__",
     Channels::Fixed, "", "", 256, 0, true, false, 0.0, false, 1000.0, "", ""},
    {"PRXTransformer2DModel", "transformers/transformer_prx.py, PRXTransformer2DModel._compute_timestep_embedding",
     Channels::Fixed, "", "", 256, 0, true, false, 0.0, false, 1000.0, "time_factor", "time_max_period"},
};

const Row *rowOf(const QString &className)
{
    for (const Row &row : kRows) {
        if (className == QLatin1String(row.className))
            return &row;
    }
    return nullptr;
}

// A problem of `key`: what it must be, and what it is as JSON writes it.
ConfigProblem problemOf(const QString &key, const QString &allowed, const QJsonValue &got)
{
    return ConfigProblem {key, allowed, ConfigObject::jsonText(got)};
}

// A whole number in [1, 2^20] at `key`, the class's default where the key is absent.
std::variant<std::int64_t, ConfigProblem> count(const QJsonValue &value, const QString &key, std::int64_t fallback)
{
    if (value.isUndefined() || value.isNull())
        return fallback;
    const QString allowed = u"an integer in [1, %1]"_s.arg(Params::kMaxDModel);
    if (!value.isDouble())
        return problemOf(key, allowed, value);
    const double v = value.toDouble();
    if (!std::isfinite(v) || v != std::floor(v) || v < 1.0 || v > double(Params::kMaxDModel))
        return problemOf(key, allowed, value);
    return static_cast<std::int64_t>(v);
}

std::variant<std::int64_t, ConfigProblem> channelsOf(const Row &row, const QJsonObject &config)
{
    const QString key = QLatin1String(row.key);
    switch (row.channels) {
    case Channels::Fixed:
        return row.channelDefault;
    case Channels::Key:
        return count(config.value(key), key, row.channelDefault);
    case Channels::FirstOf:
    case Channels::HalfFirstOf: {
        const QJsonValue list = config.value(key);
        std::variant<std::int64_t, ConfigProblem> first = row.channelDefault;
        if (!list.isUndefined() && !list.isNull()) {
            if (!list.isArray() || list.toArray().isEmpty())
                return problemOf(key, u"a list of channel counts"_s, list);
            first = count(list.toArray().first(), key + u"[0]"_s, row.channelDefault);
        }
        if (const auto *n = std::get_if<std::int64_t>(&first); n && row.channels == Channels::HalfFirstOf)
            return *n / 2;
        return first;
    }
    case Channels::Product: {
        const QString other = QLatin1String(row.otherKey);
        const auto a = count(config.value(key), key, row.channelDefault);
        const auto b = count(config.value(other), other, row.otherDefault);
        if (const auto *error = std::get_if<ConfigProblem>(&a))
            return *error;
        if (const auto *error = std::get_if<ConfigProblem>(&b))
            return *error;
        return std::get<std::int64_t>(a) * std::get<std::int64_t>(b);
    }
    }
    return row.channelDefault;
}

// A finite number at `key`, the fallback where it is absent.
std::variant<double, ConfigProblem> number(const QJsonObject &config, const QString &key, double fallback)
{
    const QJsonValue value = config.value(key);
    if (key.isEmpty() || value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isDouble() || !std::isfinite(value.toDouble()))
        return problemOf(key, u"a finite number"_s, value);
    return value.toDouble();
}

} // namespace

bool isConfig(const QJsonObject &config)
{
    return config.value(u"_class_name"_s).isString() && !config.contains(u"model_type"_s);
}

std::variant<Embedding, ConfigProblem> read(const QJsonObject &config)
{
    const QString className = config.value(u"_class_name"_s).toString();
    const Row *row = rowOf(className);
    if (!row)
        return problemOf(u"_class_name"_s,
                         u"a diffusers class whose timestep embedding posenc knows (%1)"_s.arg(classes().join(u", "_s)),
                         config.value(u"_class_name"_s));
    const QString type = config.value(u"time_embedding_type"_s).toString(u"positional"_s);
    if (type != u"positional"_s)
        return problemOf(u"time_embedding_type"_s,
                         u"\"positional\" for %1's sinusoid (diffusers' Timesteps; posenc reads no Fourier or "
                         "learned time embedding)"_s.arg(className),
                         config.value(u"time_embedding_type"_s));
    const auto channels = channelsOf(*row, config);
    if (const auto *error = std::get_if<ConfigProblem>(&channels))
        return *error;
    const std::int64_t d = std::get<std::int64_t>(channels);
    if (d < 4 || d % 2 != 0)
        return ConfigProblem {row->key[0] ? QString::fromLatin1(row->key) : u"_class_name"_s,
                              u"an even channel count of at least 4 for %1's timestep embedding (diffusers pads an "
                              "odd count with a zero column; fewer than 4 show no frequency)"_s.arg(className),
                              QString::number(d)};
    Embedding e;
    e.className = className;
    e.code = u"huggingface/diffusers src/diffusers/models/"_s + QLatin1String(row->code);
    Params &p = e.params;
    p.encoding = Encoding::Sinusoidal;
    p.dModel = d;
    p.sinusoidal.layout = Layout::Split;
    p.sinusoidal.flipSinToCos = row->flip;
    if (row->flipFromKey && config.contains(u"flip_sin_to_cos"_s)) {
        if (!config.value(u"flip_sin_to_cos"_s).isBool())
            return problemOf(u"flip_sin_to_cos"_s, u"true or false"_s, config.value(u"flip_sin_to_cos"_s));
        p.sinusoidal.flipSinToCos = config.value(u"flip_sin_to_cos"_s).toBool();
    }
    const auto shift = number(config, row->shiftFromKey ? u"freq_shift"_s : QString(), row->shift);
    const auto scale = number(config, QLatin1String(row->scaleKey), row->scale);
    const auto period = number(config, QLatin1String(row->periodKey), 10000.0);
    for (const auto *value : {&shift, &scale, &period}) {
        if (const auto *error = std::get_if<ConfigProblem>(value))
            return *error;
    }
    p.sinusoidal.freqShift = std::get<double>(shift);
    p.sinusoidal.timestepScale = std::get<double>(scale);
    p.sinusoidal.base = std::get<double>(period);
    if (!(p.sinusoidal.base > 1.0))
        return ConfigProblem {QLatin1String(row->periodKey), u"a number greater than 1"_s,
                              NumberText::exact(p.sinusoidal.base)};
    if (!(p.sinusoidal.timestepScale > 0.0))
        return ConfigProblem {QLatin1String(row->scaleKey), u"a number greater than 0"_s,
                              NumberText::exact(p.sinusoidal.timestepScale)};
    const double base = p.sinusoidal.frequencyBase(d);
    if (2.0 * p.sinusoidal.freqShift >= double(d) || !std::isfinite(base) || !(base > 1.0))
        return ConfigProblem {u"freq_shift"_s, u"a number below half the %1 channels"_s.arg(d),
                              NumberText::exact(p.sinusoidal.freqShift)};
    return e;
}

QStringList classes()
{
    QStringList names;
    for (const Row &row : kRows)
        names.append(QLatin1String(row.className));
    return names;
}

} // namespace posenc::DiffusersTimestep
