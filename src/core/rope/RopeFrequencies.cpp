#include "RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace posenc::RopeFrequencies {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// theta^(2i/dim): HF's pos_freqs, whose inverse is pair i's unscaled frequency.
double posFreq(double theta, std::int64_t i, std::int64_t dim)
{
    return std::pow(theta, static_cast<double>(2 * i) / static_cast<double>(dim));
}

// YaRN's inverse dimension formula: the pair index at which a pair turns `rotations` times over
// the original context.
double correctionDim(double rotations, std::int64_t dim, double theta, double original)
{
    return static_cast<double>(dim) * std::log(original / (rotations * kTwoPi)) / (2.0 * std::log(theta));
}

struct YarnBand
{
    double low = 0.0, high = 0.0; // before rounding and clamping
    double lowUsed = 0.0, highUsed = 0.0; // as the ramp uses them (0.001 apart when they meet)
};

YarnBand yarnBand(const RopeParams &rope, std::int64_t dim)
{
    const double original = static_cast<double>(rope.originalMaxLen.value_or(0));
    YarnBand band;
    band.low = correctionDim(rope.betaFast, dim, rope.theta, original);
    band.high = correctionDim(rope.betaSlow, dim, rope.theta, original);
    double low = band.low;
    double high = band.high;
    if (rope.yarnTruncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, static_cast<double>(dim - 1));
    if (low == high)
        high += 0.001; // HF's guard against a division by zero
    band.lowUsed = low;
    band.highUsed = high;
    return band;
}

double yarnAttention(const RopeParams &rope)
{
    if (rope.attentionFactor)
        return *rope.attentionFactor;
    const double factor = rope.factor.value_or(1.0);
    // HF tests both for truth: a zero mscale counts as absent.
    if (rope.mscale && rope.mscaleAllDim && *rope.mscale != 0.0 && *rope.mscaleAllDim != 0.0)
        return getMscale(factor, *rope.mscale) / getMscale(factor, *rope.mscaleAllDim);
    return getMscale(factor);
}

// longrope's factor: the model's (HF's factor, or its max_position_embeddings over the original
// length), never the sequence length's. Valid parameters give it unless an attention factor is.
double longRopeFactor(const Params &params)
{
    return params.rope.factor.value_or(1.0);
}

double longRopeAttention(const Params &params)
{
    const RopeParams &rope = params.rope;
    if (rope.attentionFactor)
        return *rope.attentionFactor;
    const double factor = longRopeFactor(params);
    if (factor <= 1.0)
        return 1.0;
    return std::sqrt(1.0 + std::log(factor) / std::log(static_cast<double>(rope.originalMaxLen.value_or(1))));
}

bool usesLongFactors(const Params &params)
{
    return params.maxLen > params.rope.originalMaxLen.value_or(0);
}

// Llama 3's three bands, by wavelength against original / high and original / low, as the
// table's band column holds them.
constexpr double kKept = 0.0;
constexpr double kBlended = 1.0;
constexpr double kDivided = 2.0;

} // namespace

double getMscale(double scale, double mscale)
{
    return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0;
}

double dynamicBase(const Params &params)
{
    const RopeParams &rope = params.rope;
    const double factor = rope.factor.value_or(1.0);
    const double original = static_cast<double>(rope.originalMaxLen.value_or(1));
    const double seq = std::max(static_cast<double>(params.maxLen), original);
    const double d = static_cast<double>(rotaryDim(rope));
    return rope.theta * std::pow(factor * seq / original - (factor - 1.0), d / (d - 2.0));
}

double attentionFactor(const Params &params)
{
    switch (params.rope.type) {
    case RopeType::Yarn:
        return yarnAttention(params.rope);
    case RopeType::LongRope:
        return longRopeAttention(params);
    case RopeType::Default:
    case RopeType::Linear:
    case RopeType::Dynamic:
    case RopeType::Llama3:
    case RopeType::Proportional:
        break;
    }
    return 1.0;
}

std::int64_t rotaryDim(const RopeParams &rope)
{
    // A head_dim past its range has no rotary dim (nor pairs to allocate).
    if (rope.headDim < 0 || rope.headDim > RopeParams::kMaxHeadDim)
        return 0;
    if (rope.type == RopeType::Proportional)
        return rope.headDim;
    // int(head_dim * partial_rotary_factor), truncated as Python's int() does; a product that
    // is no count (NaN, negative, huge) has no rotary dim.
    const double product = static_cast<double>(rope.headDim) * rope.partialRotaryFactor;
    if (!(product >= 0.0 && product <= static_cast<double>(RopeParams::kMaxHeadDim)))
        return 0;
    return static_cast<std::int64_t>(product);
}

std::int64_t pairs(const RopeParams &rope)
{
    return rotaryDim(rope) / 2;
}

