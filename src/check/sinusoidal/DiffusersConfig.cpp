#include "DiffusersConfig.h"

#include "check/sinusoidal/DiffusersTimestep.h"
#include "core/FamilySpec.h"

using namespace Qt::StringLiterals;

namespace posenc::DiffusersConfig {

namespace {

// The timesteps a diffusers scheduler draws: 0 .. num_train_timesteps - 1, 1000 in every scheduler
// config of the pipelines the classes serve (DDPMScheduler's default; SD 1.5's, SDXL's). A flow
// model's sigmas in [0, 1] are scaled to the same range (FluxTransformer2DModel.forward: timestep *
// 1000) or by the class's scale.
constexpr std::int64_t kTimesteps = 1000;

// Where each number the layer prints comes from: its key where the config gives it, else the class's
// code (the default of its __init__ or the value it fixes).
QString sourceOf(const QJsonObject &config, const QString &key, const QString &code)
{
    return config.contains(key) ? u"key "_s + key : u"code "_s + code;
}

} // namespace

std::optional<ConfigCheck> check(const QJsonObject &config)
{
    if (!DiffusersTimestep::isConfig(config))
        return std::nullopt;
    ConfigCheck result;
    result.modelType = config.value(u"_class_name"_s).toString();
    result.modelClass = result.modelType;
    result.basis = u"hand"_s;
    const auto read = DiffusersTimestep::read(config);
    if (const auto *problem = std::get_if<ConfigProblem>(&read)) {
        result.problems.append(*problem);
        return result;
    }
    const DiffusersTimestep::Embedding &e = std::get<DiffusersTimestep::Embedding>(read);
    result.modelFile = e.code;
    result.modelCite = e.code;
    ConfigLayer layer;
    layer.layerType = u"timestep"_s;
    layer.params = e.params;
    layer.params.maxLen = kTimesteps;
    const SinusoidalParams &s = e.params.sinusoidal;
    layer.values = {{u"timesteps"_s, kTimesteps},           {u"channels"_s, e.params.dModel},
                    {u"flip_sin_to_cos"_s, s.flipSinToCos}, {u"downscale_freq_shift"_s, s.freqShift},
                    {u"scale"_s, s.timestepScale},          {u"max_period"_s, s.base}};
    layer.scheme.encoding = Families::word(Encoding::Sinusoidal);
    layer.sources = {{u"timesteps"_s, u"default %1 (the schedulers' num_train_timesteps)"_s.arg(kTimesteps)},
                     {u"flip_sin_to_cos"_s, sourceOf(config, u"flip_sin_to_cos"_s, e.code)},
                     {u"downscale_freq_shift"_s, sourceOf(config, u"freq_shift"_s, e.code)}};
    result.layers = {layer};
    return result;
}

} // namespace posenc::DiffusersConfig
