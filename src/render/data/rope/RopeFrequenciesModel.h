#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

#include <optional>

namespace posenc {

// Which way a scaling treats a pair: llama3's bands, or yarn's ramp gamma_i (0 kept, strictly
// between 0 and 1 blended, 1 divided by the factor).
enum class RopeBand { Kept, Blended, Divided };

// The rope-frequencies figure's data: the wavelength 2 pi / theta_i of every rotary pair, after
// the type's scaling and before it, with what sets each pair's treatment.
struct RopeFrequenciesData : FigureData
{
    RopeType type = RopeType::Default;
    std::int64_t pairs = 0; // rotary pairs, rotary dim / 2
    // The pairs that turn (proportional's tail has frequency 0 and no wavelength): 0 .. live - 1.
    QList<double> pair, wavelength, wavelengthBefore;
    // Proportional only: what partial rotary with the same F would give instead (its exponent's
    // denominator the rotary dim int(F head_dim), not head_dim); empty for the other types.
    QList<double> partialPair, partialWavelength;
    // yarn and llama3: each pair's band; empty for the other types.
    QList<RopeBand> bands;
    // yarn: the ramp's edges in pairs, before rounding and clamping and as used.
    std::optional<double> rampLow, rampHigh, rampLowUsed, rampHighUsed;
    // llama3: the wavelengths its bands part at, L0 / high_freq_factor and L0 / low_freq_factor.
    double keptBelow = 0.0, dividedAbove = 0.0;
    std::int64_t original = 0; // the original context L0 (max_len when none is given)
    bool originalGiven = false;
    std::int64_t extended = 0; // max_len
    std::optional<double> factor;
    // Liu et al. 2023: dims 2i from here on never complete a turn within L0.
    std::int64_t criticalDimension = 0;
    double attentionFactor = 1.0;
    double logitScale = 1.0; // attention factor squared, times a yarn mscale_all_dim's softmax scale
    QString scaling; // RopeText::scalingText
    QString model; // RopeText::modelText

    // The pairs [first, last] of `band`, if any (the bands of both types are contiguous runs).
    std::optional<std::pair<std::int64_t, std::int64_t>> run(RopeBand band) const;
};

// "RoPE wavelengths": the wavelength of each rotary pair for the chosen rope_type against the
// unscaled one, on a log axis, with the original and the extended context as lines, yarn's ramp
// or llama3's bands shaded, the critical dimension marked and the attention factor in the title.
class RopeFrequenciesModel final : public FigureModel
{
public:
    // The figure's data for valid rope parameters, widget-free.
    static RopeFrequenciesData compute(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Rope}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
