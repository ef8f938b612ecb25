// RoPE's panel of the families figure (FamilyPanel.h): the score of an aligned query and key
// against the offset.
#include "render/data/FamilyPanel.h"

#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeText.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// RoPE's parameters for its panel. Under another family the score needs only head_dim, not the
// width it rotates within: the alibi lesson's d_model 64 under RoPE's default head_dim 128 drew
// an empty panel, so d_model is raised to head_dim as setting head_dim does (RopeFrequencies).
Params rotaryOf(const Params &params)
{
    Params rotary = familyUnder(params, Encoding::Rope);
    if (params.encoding != Encoding::Rope && rotary.rope.headDim > rotary.dModel)
        RopeFrequencies::setHeadDim(rotary, rotary.rope.headDim);
    return rotary;
}

// The families figure's panel: <q, R(k) q> / |q|^2 for q all ones over head_dim, (2 sum_i
// cos(k theta_i) + the unrotated columns) / head_dim, as rope-score's first column.
std::optional<FamilyPanelData> ropePanelData(const Params &params, std::int64_t, const OffsetPixels &offsets,
                                             std::int64_t budget, const std::atomic<bool> *cancel)
{
    FamilyPanelData data;
    data.most = 1.0;
    const Params rotary = rotaryOf(params);
    if (!rotary.validate().isEmpty()) {
        data.problem = u"RoPE's settings are not valid: see its group"_s;
        data.note = u"RoPE: %1"_s.arg(*data.problem);
        return data;
    }
    const std::vector<double> theta = RopeFrequencies::schedule(rotary).w;
    const auto headDim = static_cast<double>(rotary.rope.headDim);
    const double unrotated = headDim - 2.0 * static_cast<double>(theta.size());
    auto curve = FamilyCurves::cosineSum(offsets, theta, 2.0 / headDim, unrotated / headDim, {}, budget, &data.sampled,
                                         cancel);
    if (!curve)
        return std::nullopt;
    data.curve = std::move(*curve);
    data.note = u"RoPE: ⟨q, R(k)q⟩/‖q‖², q all ones  ·  %1, %2"_s.arg(RopeText::scalingText(rotary),
                                                                      RopeText::modelText(rotary));
    return data;
}

} // namespace

FamilyPanel makeRopePanel()
{
    FamilyPanel panel;
    panel.style = FamilyPanelStyle::Band;
    panel.label = u"RoPE score"_s;
    panel.terseLabel = u"RoPE"_s;
    panel.summaryOwner = u"RoPE's"_s;
    panel.summaryNoun = u"score"_s;
    panel.colour = 0x0072B2;
    panel.bandValueName = u"RoPE score of q = k all ones"_s;
    panel.inputs = {Quantity::RopeScore};
    panel.evaluationsPerOffset = [](const Params &params) -> std::int64_t {
        const Params rotary = rotaryOf(params);
        return rotary.validate().isEmpty() ? RopeFrequencies::pairs(rotary.rope) : 0;
    };
    panel.compute = ropePanelData;
    return panel;
}


} // namespace posenc
