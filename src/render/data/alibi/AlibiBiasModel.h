#pragma once

#include "render/data/HeadBiasModel.h"

namespace posenc {

// The alibi-bias figure's data: head K's bias over the queries and keys in view, under the causal
// mask and symmetric, at screen resolution, each pixel the exact mean of its cells.
struct AlibiBiasData : FigureData
{
    HeatmapGrid causal; // NaN where every cell of a pixel is masked (-inf)
    HeatmapGrid symmetric;
    double slope = 0.0; // m_K
    std::int64_t heads = 0;
    std::int64_t head = 1;
    std::int64_t maxLen = 0;
    AlibiMask mask = AlibiMask::Causal; // the parameters' mask: the panel the model uses
    // The colour scale's low end, -m times the farthest query-key distance in view: from the
    // parameters and the view, never from the pixels, so a PNG colours as the window does.
    double lowest = -1.0;
};

// "ALiBi bias": the bias head K adds to query i's score of key j, side by side under the causal
// mask (-m(i - j) for j <= i, -inf above the diagonal, drawn as masked) and symmetric (-m|i - j|),
// on one colour scale, computed per pixel in closed form at any L (AlibiBiasMeans). Its view:
// "keys" (j, across) and "queries" (i, down), the whole table at first (--positions A:B for a
// part of it).
class AlibiBiasModel final : public HeadBiasModel
{
public:
    AlibiBiasModel();

    // The low end of the colour scale for `slope` over `block`: -m times its farthest |i - j|
    // (at least 1).
    static double lowest(double slope, const Block &block);
    // The data for the panels' extents (the causal panel's, then the symmetric one's).
    static std::optional<AlibiBiasData> compute(const Params &params, const PanelExtent &causal,
                                                const PanelExtent &symmetric, const std::atomic<bool> *cancel);

    QList<Encoding> families() const override { return {Encoding::Alibi}; }

protected:
    Quantity quantity() const override { return Quantity::AlibiBias; }
    std::shared_ptr<const FigureData> dataFor(const Params &params, const PanelExtent &causal,
                                              const PanelExtent &symmetric,
                                              const std::atomic<bool> *cancel) const override;
};

} // namespace posenc
