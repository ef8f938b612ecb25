#include "RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace posenc::RopeFrequencies {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// HF's get_mscale: 1 up to a factor of 1, else 0.1 m ln(s) + 1.
double mscaleOf(double scale, double m = 1.0)
{
    return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
}

// A config value HF reads with `x and ...`: given and not 0.
bool given(const std::optional<double> &value)
{
    return value && *value != 0.0;
}

// theta^(-2i/r): the unscaled inverse frequency of pair i of r rotary columns.
double defaultInverse(double theta, std::int64_t i, std::int64_t r)
{
    return std::pow(theta, -2.0 * static_cast<double>(i) / static_cast<double>(r));
}

// yarn's dimension that turns `rotations` times over `length` positions (find_correction_dim).
double correctionDim(double rotations, std::int64_t r, double theta, double length)
{
    return static_cast<double>(r) * std::log(length / (rotations * kTwoPi)) / (2.0 * std::log(theta));
}

struct YarnBand
{
    double low = 0.0, high = 0.0; // before rounding and clamping
    double lowUsed = 0.0, highUsed = 0.0; // as the ramp uses them
};

YarnBand yarnBand(const RopeParams &rope)
{
    const std::int64_t r = rotaryDim(rope);
    const double original = static_cast<double>(rope.originalMaxLen.value_or(1));
    YarnBand band;
    band.low = correctionDim(rope.betaFast, r, rope.theta, original);
    band.high = correctionDim(rope.betaSlow, r, rope.theta, original);
    double low = band.low, high = band.high;
    if (rope.yarnTruncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, static_cast<double>(r - 1));
    if (low == high)
        high += 0.001; // HF's linear_ramp_factor: no division by zero
    band.lowUsed = low;
    band.highUsed = high;
    return band;
}

double yarnAttention(const RopeParams &rope)
{
    const double factor = rope.factor.value_or(1.0);
    if (rope.attentionFactor)
        return *rope.attentionFactor;
    if (given(rope.mscale) && given(rope.mscaleAllDim))
        return mscaleOf(factor, *rope.mscale) / mscaleOf(factor, *rope.mscaleAllDim);
    return mscaleOf(factor);
}

// longrope's factor: the one given, else the extended over the original length (HF: max
// position embeddings over original_max_position_embeddings).
double longropeFactor(const Params &params)
{
    const RopeParams &rope = params.rope;
    if (rope.factor)
        return *rope.factor;
    return static_cast<double>(params.maxLen) / static_cast<double>(rope.originalMaxLen.value_or(params.maxLen));
}

double longropeAttention(const Params &params)
{
    const RopeParams &rope = params.rope;
    if (rope.attentionFactor)
        return *rope.attentionFactor;
    const double factor = longropeFactor(params);
    if (factor <= 1.0)
        return 1.0;
    const double original = static_cast<double>(rope.originalMaxLen.value_or(params.maxLen));
    return std::sqrt(1.0 + std::log(factor) / std::log(original));
}

} // namespace

std::int64_t rotaryDim(const RopeParams &rope)
{
    if (rope.type == RopeType::Proportional)
        return rope.headDim;
    return static_cast<std::int64_t>(static_cast<double>(rope.headDim) * rope.partialRotaryFactor);
}

std::int64_t pairs(const RopeParams &rope)
{
    return rotaryDim(rope) / 2;
}

std::int64_t livePairs(const RopeParams &rope)
{
    if (rope.type == RopeType::Proportional) // int(F * head_dim // 2): Python's floor division of a float
        return static_cast<std::int64_t>(std::floor(rope.partialRotaryFactor * static_cast<double>(rope.headDim) / 2.0));
    return pairs(rope);
}

