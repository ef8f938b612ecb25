#pragma once

#include "core/rope/RopeStretch.h"
#include "render/data/FigureModel.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace posenc {

// One rope_type's wavelengths in the rope-scalings figure.
struct RopeScalingCurve
{
    RopeType type = RopeType::Default;
    QList<double> pair, wavelength; // the pairs that turn
    std::int64_t pairs = 0; // its rotary pairs, those at frequency 0 included
    double attentionFactor = 1.0;
    bool chosen = false; // the parameters' own type
};

// Every scaling of one model at once: the default and each type HF ships, for the same head,
// theta, factor and original context.
struct RopeScalingsData : FigureData
{
    QList<RopeScalingCurve> curves; // default first, then linear, dynamic, yarn, longrope, llama3, proportional
    double factor = 1.0;
    bool factorAssumed = false; // the parameters give none: kAssumedFactor
    std::int64_t original = 0; // L0
    bool originalAssumed = false; // the parameters give none: max_len
    std::int64_t extended = 0; // the context the scalings stretch to
    QStringList left; // the types left out, each with why ("longrope: no factor lists")
    bool proportionalIsLinear = false; // partial_rotary_factor 1: proportional divides every pair, as linear does
    QString model; // RopeText::modelText
};

// "RoPE scalings compared": the wavelength of each rotary pair under every rope_type for the same
// model, against the default. Types whose parameters the model lacks take its factor and original
// context, and HF's defaults for the rest (beta 32/1, low 1/high 4); the figure says which.
class RopeScalingsModel final : public FigureModel
{
public:
    // The factor the figure stretches by where the parameters give none.
    static constexpr double kAssumedFactor = RopeStretch::kAssumedFactor;

    static RopeScalingsData compute(const Params &params);
    // The parameters of `type` for the model of `params`, at the context the data stretches to.
    static Params paramsOf(const Params &params, RopeType type, double factor, std::int64_t original,
                           std::int64_t extended);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Rope}; }
    QList<Quantity> inputs(const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
