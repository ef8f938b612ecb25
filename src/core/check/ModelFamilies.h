#pragma once

#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

// What HF transformers' config class of each model_type takes when a key is absent, and how its
// model places position (docs/ARCHITECTURE.md, Checking a model config). Each entry cites the
// class it follows: configuration_<model>.py in transformers' main branch.
namespace posenc::ModelFamilies {

enum class Scheme {
    Rope, // rotary, read through modeling_rope_utils.py
    Alibi, // bloom, mpt, falcon with alibi
    T5, // relative buckets in the first layer of each stack
    Deberta, // DeBERTa-v2's log buckets (and an absolute table when position_biased_input)
    Learned, // an absolute table added to the input (gpt2, bert, roberta, bart, opt)
    Whisper, // sinusoids in the encoder, a learned table in the decoder
};

// How the layers of a model split into layer types when the config lists none.
enum class LayerRule {
    AllFull, // every layer "full_attention"
    AllSliding, // every layer attends within sliding_window (Mistral)
    Gemma3, // sliding unless (i + 1) % sliding_window_pattern == 0
    Alternate, // sliding on even i, full on odd (Gemma 2, gpt-oss)
    Qwen2, // sliding from max_window_layers on, when use_sliding_window
    Llama4, // chunked_attention where RoPE turns, full_attention on the NoPE layers
    SmolLM3, // full_attention, sliding on NoPE layers when use_sliding_window
};

struct Family
{
    QString modelType;
    Scheme scheme = Scheme::Rope;
    QString configClass; // "LlamaConfig"
    double defaultTheta = 10000.0;
    std::int64_t defaultMaxPositions = 2048;
    std::optional<std::int64_t> defaultHeadDim; // the class's head_dim default, when it has one
    std::int64_t defaultHeads = 32;
    std::int64_t defaultHidden = 4096;
    std::int64_t defaultLayers = 32;
    double defaultPartial = 1.0;
    RopeLayout layout = RopeLayout::Half;
    LayerRule layerRule = LayerRule::AllFull;
    bool perLayerRope = false; // its rotary embedding reads one rope dict per layer type (Gemma 3)
    bool noRopeLayers = false; // reads no_rope_layers (1 turns, 0 is NoPE)
    bool known = true; // false for the Llama-like stand-in of an unknown model_type
};

// The family of `modelType`; an unknown type gets Llama's defaults with known = false.
Family of(const QString &modelType);
// The text model's type inside a multimodal config: gemma3 -> gemma3_text, llama4 -> llama4_text.
QString textType(const QString &modelType);
// The model types posenc knows, for messages.
QStringList knownTypes();

} // namespace posenc::ModelFamilies