std::int64_t livePairs(const RopeParams &rope)
{
    if (rope.type != RopeType::Proportional)
        return pairs(rope);
    // int(F * head_dim // 2): Python floors the float quotient.
    const double half = std::floor(rope.partialRotaryFactor * static_cast<double>(rope.headDim) / 2.0);
    if (!(half >= 0.0))
        return 0;
    return std::min(static_cast<std::int64_t>(std::min(half, 1e18)), pairs(rope));
}

double factorForLivePairs(RopeParams rope, std::int64_t live)
{
    rope.type = RopeType::Proportional;
    rope.partialRotaryFactor = 2.0 * double(live) / double(rope.headDim);
    while (livePairs(rope) < live && rope.partialRotaryFactor < 2.0)
        rope.partialRotaryFactor = std::nextafter(rope.partialRotaryFactor, 2.0);
    return rope.partialRotaryFactor;
}

Params underRope(const Params &params)
{
    Params rope = params;
    rope.encoding = Encoding::Rope;
    return rope;
}

void setHeadDim(Params &params, std::int64_t headDim)
{
    params.rope.headDim = headDim;
    params.dModel = std::clamp(std::max(params.dModel, headDim), std::int64_t(1), Params::kMaxDModel);
}

Table table(const Params &params)
{
    const RopeParams &rope = params.rope;
    const std::int64_t dim = rotaryDim(rope);
    const std::int64_t h = pairs(rope);
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(h, 0));
    Table t;
    t.inv.assign(n, 0.0);
    t.invBefore.assign(n, 0.0);
    t.band.assign(n, 0.0);
    const double factor = rope.factor.value_or(1.0);
    const double theta = rope.theta;

    switch (rope.type) {
    case RopeType::Default:
    case RopeType::Linear:
        for (std::size_t i = 0; i < n; ++i) {
            t.invBefore[i] = 1.0 / posFreq(theta, std::int64_t(i), dim);
            t.inv[i] = rope.type == RopeType::Linear ? t.invBefore[i] / factor : t.invBefore[i];
        }
        break;
    case RopeType::Dynamic: {
        // The base grows with the sequence: seq = max(max_len, original).
        const double base = dynamicBase(params);
        for (std::size_t i = 0; i < n; ++i) {
            t.invBefore[i] = 1.0 / posFreq(theta, std::int64_t(i), dim);
            t.inv[i] = 1.0 / posFreq(base, std::int64_t(i), dim);
        }
        break;
    }
    case RopeType::Yarn: {
        const YarnBand band = yarnBand(rope, dim);
        for (std::size_t i = 0; i < n; ++i) {
            const double pos = posFreq(theta, std::int64_t(i), dim);
            const double extrapolation = 1.0 / pos;
            const double interpolation = 1.0 / (factor * pos);
            const double ramp
                = std::clamp((static_cast<double>(i) - band.lowUsed) / (band.highUsed - band.lowUsed), 0.0, 1.0);
            t.invBefore[i] = extrapolation;
            t.inv[i] = interpolation * ramp + extrapolation * (1.0 - ramp);
            t.band[i] = ramp;
        }
        t.attentionFactor = attentionFactor(params);
        break;
    }
    case RopeType::LongRope: {
        const std::vector<double> &ext = usesLongFactors(params) ? rope.longFactor : rope.shortFactor;
        for (std::size_t i = 0; i < n; ++i) {
            const double pos = posFreq(theta, std::int64_t(i), dim);
            t.invBefore[i] = 1.0 / pos;
            t.inv[i] = 1.0 / ((i < ext.size() ? ext[i] : 1.0) * pos);
        }
        t.attentionFactor = attentionFactor(params);
        break;
    }
    case RopeType::Llama3: {
        const double original = static_cast<double>(rope.originalMaxLen.value_or(1));
        const double low = rope.lowFreqFactor;
        const double high = rope.highFreqFactor;
        const double lowWavelength = original / low;
        const double highWavelength = original / high;
        for (std::size_t i = 0; i < n; ++i) {
            const double inv = 1.0 / posFreq(theta, std::int64_t(i), dim);
            const double wavelength = kTwoPi / inv;
            t.invBefore[i] = inv;
            if (wavelength < highWavelength || (wavelength <= lowWavelength && low == high)) {
                // Short wavelengths are kept; with low = high (Llama 4 Scout) the blended band is
                // empty and a pair exactly on the boundary is kept, where HF divides 0 by 0.
                t.inv[i] = inv;
                t.band[i] = kKept;
            } else if (wavelength > lowWavelength) {
                t.inv[i] = inv / factor;
                t.band[i] = kDivided;
            } else {
                const double smooth = (original / wavelength - low) / (high - low);
                t.inv[i] = (1.0 - smooth) * inv / factor + smooth * inv;
                t.band[i] = kBlended;
            }
        }
        break;
    }
    case RopeType::Proportional: {
        // The exponent's denominator is the whole head_dim, unlike partial rotary's r; the pairs
        // from rope_angles on turn at frequency 0.
        const auto live = static_cast<std::size_t>(livePairs(rope));
        for (std::size_t j = 0; j < std::min(live, n); ++j) {
            t.invBefore[j] = 1.0 / posFreq(theta, std::int64_t(j), rope.headDim);
            t.inv[j] = t.invBefore[j] / factor;
        }
        break;
    }
    }
    return t;
}

