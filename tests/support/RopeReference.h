#pragma once

// Float64 references for RoPE, written from HF transformers' modeling_rope_utils.py formulas
// (docs/ARCHITECTURE.md, Encoding families), never from the code under test: each rope_type's
// inverse frequencies (with yarn's ramp and llama3's bands), get_mscale, the attention factor;
// and real models' settings.
#include "core/Params.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
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

// get_mscale of _compute_yarn_parameters.
inline double mscale(double scale, double m = 1.0)
{
    return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
}

// dynamic: the base raised to theta * (f * seq / L0 - (f - 1))^(r / (r - 2)), seq = max(L, L0).
inline std::vector<double> dynamicInv(double theta, std::int64_t r, double f, double maxLen, double original)
{
    const double seq = std::max(maxLen, original);
    const double base = theta * std::pow(f * seq / original - (f - 1.0), double(r) / double(r - 2));
    return defaultInv(base, r);
}

// yarn's correction range, in pairs: r ln(L0 / (n 2 pi)) / (2 ln theta) for n = beta_fast, beta_slow,
// before rounding and clamping.
inline double yarnCorrection(double n, std::int64_t r, double theta, double original)
{
    return double(r) * std::log(original / (n * kTwoPi)) / (2.0 * std::log(theta));
}

// yarn: the ramp between the corrected edges (floored and ceiled when truncating, clamped to
// [0, r - 1], 0.001 apart when they meet), each pair's 1/(f pos) and 1/pos blended by it, and the
// attention factor (the given one, the mscale ratio, or get_mscale(f)).
struct Yarn
{
    std::vector<double> inv, ramp;
    double attention = 1.0;
    double low = 0.0, high = 0.0, lowUsed = 0.0, highUsed = 0.0;
};

inline Yarn yarn(double theta, std::int64_t r, double f, double original, double betaFast, double betaSlow,
                 bool truncate, std::optional<double> mscaleFactor, std::optional<double> mscaleAllDim,
                 std::optional<double> attention)
{
    Yarn y;
    y.low = yarnCorrection(betaFast, r, theta, original);
    y.high = yarnCorrection(betaSlow, r, theta, original);
    double low = truncate ? std::floor(y.low) : y.low;
    double high = truncate ? std::ceil(y.high) : y.high;
    low = std::max(low, 0.0);
    high = std::min(high, double(r - 1));
    if (low == high)
        high += 0.001;
    y.lowUsed = low;
    y.highUsed = high;
    for (std::int64_t i = 0; i < r / 2; ++i) {
        const double pos = std::pow(theta, double(2 * i) / double(r));
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        y.ramp.push_back(ramp);
        y.inv.push_back(1.0 / (f * pos) * ramp + 1.0 / pos * (1.0 - ramp));
    }
    if (attention)
        y.attention = *attention;
    else if (mscaleFactor && mscaleAllDim && *mscaleFactor != 0.0 && *mscaleAllDim != 0.0)
        y.attention = mscale(f, *mscaleFactor) / mscale(f, *mscaleAllDim);
    else
        y.attention = mscale(f);
    return y;
}

// llama3: each pair kept (band 0) below the wavelength L0 / high, divided by f (band 2) above
// L0 / low, blended between (band 1); with low = high a pair on the boundary is kept.
struct Llama3
{
    std::vector<double> inv, band;
};

inline Llama3 llama3(double theta, std::int64_t r, double f, double original, double low, double high)
{
    Llama3 l;
    for (const double inv : defaultInv(theta, r)) {
        const double wavelength = kTwoPi / inv;
        if (wavelength < original / high) {
            l.inv.push_back(inv);
            l.band.push_back(0.0);
        } else if (wavelength > original / low) {
            l.inv.push_back(inv / f);
            l.band.push_back(2.0);
        } else if (low == high) {
            l.inv.push_back(inv); // on the boundary: kept
            l.band.push_back(0.0);
        } else {
            const double smooth = (original / wavelength - low) / (high - low);
            l.inv.push_back((1.0 - smooth) * inv / f + smooth * inv);
            l.band.push_back(1.0);
        }
    }
    return l;
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
    case RopeType::Dynamic:
        return dynamicInv(rope.theta, r, f, double(p.maxLen), double(*rope.originalMaxLen));
    case RopeType::Yarn:
        return yarn(rope.theta, r, f, double(*rope.originalMaxLen), rope.betaFast, rope.betaSlow, rope.yarnTruncate,
                    rope.mscale, rope.mscaleAllDim, rope.attentionFactor)
            .inv;
    case RopeType::LongRope: {
        const auto &ext = p.maxLen > *rope.originalMaxLen ? rope.longFactor : rope.shortFactor;
        for (std::size_t i = 0; i < base.size(); ++i)
            base[i] /= ext[i];
        return base;
    }
    case RopeType::Llama3:
        return llama3(rope.theta, r, f, double(*rope.originalMaxLen), rope.lowFreqFactor, rope.highFreqFactor).inv;
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
