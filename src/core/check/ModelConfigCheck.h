#pragma once

#include "ConfigFindings.h"
#include "ConfigValues.h"

#include "core/Params.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

// What an HF model config makes the model compute for position, layer type by layer type, and
// what in it is wrong or easy to get wrong (docs/ARCHITECTURE.md, Checking a model config). The
// command line prints it (`posenc check --config`); the window can open a layer's Params.
namespace posenc {

// A number of the config in a layer's words: a word, a count, a number, a switch or a list.
using ConfigValue = std::variant<std::monostate, QString, std::int64_t, double, bool, std::vector<double>>;

// One kind of layer: the layers that place position alike.
struct ConfigLayer
{
    // HF's layer type ("full_attention", "sliding_attention", "chunked_attention"), or where a
    // scheme acts ("input" for a table added to the embeddings, "encoder", "decoder"); a type
    // whose NoPE layers differ from its others names them "<type>:nope".
    QString layerType;
    std::vector<std::int64_t> layers; // its layers' indices; empty where the config counts none
    // As a preset would give them: the encoding, its family's group, d_model and max_len (the
    // model's max_position_embeddings, within Params' range).
    Params params;
    // False when an error leaves nothing the model could compute (a missing required key, an odd
    // rotary dim); params is then what could be read.
    bool described = true;
    // What the config sets for these layers beyond what `posenc describe` derives, in order.
    QList<std::pair<QString, ConfigValue>> values;
};

struct ConfigCheck
{
    QString modelType; // as the config gives it, or as recognised from its keys
    QString textConfig; // "text_config" when the text model's keys sit there, else empty
    QList<ConfigLayer> layers;
    QList<ConfigFinding> findings; // in the order found, each naming its layer type or none
    // Values no model could mean (a string where a number goes, a negative theta): while there
    // is one, the layers are not described.
    QList<ConfigProblem> problems;

    bool hasError() const; // an error finding
    const ConfigLayer *layer(const QString &layerType) const;
    // The layer the window opens without a choice: the rotary full_attention layers, or the
    // first rotary layer type; null without RoPE.
    const ConfigLayer *openLayer() const;
};

namespace ModelConfig {

// The check of a config read as JSON (ModelConfigFile::read). Never throws: whatever the
// object holds is a layer, a finding or a problem.
ConfigCheck check(const QJsonObject &config);

} // namespace ModelConfig

} // namespace posenc
