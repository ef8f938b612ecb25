#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

// What a model's config.json says of the dropout its reference code applies to the input of its
// first layer (docs/ARCHITECTURE.md, Lessons), by its model_type: the key that code reads, whose
// meaning is the model's (BLOOM's hidden_dropout drops inside each block, Phi-3's embd_pdrop is read
// by no module) and its value (the configuration class's default where the config omits it), or that
// the code has no such dropout. A model_type not known here says nothing.
namespace posenc::ConfigDropout {

struct Read
{
    QString key; // the config key the code drops the input with ("embd_pdrop"); empty: none read
    std::optional<double> p; // its value: the config's, else its configuration class's default
    bool byDefault = false; // the config does not give the key: p is the class's default
    bool none = false; // the code applies no dropout to its first layer's input
};

// `config` as read (its text_config's keys first where the text model's keys sit there).
Read of(const QString &modelType, const QJsonObject &config, const QString &textConfig = {});

} // namespace posenc::ConfigDropout
