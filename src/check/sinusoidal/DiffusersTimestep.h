#pragma once

#include "check/ConfigValues.h"
#include "core/Params.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <variant>

// The timestep embedding of a diffusers model config (docs/ARCHITECTURE.md, Checking a table): the
// class its `_class_name` names builds a Timesteps(num_channels, flip_sin_to_cos,
// downscale_freq_shift, scale) or calls get_timestep_embedding (huggingface/diffusers
// src/diffusers/models/embeddings.py), each class with its channels, order, shift and scale from
// its config's keys or fixed by its code. One row a class, each citing its file and function.
namespace posenc::DiffusersTimestep {

// Whether the config is diffusers' rather than transformers': a `_class_name` and no model_type.
bool isConfig(const QJsonObject &config);

struct Embedding
{
    Params params; // the sinusoid's: split, flip, shift, scale, max_period as base, d the channels
    QString className;
    QString code; // "src/diffusers/models/unets/unet_2d_condition.py, UNet2DConditionModel._set_time_proj"
};

// The class's timestep embedding, or why there is none, as the problem of a key (posenc check
// --config prints it as a transformers config's): a class no row names, a key of the wrong type or
// out of range, a Fourier or learned time embedding, an odd channel count.
std::variant<Embedding, ConfigProblem> read(const QJsonObject &config);
// The classes the rows name, in their order.
QStringList classes();

} // namespace posenc::DiffusersTimestep
