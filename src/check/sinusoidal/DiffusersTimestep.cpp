#include "DiffusersTimestep.h"

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

// A whole number in [1, 2^20] at `key`, the class's default where the key is absent.
std::variant<std::int64_t, QString> count(const QJsonValue &value, const QString &key, std::int64_t fallback)
{
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isDouble())
        return u"%1 must be an integer in [1, %2]"_s.arg(key).arg(Params::kMaxDModel);
    const double v = value.toDouble();
    if (!std::isfinite(v) || v != std::floor(v) || v < 1.0 || v > double(Params::kMaxDModel))
        return u"%1 must be an integer in [1, %2]"_s.arg(key).arg(Params::kMaxDModel);
    return static_cast<std::int64_t>(v);
}

std::variant<std::int64_t, QString> channelsOf(const Row &row, const QJsonObject &config)
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
        std::variant<std::int64_t, QString> first = row.channelDefault;
        if (!list.isUndefined() && !list.isNull()) {
            if (!list.isArray() || list.toArray().isEmpty())
                return u"%1 must be a list of channel counts"_s.arg(key);
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
        if (const auto *error = std::get_if<QString>(&a))
            return *error;
        if (const auto *error = std::get_if<QString>(&b))
            return *error;
        return std::get<std::int64_t>(a) * std::get<std::int64_t>(b);
    }
    }
    return row.channelDefault;
}

// A finite number at `key`, the fallback where it is absent.
std::variant<double, QString> number(const QJsonObject &config, const QString &key, double fallback)
{
    const QJsonValue value = config.value(key);
    if (key.isEmpty() || value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isDouble() || !std::isfinite(value.toDouble()))
        return u"%1 must be a finite number"_s.arg(key);
    return value.toDouble();
}

} // namespace

bool isConfig(const QJsonObject &config)
{
    return config.value(u"_class_name"_s).isString() && !config.contains(u"model_type"_s);
}

std::variant<Embedding, QString> read(const QJsonObject &config)
{
    const QString className = config.value(u"_class_name"_s).toString();
    const Row *row = rowOf(className);
    if (!row)
        return u"_class_name %1 is no diffusers class whose timestep embedding posenc knows (%2)"_s.arg(
            className, classes().join(u", "_s));
    const QString type = config.value(u"time_embedding_type"_s).toString(u"positional"_s);
    if (type != u"positional"_s)
        return u"time_embedding_type %1 of %2 is no sinusoid (diffusers' Timesteps is 'positional')"_s.arg(type,
                                                                                                           className);
    const auto channels = channelsOf(*row, config);
    if (const auto *error = std::get_if<QString>(&channels))
        return *error;
    const std::int64_t d = std::get<std::int64_t>(channels);
    if (d < 4 || d % 2 != 0)
        return u"%1's timestep embedding has %2 channels: diffusers pads an odd count with a zero column, and "
               "fewer than 4 show no frequency"_s.arg(className)
                   .arg(d);
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
            return u"flip_sin_to_cos must be true or false"_s;
        p.sinusoidal.flipSinToCos = config.value(u"flip_sin_to_cos"_s).toBool();
    }
    const auto shift = number(config, row->shiftFromKey ? u"freq_shift"_s : QString(), row->shift);
    const auto scale = number(config, QLatin1String(row->scaleKey), row->scale);
    const auto period = number(config, QLatin1String(row->periodKey), 10000.0);
    for (const auto *value : {&shift, &scale, &period}) {
        if (const auto *error = std::get_if<QString>(value))
            return *error;
    }
    p.sinusoidal.freqShift = std::get<double>(shift);
    p.sinusoidal.timestepScale = std::get<double>(scale);
    p.sinusoidal.base = std::get<double>(period);
    if (!(p.sinusoidal.base > 1.0))
        return u"time_max_period must be greater than 1"_s;
    if (!(p.sinusoidal.timestepScale > 0.0))
        return u"time_factor must be greater than 0"_s;
    const double base = p.sinusoidal.frequencyBase(d);
    if (2.0 * p.sinusoidal.freqShift >= double(d) || !std::isfinite(base) || !(base > 1.0))
        return u"freq_shift must be below half the %1 channels"_s.arg(d);
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
