#pragma once

// Float64 references for Sandwich, written from the reference code, never from the code under test:
// NVIDIA NeMo's SandwichRelativePositionEmbedding.forward
// (nemo/collections/nlp/modules/common/megatron/position_embedding/
// sandwich_relative_position_embedding.py) and build_relative_position(full=True) of
// alibi_relative_position_embedding.py, in double. No header of the code under test: the command
// line's tests include it too.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace sandwichref {

// inv_freq = 1.0 / (10000 ** (2 * torch.arange(1, d / 2 + 1) / d)): arange's float end d/2 + 1
// gives the k = 1, 2, ... below it.
inline std::vector<double> invFreq(std::int64_t d)
{
    std::vector<double> w;
    for (double k = 1.0; k < double(d) / 2.0 + 1.0; k += 1.0)
        w.push_back(1.0 / std::pow(10000.0, 2.0 * k / double(d)));
    return w;
}

// relative_position[i, j] = |(L - 1 - i) - (L - 1 - j)|, then torch.tril when not bidirectional.
inline std::int64_t distance(std::int64_t i, std::int64_t j, bool bidirectional)
{
    if (!bidirectional && j > i)
        return 0;
    return std::abs((-i) - (-j));
}

// (sum(cos(r * inv_freq)) - d / 2) / (head * 8 / heads), head numbered from 1 as bias_scales are
// torch.arange(1, heads + 1).
inline double bias(std::int64_t heads, std::int64_t head, std::int64_t d, std::int64_t i, std::int64_t j,
                   bool bidirectional)
{
    const std::vector<double> w = invFreq(d);
    const double r = double(distance(i, j, bidirectional));
    double sum = 0.0;
    for (const double f : w)
        sum += std::cos(r * f);
    return (sum - double(d) / 2.0) / (double(head) * 8.0 / double(heads));
}

// How far torch's float32 may be from bias(): each term's angle is r times a float32 inv_freq
// (its exponent 2k/d rounded, pow, the division, the product: a dozen units of 2^-24 of the
// angle), its cosine and the float32 sum a few units of 2^-24 each, all divided by the scale.
inline double float32Allowance(std::int64_t heads, std::int64_t head, std::int64_t d, std::int64_t r)
{
    const std::vector<double> w = invFreq(d);
    double frequencySum = 0.0;
    for (const double f : w)
        frequencySum += f;
    const double scale = double(head) * 8.0 / double(heads);
    return (12.0 * double(r) * frequencySum + 4.0 * double(w.size())) * std::ldexp(1.0, -24) / scale;
}

} // namespace sandwichref
