#pragma once

// What RoPE's table tests (tst_ropetables, tst_ropescore) share: parameters, the reference's head
// (inverse frequencies and attention factor as transformers computes them), whole tables.
#include "core/Engine.h"
#include "core/EngineTable.h"
#include "core/Reference.h"
#include "core/rope/RopeScore.h"
#include <QTest>
#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>

namespace RopeTableTesting {

using namespace posenc;
using namespace Qt::StringLiterals;

constexpr double kPi = std::numbers::pi;

inline Params rope(std::int64_t headDim, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = std::max<std::int64_t>(headDim, 16);
    p.maxLen = maxLen;
    p.rope.headDim = headDim;
    p.dropout = 0.0;
    return p;
}

// The float64 reference of one head: rotary dim, pure frequencies, band and attention factor.
struct HeadReference
{
    std::int64_t rotary = 0;
    std::vector<double> inv; // after scaling
    std::vector<double> before; // theta^(-2i/r) (the types that scale a default frequency)
    std::vector<double> band;
    double attention = 1.0;
};

inline double getMscale(double scale, double m)
{
    return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
}

inline HeadReference headReference(const Params &p)
{
    const RopeParams &r = p.rope;
    HeadReference f;
    const bool proportional = r.type == RopeType::Proportional;
    f.rotary = proportional ? r.headDim : static_cast<std::int64_t>(double(r.headDim) * r.partialRotaryFactor);
    const std::int64_t h = f.rotary / 2;
    const double dim = double(f.rotary);
    const double factor = r.factor.value_or(1.0);
    for (std::int64_t i = 0; i < h; ++i) {
        const double before = std::pow(r.theta, -2.0 * double(i) / dim);
        double inv = before;
        double band = 0.0;
        switch (r.type) {
        case RopeType::Default:
            break;
        case RopeType::Linear:
            inv = before / factor;
            break;
        case RopeType::Yarn: {
            const double original = double(*r.originalMaxLen);
            const auto corr
                = [&](double n) { return dim * std::log(original / (n * 2.0 * kPi)) / (2.0 * std::log(r.theta)); };
            double low = corr(r.betaFast);
            double high = corr(r.betaSlow);
            if (r.yarnTruncate) {
                low = std::floor(low);
                high = std::ceil(high);
            }
            low = std::max(low, 0.0);
            high = std::min(high, dim - 1.0);
            if (low == high)
                high += 0.001;
            const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
            const double pos = std::pow(r.theta, 2.0 * double(i) / dim);
            inv = ramp / (factor * pos) + (1.0 - ramp) / pos;
            band = ramp;
            break;
        }
        case RopeType::Llama3: {
            const double original = double(*r.originalMaxLen);
            const double wavelength = 2.0 * kPi / before;
            const double lowWavelength = original / r.lowFreqFactor;
            const double highWavelength = original / r.highFreqFactor;
            if (wavelength <= highWavelength) {
                band = 0.0;
            } else if (wavelength > lowWavelength) {
                inv = before / factor;
                band = 2.0;
            } else {
                const double smooth = (original / wavelength - r.lowFreqFactor) / (r.highFreqFactor - r.lowFreqFactor);
                inv = (1.0 - smooth) * before / factor + smooth * before;
                band = 1.0;
            }
            break;
        }
        case RopeType::Proportional: {
            const auto angles = static_cast<std::int64_t>(std::floor(r.partialRotaryFactor * double(r.headDim) / 2.0));
            inv = i < angles ? std::pow(r.theta, -2.0 * double(i) / double(r.headDim)) / factor : 0.0;
            break;
        }
        case RopeType::Dynamic:
        case RopeType::LongRope:
            qFatal("no reference here for this type");
        }
        f.inv.push_back(inv);
        f.before.push_back(before);
        f.band.push_back(band);
    }
    if (r.type == RopeType::Yarn) {
        if (r.attentionFactor)
            f.attention = *r.attentionFactor;
        else if (r.mscale && r.mscaleAllDim && *r.mscale != 0.0 && *r.mscaleAllDim != 0.0)
            f.attention = getMscale(factor, *r.mscale) / getMscale(factor, *r.mscaleAllDim);
        else
            f.attention = getMscale(factor, 1.0);
    }
    return f;
}

// sin / cos of the exact product p * w (hi + lo by fma), about 1e-16 from the true value.
inline std::pair<double, double> sinCos(double p, double w)
{
    const double hi = p * w;
    const double lo = std::fma(p, w, -hi);
    const double s = std::sin(hi), c = std::cos(hi);
    return {s + c * lo, c - s * lo};
}

// The pair of column c of the cos and sin tables: c mod h (half) or c / 2 (interleaved).
inline std::int64_t pairOf(std::int64_t column, std::int64_t h, RopeLayout layout)
{
    return layout == RopeLayout::Half ? column % h : column / 2;
}

inline RowMatrixXf whole(const Engine &engine, Quantity q)
{
    const Shape s = engine.shape(q);
    return testing::computeTable(engine, q, {0, s.rows, 0, s.cols});
}

inline bool bitEqual(const RowMatrixXf &a, const RowMatrixXf &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
        && std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

// A matrix of embedding rows, each row's cells different.
inline std::shared_ptr<const EmbeddingMatrix> matrix(const RowMatrixXf &values)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = values;
    m->source = u"test.npy"_s;
    return m;
}

// Settings of every type with a reference here, in both layouts.
inline QList<std::pair<QString, Params>> typedSettings()
{
    QList<std::pair<QString, Params>> list;
    Params base = rope(64, 2500);
    list.append({u"default"_s, base});
    Params linear = base;
    linear.rope.type = RopeType::Linear;
    linear.rope.factor = 8.0;
    linear.rope.theta = 1e6;
    list.append({u"linear"_s, linear});
    Params llama3 = base;
    llama3.rope.type = RopeType::Llama3;
    llama3.rope.factor = 8.0;
    llama3.rope.theta = 500000.0;
    llama3.rope.originalMaxLen = 8192;
    list.append({u"llama3"_s, llama3});
    Params yarn = base;
    yarn.rope.type = RopeType::Yarn;
    yarn.rope.factor = 32.0;
    yarn.rope.theta = 150000.0;
    yarn.rope.originalMaxLen = 4096;
    yarn.rope.yarnTruncate = false;
    list.append({u"yarn, truncate off"_s, yarn});
    Params deepseek = yarn;
    deepseek.rope.yarnTruncate = true;
    deepseek.rope.factor = 40.0;
    deepseek.rope.mscale = 0.707;
    deepseek.rope.mscaleAllDim = 1.0;
    list.append({u"yarn, mscale pair"_s, deepseek});
    Params explicitFactor = yarn;
    explicitFactor.rope.attentionFactor = 1.25;
    list.append({u"yarn, attention factor"_s, explicitFactor});
    Params partial = base;
    partial.rope.partialRotaryFactor = 0.25;
    partial.rope.headDim = 96;
    partial.dModel = 96;
    list.append({u"partial 0.25"_s, partial});
    Params proportional = base;
    proportional.rope.type = RopeType::Proportional;
    proportional.rope.partialRotaryFactor = 0.25;
    proportional.rope.theta = 1e6;
    list.append({u"proportional 0.25"_s, proportional});
    QList<std::pair<QString, Params>> both;
    for (const auto &[name, p] : list) {
        both.append({name + u", half"_s, p});
        Params interleaved = p;
        interleaved.rope.layout = RopeLayout::Interleaved;
        both.append({name + u", interleaved"_s, interleaved});
    }
    return both;
}

const QList<Quantity> kRopeQuantities
    = {Quantity::RopeFrequencies, Quantity::RopeCos, Quantity::RopeSin, Quantity::RopeScore, Quantity::RopeInput};

} // namespace RopeTableTesting
