#pragma once

#include <cstdint>
#include <optional>
#include <vector>

// The rotary family's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.rope`.
namespace posenc {

// RoPE's pairing of a head's columns: rotate_half's (i, i + r/2) or GPT-J's (2i, 2i + 1).
enum class RopeLayout { Half, Interleaved };
// Where a head's rotary columns sit: its first rotary_dim (apply_rotary_pos_emb's x[..., :rotary_dim]),
// or its last (DeepSeek-V4's apply_rotary_pos_emb, x[..., -rope_dim:]), the rest passed through.
enum class RotaryPlace { Prefix, Suffix };
// HF transformers' rope_type (modeling_rope_utils.py), in the order of --rope-type's words.
enum class RopeType { Default, Linear, Dynamic, Yarn, LongRope, Llama3, Proportional };

// Named as HF's configs name them. RoPE adds no term to X: it rotates a head's query and key by
// position. The optional values are unset as in a config that leaves them out.
struct RopeParams
{
    static constexpr std::int64_t kMaxHeadDim = std::int64_t(1) << 16;

    std::int64_t headDim = 128; // head_dim
    double theta = 10000.0; // rope_theta
    double partialRotaryFactor = 1.0; // partial_rotary_factor
    RopeLayout layout = RopeLayout::Half;
    RotaryPlace place = RotaryPlace::Prefix; // rotary_place
    RopeType type = RopeType::Default; // rope_type
    std::optional<double> factor; // factor
    std::optional<std::int64_t>
        originalMaxLen; // original_max_position_embeddings (max_position_embeddings for dynamic)
    double lowFreqFactor = 1.0; // llama3
    double highFreqFactor = 4.0; // llama3
    double betaFast = 32.0; // yarn
    double betaSlow = 1.0; // yarn
    bool yarnTruncate = true; // yarn's truncate
    std::optional<double> mscale; // yarn, DeepSeek style
    std::optional<double> mscaleAllDim; // yarn, DeepSeek style
    std::optional<double> attentionFactor; // yarn, longrope: attention_factor
    std::vector<double> shortFactor; // longrope: rotary_dim / 2 values
    std::vector<double> longFactor; // longrope: rotary_dim / 2 values

    friend bool operator==(const RopeParams &, const RopeParams &) = default;
};

} // namespace posenc
