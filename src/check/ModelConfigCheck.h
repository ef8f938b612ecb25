#pragma once

#include "ConfigFindings.h"
#include "ConfigValues.h"

#include "check/models/QueryScale.h"
#include "core/Params.h"

#include <QHash>
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

// What a layer type's attention does with position besides its family's parameters, as the
// model's own code does it (docs/ARCHITECTURE.md, Model knowledge).
struct LayerScheme
{
    // "rope", "none" (attention without position), a family's word ("alibi", "t5", ...), or a
    // mixer that is not attention: "linear" (Gated DeltaNet, Lightning, KDA), "ssm" (Mamba),
    // "conv" (a short convolution), "mlp" (no mixing at all).
    QString encoding;
    // Where a head's rotating columns are: "prefix" (the first rotary_dim, the rest pass),
    // "proportional" (pairs at the head's own exponent, a tail at frequency 0), "mla-tail" (the
    // last qk_rope_head_dim of a head, the key's part shared by every head); empty without RoPE.
    QString rotaryPlace;
    std::int64_t headDim = 0; // the width q·k is taken over (MLA: qk_nope + qk_rope); 0 without attention
    std::optional<std::int64_t> window; // how far back a query sees, itself included
    bool windowBothSides = false; // a bidirectional window: `window` each side
    std::optional<std::int64_t> chunk; // chunked attention: a query sees its chunk only
    QueryScale query; // what multiplies the queries by position
    std::optional<double> softmaxScale; // what multiplies q·k; unset without attention
    QString softmaxWords; // how the model's code writes it: "head_dim^-0.5"
    double mscaleFactor = 1.0; // yarn's get_mscale(factor, mscale_all_dim)^2 where the model applies it
    bool softmaxTakesMscale = false; // whether its attention applies that factor (DeepSeek's MLA)
    QString softmaxCite; // where its code applies that factor, where implementations differ
    // The indexer of DeepSeek's sparse attention: its head, the columns it rotates, its layout.
    std::int64_t indexerHeadDim = 0;
    std::int64_t indexerRotaryDim = 0;
    QString indexerLayout;
};

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
    LayerScheme scheme;
    // The config keys its family read its parameters from, by parameter ("rope-theta" ->
    // "text_config.rope_theta"), as its reader found them.
    QHash<QString, QString> readFrom;
    // Where each number it prints comes from, by its key ("rope_theta", "rotary_dim", ...), in
    // order: "key <path>", "default <class's default>", "code <file> (<what>)", or "guess <why>"
    // where the model_type is not in posenc's table (ConfigSources).
    QList<std::pair<QString, QString>> sources;
};

struct ConfigCheck
{
    QString modelType; // as the config gives it, or as recognised from its keys
    // The model table's row it was read with (ModelTable): its config class, modeling file and
    // functions, and how the row was read: "hand", "port", "fingerprint", or "guess" for a model
    // type the table lacks, whose layers are then a guess.
    QString modelClass;
    QString modelFile;
    QString modelCite;
    QString basis;
    QString textConfig; // "text_config" when the text model's keys sit there, else empty
    QList<ConfigLayer> layers;
    QList<ConfigFinding> findings; // in the order found, each naming its layer type or none
    // Values no model could mean (a string where a number goes, a negative theta): while there
    // is one, the layers are not described.
    QList<ConfigProblem> problems;
    // A model_type the table lacks whose keys name no position scheme: no layers are read, and
    // the encoding is for the user to give (--encoding, --position-table).
    bool schemeUnknown = false;

    bool hasError() const; // an error finding
    const ConfigLayer *layer(const QString &layerType) const;
    // Why a layer type is not described: its first error finding, "id: message"; empty if none.
    QString firstError(const QString &layerType) const;
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
