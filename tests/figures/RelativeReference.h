#pragma once

// Float64 references for the figures of ALiBi, T5 and DeBERTa, written here from the reference
// code's formulas (ofirpress/attention_with_linear_biases' get_slopes, HF transformers' T5
// _relative_position_bucket and DeBERTa-v2 make_log_bucket_position), never from the code under
// test, and the real models' settings (../shared/model-configs, copied as values).
#include "core/Params.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace relref {

using posenc::AlibiMask;
using posenc::Params;

// get_slopes(n), as its Python reads: the power-of-two series, or the closest power's series and
// every other slope of twice that power's, recursively.
inline std::vector<double> slopesPowerOfTwo(std::int64_t n)
{
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(double(n)) - 3.0)));
    std::vector<double> s;
    for (std::int64_t i = 0; i < n; ++i)
        s.push_back(start * std::pow(start, double(i)));
    return s;
}

inline std::vector<double> slopes(std::int64_t n)
{
    const double l = std::log2(double(n));
    if (l == std::floor(l))
        return slopesPowerOfTwo(n);
    const auto closest = std::int64_t(1) << std::int64_t(std::floor(l));
    std::vector<double> s = slopesPowerOfTwo(closest);
    const std::vector<double> twice = slopes(2 * closest);
    for (std::int64_t i = 0; i < n - closest; ++i)
        s.push_back(twice[std::size_t(2 * i)]);
    return s;
}

// The bias of query i for key j; -inf where the causal mask hides the key.
inline double bias(double m, std::int64_t i, std::int64_t j, AlibiMask mask)
{
    if (mask == AlibiMask::Causal && j > i)
        return -std::numeric_limits<double>::infinity();
    return -m * std::abs(double(i - j));
}

// Softmax over the keys 0..L-1 of query i with content scores zero: each key's weight.
inline std::vector<double> softmax(double m, std::int64_t L, std::int64_t i, AlibiMask mask)
{
    std::vector<double> w(std::size_t(L), 0.0);
    double z = 0.0;
    for (std::int64_t j = 0; j < L; ++j) {
        const double b = bias(m, i, j, mask);
        w[std::size_t(j)] = std::isfinite(b) ? std::exp(b) : 0.0;
        z += w[std::size_t(j)];
    }
    for (double &x : w)
        x /= z;
    return w;
}

// The least distance D whose keys within D of the query hold at least `share` of the weights.
inline std::int64_t span(const std::vector<double> &weights, std::int64_t i, double share)
{
    const auto L = std::int64_t(weights.size());
    double within = 0.0;
    for (std::int64_t d = 0; d < L; ++d) {
        if (i - d >= 0)
            within += weights[std::size_t(i - d)];
        if (d > 0 && i + d < L)
            within += weights[std::size_t(i + d)];
        if (within >= share)
            return d;
    }
    return L - 1;
}

// A bucket computed in float64, and whether its floor or ceil came within `tie` of a whole
// number, where float32 arithmetic may round the other way.
struct Bucket
{
    std::int64_t value = 0;
    bool nearTie = false;
};

inline constexpr double kTie = 1e-4;

// HF T5: relative = key - query.
inline Bucket t5(std::int64_t relative, std::int64_t buckets, std::int64_t maxDistance, bool bidirectional)
{
    std::int64_t n = buckets, result = 0, distance = 0;
    if (bidirectional) {
        n /= 2;
        if (relative > 0)
            result = n;
        distance = std::abs(relative);
    } else {
        distance = relative < 0 ? -relative : 0;
    }
    const std::int64_t exact = n / 2;
    if (distance < exact)
        return {result + distance, false};
    const double scaled = std::log(double(distance) / double(exact)) / std::log(double(maxDistance) / double(exact))
        * double(n - exact);
    const bool tie = std::abs(scaled - std::round(scaled)) < kTie;
    return {result + std::min(exact + std::int64_t(std::floor(scaled)), n - 1), tie};
}

// HF DeBERTa-v2: relative = query - key, signed, uncapped.
inline Bucket deberta(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition)
{
    const std::int64_t mid = buckets / 2;
    const std::int64_t a = std::abs(relative);
    if (a <= mid)
        return {relative, false};
    const double log
        = std::log(double(a) / double(mid)) / std::log(double(maxPosition - 1) / double(mid)) * double(mid - 1);
    const bool tie = std::abs(log - std::round(log)) < kTie;
    const auto magnitude = std::int64_t(std::ceil(log)) + mid;
    return {relative < 0 ? -magnitude : magnitude, tie};
}

// Whether `value` is the reference's bucket, or next to it where float32 may round the other way.
inline bool matches(std::int64_t value, const Bucket &reference)
{
    return value == reference.value || (reference.nearTie && std::abs(value - reference.value) == 1);
}

// The models of the presets, with their config values.
inline Params bloom560m()
{
    Params p;
    p.encoding = posenc::Encoding::Alibi;
    p.dModel = 1024;
    p.maxLen = 2048;
    p.alibi.heads = 16; // n_head
    p.alibi.mask = AlibiMask::Causal;
    return p;
}

inline Params t5Base()
{
    Params p;
    p.encoding = posenc::Encoding::T5;
    p.dModel = 768;
    p.maxLen = 512; // n_positions
    p.t5.buckets = 32; // relative_attention_num_buckets
    p.t5.maxDistance = 128; // the default: the config has no relative_attention_max_distance
    return p;
}

inline Params debertaV3Base()
{
    Params p;
    p.encoding = posenc::Encoding::Deberta;
    p.dModel = 768;
    p.maxLen = 512;
    p.deberta.buckets = 256; // position_buckets
    p.deberta.maxPosition = 512; // max_relative_positions -1: max_position_embeddings
    return p;
}

} // namespace relref
