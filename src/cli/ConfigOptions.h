#pragma once

#include "ParamOptions.h"

#include "check/ModelConfigCheck.h"

#include <QCommandLineParser>

#include <variant>

// --config FILE [--layer-type T]: a model config's layer type as the parameters, as a preset
// gives them (docs/ARCHITECTURE.md, Command line), for the window, export, table and describe.
namespace posenc::ConfigOptions {

inline constexpr char16_t kKey[] = u"config";
inline constexpr char16_t kLayerKey[] = u"layer-type";

// --config FILE and --layer-type TYPE, which ParamOptions lists after --preset.
QList<CommandOption> options();

// The config --config names, read and checked, and its layer type chosen: --layer-type's, else
// the one the window opens (the rotary full_attention layers, or the first that places position).
struct Chosen
{
    QString source; // as given: a path, or an example's name
    QString name; // the model as the file names it ("_model"), or the file's name
    ConfigCheck check;
    QString layerType;
    ParamOptions::Given texts; // the layer's parameters as a preset gives them, its input dropout and scale too
    // The model's code applies no dropout to its first layer's input (ConfigDropout), as a
    // preset's "input-dropout": "none" says.
    bool noInputDropout = false;
    // The model's code multiplies its embeddings by nothing (ConfigScale), as a preset's
    // "embedding-scale": "none" says; texts' "scale" is then 1.
    bool noEmbeddingScale = false;
    // The config is an encoder's and a decoder's (is_encoder_decoder), as a preset's "stacks" says;
    // texts' "attention" says which the layer is.
    bool encoderDecoder = false;
};

// Nothing without --config; else the layer chosen, or the refusal (exit 2 or 3, the message naming
// --config or --layer-type).
std::variant<std::monostate, Chosen, ParamOptions::Result> read(const QCommandLineParser &parser);

// The config `source` names (a path, or an example's name) and its layer type `wanted` (empty for
// the default), or the refusal: what read() does with --config's value.
std::variant<Chosen, ParamOptions::Result> choose(const QString &source, const QString &wanted);

// Whether `path` is a model config's file rather than a session's: JSON holding a model_type or
// a family's keys, not "format": "posenc-session" (posenc FILE.json).
bool isModelConfig(const QString &path);

// The layer type `wanted` of `check`, or the one opened without a choice; null when none fits.
const ConfigLayer *layerOf(const ConfigCheck &check, const QString &wanted);

} // namespace posenc::ConfigOptions