FrequencySchedule schedule(const Params &params)
{
    Table t = table(params);
    FrequencySchedule s;
    s.w = std::move(t.inv);
    s.amplitude = t.attentionFactor;
    return s;
}

Description describe(const Params &params)
{
    const RopeParams &rope = params.rope;
    const Table t = table(params);
    Description d;
    d.type = rope.type;
    d.rotaryDim = rotaryDim(rope);
    d.attentionFactor = t.attentionFactor;

    if (rope.type == RopeType::Yarn) {
        // DeepSeek-style attention multiplies its softmax scale by mscale_all_dim's factor squared.
        if (rope.mscaleAllDim && *rope.mscaleAllDim != 0.0) {
            const double m = getMscale(rope.factor.value_or(1.0), *rope.mscaleAllDim);
            d.softmaxScaleFactor = m * m;
        }
        const YarnBand band = yarnBand(rope, d.rotaryDim);
        d.bandLow = band.low;
        d.bandHigh = band.high;
        d.bandLowUsed = band.lowUsed;
        d.bandHighUsed = band.highUsed;
    }
    d.logitScale = d.attentionFactor * d.attentionFactor * d.softmaxScaleFactor;

    if (rope.type == RopeType::Yarn || rope.type == RopeType::Llama3) {
        std::int64_t kept = 0, blended = 0, divided = 0;
        for (const double b : t.band) {
            if (rope.type == RopeType::Yarn) {
                // The ramp: 0 keeps the pair, 1 divides it by the factor.
                kept += b == 0.0;
                divided += b == 1.0;
                blended += b > 0.0 && b < 1.0;
            } else {
                kept += b == kKept;
                blended += b == kBlended;
                divided += b == kDivided;
            }
        }
        d.pairsKept = kept;
        d.pairsBlended = blended;
        d.pairsDivided = divided;
    }

    bool any = false;
    for (const double inv : t.inv) {
        if (!(inv > 0.0))
            continue; // proportional's pairs at frequency 0 never turn
        const double wavelength = kTwoPi / inv;
        d.wavelengthMin = any ? std::min(d.wavelengthMin, wavelength) : wavelength;
        d.wavelengthMax = any ? std::max(d.wavelengthMax, wavelength) : wavelength;
        any = true;
    }

    // Liu et al. 2023: the dimensions from 2 ceil((r/2) log_theta(L0 / 2 pi)) on never complete a
    // turn within the training context L0.
    const double context = static_cast<double>(rope.originalMaxLen.value_or(params.maxLen));
    const double turns = static_cast<double>(d.rotaryDim) / 2.0 * std::log(context / kTwoPi) / std::log(rope.theta);
    // Clamped to the dims that turn: a context shorter than 2 pi leaves none, a long one all of
    // them, which under proportional stop at its live pairs (the tail turns at frequency 0).
    const double turning = 2.0 * static_cast<double>(livePairs(rope));
    const double critical = std::clamp(2.0 * std::ceil(turns), 0.0, turning);
    d.criticalDimension = std::isnan(critical) ? 0 : static_cast<std::int64_t>(critical);
    d.liuCriticalDimension = d.criticalDimension;
    // A model that names no original context runs its scaled pairs from its first position (Gemma
    // 3's linear x8 over its 131072; Gemma3RotaryEmbedding divides inv_freq by the factor in every
    // forward): its critical dimension is that of the pairs as it runs them, the first whose
    // wavelength 2 pi / inv after the scaling exceeds max_len, which for linear is Liu's with the
    // positions divided by f. Unscaled pairs keep Liu's count; a model that names L0 was trained
    // unscaled on it, which Liu's count is of.
    if (!rope.originalMaxLen && t.inv != t.invBefore) {
        std::int64_t pair = 0;
        const auto live = static_cast<std::size_t>(livePairs(rope));
        while (std::size_t(pair) < std::min(live, t.inv.size()) && kTwoPi / t.inv[std::size_t(pair)] <= context)
            ++pair;
        d.criticalDimension = 2 * pair;
        d.criticalOfScaledPairs = true;
    }

    // The last position's neighbours in bf16 (7 explicit mantissa bits) and fp16 (10), which
    // rounds 65520 and up to infinity.
    const double last = static_cast<double>(params.maxLen - 1);
    d.bf16PositionStep = positionStep(last, 7);
    if (last < 65520.0)
        d.fp16PositionStep = positionStep(last, 10);
    return d;
}

double positionStep(double x, int mantissaBits)
{
    const double v = std::max(x, 1.0);
    return std::ldexp(1.0, std::ilogb(v) - mantissaBits);
}

} // namespace posenc::RopeFrequencies
