#pragma once

// Float64 references for the RoPE figures' tests, written from HF transformers'
// modeling_rope_utils.py formulas (docs/ARCHITECTURE.md, Encoding families), never from the code
// under test: each rope_type's inverse frequencies, its attention factor, the rotation.
#include "core/Params.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace roperef {

using posenc::Params;
using posenc::RopeType;

inline constexpr double kTwoPi = 2.0 * std::numbers::pi;

// int(head_dim * partial_rotary_factor); head_dim for proportional.
inline std::int64_t rotaryDim(const Params &p)
{
    if (p.rope.type == RopeType::Proportional)
        return p.rope.headDim;
    return static_cast<std::int64_t>(double(p.rope.headDim) * p.rope.partialRotaryFactor);
}

// theta^(-2i/r) for i < r/2.
inline std::vector<double> defaultInv(double theta, std::int64_t r)
{
    std::vector<double> inv;
    for (std::int64_t i = 0; i < r / 2; ++i)
        inv.push_back(1.0 / std::pow(theta, double(2 * i) / double(r)));
    return inv;
}

inline double mscale(double scale, double m = 1.0)
{
    return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
}

// yarn's correction range, in pairs: r ln(L0 / (n 2 pi)) / (2 ln theta) for n = beta_fast, beta_slow,
// before rounding and clamping.
inline double yarnCorrection(double n, std::int64_t r, double theta, double original)
{
    return double(r) * std::log(original / (n * kTwoPi)) / (2.0 * std::log(theta));
}

// The inverse frequencies of `p`'s type, after scaling.
inline std::vector<double> inv(const Params &p)
{
    const auto &rope = p.rope;
    const std::int64_t r = rotaryDim(p);
    const double f = rope.factor.value_or(1.0);
    std::vector<double> base = defaultInv(rope.theta, r);
    switch (rope.type) {
    case RopeType::Default:
        return base;
    case RopeType::Linear:
        for (double &v : base)
            v /= f;
        return base;
    case RopeType::Dynamic: {
        const double original = double(*rope.originalMaxLen);
        const double seq = std::max(double(p.maxLen), original);
        const double theta = rope.theta * std::pow(f * seq / original - (f - 1.0), double(r) / double(r - 2));
        return defaultInv(theta, r);
    }
    case RopeType::Yarn: {
        const double original = double(*rope.originalMaxLen);
        double low = yarnCorrection(rope.betaFast, r, rope.theta, original);
        double high = yarnCorrection(rope.betaSlow, r, rope.theta, original);
        if (rope.yarnTruncate) {
            low = std::floor(low);
            high = std::ceil(high);
        }
        low = std::max(low, 0.0);
        high = std::min(high, double(r - 1));
        if (low == high)
            high += 0.001;
        for (std::size_t i = 0; i < base.size(); ++i) {
            const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
            base[i] = base[i] / f * ramp + base[i] * (1.0 - ramp);
        }
        return base;
    }
    case RopeType::LongRope: {
        const auto &ext = p.maxLen > *rope.originalMaxLen ? rope.longFactor : rope.shortFactor;
        for (std::size_t i = 0; i < base.size(); ++i)
            base[i] /= ext[i];
        return base;
    }
    case RopeType::Llama3: {
        const double original = double(*rope.originalMaxLen);
        const double lowWavelength = original / rope.lowFreqFactor;
        const double highWavelength = original / rope.highFreqFactor;
        for (double &v : base) {
            const double wavelength = kTwoPi / v;
            if (wavelength < highWavelength)
                continue;
            if (wavelength > lowWavelength) {
                v /= f;
                continue;
            }
            const double smooth
                = (original / wavelength - rope.lowFreqFactor) / (rope.highFreqFactor - rope.lowFreqFactor);
            v = (1.0 - smooth) * v / f + smooth * v;
        }
        return base;
    }
    case RopeType::Proportional: {
        const auto angles
            = static_cast<std::int64_t>(std::floor(rope.partialRotaryFactor * double(rope.headDim) / 2.0));
        std::vector<double> out(static_cast<std::size_t>(rope.headDim / 2), 0.0);
        for (std::int64_t j = 0; j < angles; ++j)
            out[std::size_t(j)] = std::pow(rope.theta, -2.0 * double(j) / double(rope.headDim)) / f;
        return out;
    }
    }
    return base;
}

// What multiplies cos and sin.
inline double attentionFactor(const Params &p)
{
    const auto &rope = p.rope;
    if (rope.type == RopeType::Yarn) {
        if (rope.attentionFactor)
            return *rope.attentionFactor;
        const double f = rope.factor.value_or(1.0);
        if (rope.mscale && rope.mscaleAllDim && *rope.mscale != 0.0 && *rope.mscaleAllDim != 0.0)
            return mscale(f, *rope.mscale) / mscale(f, *rope.mscaleAllDim);
        return mscale(f);
    }
    if (rope.type == RopeType::LongRope) {
        if (rope.attentionFactor)
            return *rope.attentionFactor;
        const double original = double(*rope.originalMaxLen);
        const double f = rope.factor.value_or(1.0); // the model's factor, never the sequence length's
        return f <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(f) / std::log(original));
    }
    return 1.0;
}

// Llama 3.1 8B: llama3, theta 500000, head_dim 128, factor 8 from 8,192, max_len 131,072.
inline Params llama31()
{
    Params p;
    p.encoding = posenc::Encoding::Rope;
    p.dModel = 4096;
    p.maxLen = 131072;
    p.rope.headDim = 128;
    p.rope.theta = 500000.0;
    p.rope.type = RopeType::Llama3;
    p.rope.factor = 8.0;
    p.rope.originalMaxLen = 8192;
    return p;
}

// gpt-oss-20b: yarn, factor 32 from 4,096, theta 150000, head_dim 64, beta 32/1, truncate off.
inline Params gptOss()
{
    Params p;
    p.encoding = posenc::Encoding::Rope;
    p.dModel = 2880;
    p.maxLen = 131072;
    p.rope.headDim = 64;
    p.rope.theta = 150000.0;
    p.rope.type = RopeType::Yarn;
    p.rope.factor = 32.0;
    p.rope.originalMaxLen = 4096;
    p.rope.yarnTruncate = false;
    return p;
}

} // namespace roperef