Table table(const Params &params)
{
    const RopeParams &rope = params.rope;
    const std::int64_t r = rotaryDim(rope);
    const std::int64_t h = pairs(rope);
    Table t;
    t.inv.assign(static_cast<std::size_t>(h), 0.0);
    t.invBefore.assign(static_cast<std::size_t>(h), 0.0);
    t.band.assign(static_cast<std::size_t>(h), 0.0);
    const double factor = rope.factor.value_or(1.0);
    const auto each = [&](auto &&f) {
        for (std::int64_t i = 0; i < h; ++i)
            f(i, static_cast<std::size_t>(i));
    };
    switch (rope.type) {
    case RopeType::Default:
        each([&](std::int64_t i, std::size_t k) { t.inv[k] = t.invBefore[k] = defaultInverse(rope.theta, i, r); });
        break;
    case RopeType::Linear:
        each([&](std::int64_t i, std::size_t k) {
            t.invBefore[k] = defaultInverse(rope.theta, i, r);
            t.inv[k] = t.invBefore[k] / factor;
        });
        break;
    case RopeType::Dynamic: {
        // seq_len = max(max_len, max_position_embeddings); the base grows with it.
        const double original = static_cast<double>(rope.originalMaxLen.value_or(params.maxLen));
        const double seq = std::max(static_cast<double>(params.maxLen), original);
        const double base = rope.theta
            * std::pow(factor * seq / original - (factor - 1.0),
                       static_cast<double>(r) / static_cast<double>(r - 2));
        each([&](std::int64_t i, std::size_t k) {
            t.invBefore[k] = defaultInverse(rope.theta, i, r);
            t.inv[k] = defaultInverse(base, i, r);
        });
        break;
    }
    case RopeType::Yarn: {
        const YarnBand band = yarnBand(rope);
        each([&](std::int64_t i, std::size_t k) {
            const double extrapolation = defaultInverse(rope.theta, i, r);
            const double interpolation = extrapolation / factor;
            // ramp 0: the pair turns as it did (extrapolated); 1: divided by the factor.
            const double ramp
                = std::clamp((static_cast<double>(i) - band.lowUsed) / (band.highUsed - band.lowUsed), 0.0, 1.0);
            t.invBefore[k] = extrapolation;
            t.inv[k] = interpolation * ramp + extrapolation * (1.0 - ramp);
            t.band[k] = ramp;
        });
        t.attentionFactor = yarnAttention(rope);
        break;
    }
    case RopeType::LongRope: {
        const double original = static_cast<double>(rope.originalMaxLen.value_or(params.maxLen));
        const std::vector<double> &ext
            = static_cast<double>(params.maxLen) > original ? rope.longFactor : rope.shortFactor;
        each([&](std::int64_t i, std::size_t k) {
            t.invBefore[k] = defaultInverse(rope.theta, i, r);
            const double e = k < ext.size() ? ext[k] : 1.0;
            t.inv[k] = 1.0 / (e * std::pow(rope.theta, 2.0 * static_cast<double>(i) / static_cast<double>(r)));
        });
        t.attentionFactor = longropeAttention(params);
        break;
    }
    case RopeType::Llama3: {
        const double original = static_cast<double>(rope.originalMaxLen.value_or(params.maxLen));
        const double lowWavelength = original / rope.lowFreqFactor;
        const double highWavelength = original / rope.highFreqFactor;
        each([&](std::int64_t i, std::size_t k) {
            const double inv = defaultInverse(rope.theta, i, r);
            const double wavelength = kTwoPi / inv;
            t.invBefore[k] = inv;
            const bool edgeOfNoBand = rope.lowFreqFactor == rope.highFreqFactor && wavelength == lowWavelength;
            if (wavelength < highWavelength || edgeOfNoBand) {
                // Kept. With low = high (Llama 4 Scout) the blended band is empty: a wavelength
                // exactly on its edge, which HF would blend as 0 / 0, is kept.
                t.inv[k] = inv;
                t.band[k] = 0.0;
            } else if (wavelength > lowWavelength) {
                t.inv[k] = inv / factor;
                t.band[k] = 2.0;
            } else {
                const double smooth
                    = (original / wavelength - rope.lowFreqFactor) / (rope.highFreqFactor - rope.lowFreqFactor);
                t.inv[k] = (1.0 - smooth) * inv / factor + smooth * inv;
                t.band[k] = 1.0;
            }
        });
        break;
    }
    case RopeType::Proportional: {
        // The exponent's denominator is the whole head_dim; pairs past int(F * head_dim // 2) turn
        // at frequency 0; every frequency is divided by the factor (1 unless given).
        const std::int64_t live = livePairs(rope);
        const double divide = rope.factor.value_or(1.0);
        each([&](std::int64_t i, std::size_t k) {
            const double inv = i < live ? defaultInverse(rope.theta, i, rope.headDim) : 0.0;
            t.invBefore[k] = inv;
            t.inv[k] = inv / divide;
        });
        break;
    }
    }
    return t;
}

