#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

// What a model's config.json says of the factor its reference code multiplies the token embeddings
// by before the first layer, s in X = s·E (docs/ARCHITECTURE.md, Lessons), by its model_type: none
// (s = 1), or Gemma's normalizer √hidden_size cast to the weights' dtype, which the config names. A
// model_type not known here, or a Gemma config that names no dtype, says nothing: never a guess.
namespace posenc::ConfigScale {

struct Read
{
    std::optional<double> s; // the code's multiplier, where the config gives all it needs
    bool none = false; // the code multiplies the embeddings by nothing: s = 1
};

// `config` as read (its text_config's keys first where the text model's keys sit there).
Read of(const QString &modelType, const QJsonObject &config, const QString &textConfig = {});

// `value` as torch holds it in `dtype` after torch.tensor(value) (float32) and .to(dtype): rounded
// to nearest even at bfloat16's 8 or float16's 11 significant bits; none for a dtype not known here.
std::optional<double> inDtype(double value, const QString &dtype);

} // namespace posenc::ConfigScale
