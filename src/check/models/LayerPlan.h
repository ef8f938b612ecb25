#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// The layers of a model as its code builds them from a config (docs/ARCHITECTURE.md, Model
// knowledge): the interpreter of a model row's rules (ModelTable) for the head, the layer types,
// the layers without RoPE, the windows and chunks. The families' config readers read their keys
// per group of layers that place position alike.
namespace posenc {

struct ConfigContext;

// Layers that place position alike: one layer type, turning or not.
struct LayerGroup
{
    QString name; // the layer type, or "<type>:nope" for the NoPE layers of a type whose others turn
    QString type; // the layer type as HF names it: "full_attention", "sliding_attention", ...
    QString mixer; // "attention", or the model's mixer: "linear", "ssm", "conv", "mlp"
    bool rope = false;
    std::vector<std::int64_t> layers;
};

struct LayerPlan
{
    std::int64_t hidden = 0;
    std::int64_t heads = 0;
    std::int64_t headDim = 0; // the rotary head: head_dim, hidden / heads, or MLA's qk_rope_head_dim
    std::int64_t maxPositions = 0;
    std::int64_t layerCount = 0;
    std::optional<std::int64_t> slidingWindow; // the window key's value (the class's default if absent)
    QStringList types; // one per layer
    std::vector<bool> ropeOn; // one per layer: false for NoPE and for mixers that are not attention
    QList<LayerGroup> groups; // in the order of their first layer

    // The head dim of a layer type (Gemma 4's full layers: global_head_dim).
    std::int64_t headDimOf(const QString &type) const;
    std::vector<std::pair<QString, std::int64_t>> typeHeadDims;
};

namespace LayerPlans {

// Reads the model's shape, layer types and NoPE layers from the config, by its row's rules,
// reporting what HF's class would refuse (a layer list of the wrong length, a pattern it cannot
// compute) as findings.
LayerPlan plan(ConfigContext &context);
// The mixer of a layer type ("attention", or the row's mixer for linear_attention, "mlp").
QString mixerOf(const QString &type, const QString &rowMixer);

} // namespace LayerPlans

} // namespace posenc