FrequencySchedule schedule(const Params &params)
{
    Table t = table(params);
    return FrequencySchedule {std::move(t.inv), t.attentionFactor};
}

double positionStep(double x, int mantissaBits)
{
    const double v = std::max(x, 1.0);
    return std::ldexp(1.0, std::ilogb(v) - mantissaBits);
}

Description describe(const Params &params)
{
    const RopeParams &rope = params.rope;
    const Table t = table(params);
    Description d;
    d.type = rope.type;
    d.rotaryDim = rotaryDim(rope);
    d.attentionFactor = t.attentionFactor;
    if (rope.type == RopeType::Yarn && given(rope.mscaleAllDim)) {
        const double m = mscaleOf(rope.factor.value_or(1.0), *rope.mscaleAllDim);
        d.softmaxScaleFactor = m * m;
    }
    d.logitScale = d.attentionFactor * d.attentionFactor * d.softmaxScaleFactor;
    if (rope.type == RopeType::Yarn) {
        const YarnBand band = yarnBand(rope);
        d.bandLow = band.low;
        d.bandHigh = band.high;
        d.bandLowUsed = band.lowUsed;
        d.bandHighUsed = band.highUsed;
    }
    if (rope.type == RopeType::Yarn || rope.type == RopeType::Llama3) {
        std::int64_t kept = 0, blended = 0, divided = 0;
        for (const double b : t.band) {
            const bool isKept = b == 0.0;
            const bool isDivided = rope.type == RopeType::Yarn ? b == 1.0 : b == 2.0;
            kept += isKept ? 1 : 0;
            divided += isDivided ? 1 : 0;
            blended += !isKept && !isDivided ? 1 : 0;
        }
        d.pairsKept = kept;
        d.pairsBlended = blended;
        d.pairsDivided = divided;
    }
    d.wavelengthMin = std::numeric_limits<double>::infinity();
    d.wavelengthMax = 0.0;
    for (const double inv : t.inv) {
        if (inv <= 0.0)
            continue;
        d.wavelengthMin = std::min(d.wavelengthMin, kTwoPi / inv);
        d.wavelengthMax = std::max(d.wavelengthMax, kTwoPi / inv);
    }
    if (d.wavelengthMax == 0.0)
        d.wavelengthMin = 0.0;
    const double context = static_cast<double>(rope.originalMaxLen.value_or(params.maxLen));
    const double turns = static_cast<double>(d.rotaryDim) / 2.0 * std::log(context / kTwoPi) / std::log(rope.theta);
    d.criticalDimension = 2 * std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil(turns)));
    const double last = static_cast<double>(std::max<std::int64_t>(params.maxLen - 1, 0));
    d.bf16PositionStep = positionStep(last, 7);
    if (last < 65520.0) // fp16 rounds 65520 and beyond to infinity
        d.fp16PositionStep = positionStep(last, 10);
    return d;
}

} // namespace posenc::RopeFrequencies
