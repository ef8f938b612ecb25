#pragma once

#include <QString>

#include <cstdint>

// What a model multiplies its queries by at each position, as its attention code computes it
// (docs/ARCHITECTURE.md, Model knowledge), in double:
// - Llama 4's temperature on its NoPE layers (Llama4TextAttention.forward, attn_temperature_tuning):
//   1 + attn_scale * ln(floor((p + 1) / floor_scale) + 1), p the absolute token index;
// - Mistral 3's (get_llama_4_attn_scale, every layer): 1 + beta * ln(1 + floor(p / L0)), L0 the rope
//   dict's original_max_position_embeddings, p the position id.
// YaRN's mscale pair scales the logits at every position alike (a softmax factor, not this).
namespace posenc {

struct QueryScale
{
    enum class Kind { None, Temperature, Beta };

    Kind kind = Kind::None;
    double scale = 0.0; // attn_scale, or beta
    std::int64_t length = 1; // floor_scale, or L0

    bool isNone() const { return kind == Kind::None; }
    // The multiplier at 0-based position `p`.
    double at(std::int64_t p) const;
    // The first position whose multiplier exceeds 1: floor_scale - 1, or L0; -1 without scaling.
    std::int64_t firstRise() const;
    // "1 + 0.1 ln(floor((p + 1) / 8192) + 1)", or "none".
    QString words() const;

    friend bool operator==(const QueryScale &, const QueryScale &) = default;
};

} // namespace posenc
