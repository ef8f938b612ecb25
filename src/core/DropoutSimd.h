#pragma once

#include <cstdint>

namespace posenc {

// The row kernels of dropout and of the model input, vectorised for the CPU's SIMD target
// (SimdTargets); every target gives the same bits. A bit set is bit c % 64 of word c / 64.

// Compares `count` bytes with `threshold` (< 256): bit c of `below` is top[c] < threshold, and
// the bits past `count` in its last word are zero. The c with top[c] == threshold go to `ties`
// in increasing order, which has room for count + 1 of them; returns how many there are.
std::int64_t compareBytes(const std::uint8_t *top, std::int64_t count, std::uint32_t threshold, std::uint64_t *below,
                          std::uint32_t *ties);

// One row of the model input by its parts, X = scale * embedding + positional, so that X is
// formed by the same float operations wherever it is needed.
struct InputRow
{
    const float *embedding; // unscaled E, zero where the column holds no embedding
    float scale;
    const float *positional; // PE, zero where the column holds no PE
};

// What inverted dropout acts on: X = s E + PE, s E alone (+ PE), or the PE alone (s E +).
enum class DropoutTarget : std::uint8_t { Sum, Embedding, Positional };

// Y of inverted dropout for one cell from its parts, scaled = scale * embedding: the float
// operations every kernel's scalar tail uses, in the order its vector loop uses them.
inline float dropoutValue(float scaled, float positional, bool kept, float keep, DropoutTarget target)
{
    switch (target) {
    case DropoutTarget::Embedding:
        return (kept ? scaled / keep : 0.0f) + positional;
    case DropoutTarget::Positional:
        return scaled + (kept ? positional / keep : 0.0f);
    case DropoutTarget::Sum:
        break;
    }
    return kept ? (scaled + positional) / keep : 0.0f;
}

// Y of inverted dropout for one row: with bit c of `kept` set, X / keep (or, for `target`
// Embedding, scale * embedding / keep + positional; for Positional, scale * embedding +
// positional / keep); otherwise 0 (positional; scale * embedding). With `streaming`,
// non-temporal stores where `out` is vector-aligned.
void applyDropout(const InputRow &x, const std::uint64_t *kept, float keep, DropoutTarget target, std::int64_t cols,
                  float *out, bool streaming);
// X for one row.
void addScaled(const InputRow &x, std::int64_t cols, float *out, bool streaming);
// 1 where bit c of `kept` is set, else 0.
void maskOfBits(const std::uint64_t *kept, std::int64_t cols, float *out);

} // namespace posenc
