#pragma once

#include "render/data/HeadBiasModel.h"

namespace posenc {

// The sandwich-bias figure's data: head K's bias over the queries and keys in view, as NeMo's
// causal table holds it and bidirectional, at screen resolution, each pixel the exact mean of
// its cells.
struct SandwichBiasData : FigureData
{
    HeatmapGrid causal;
    HeatmapGrid bidirectional;
    SandwichParams sandwich; // the parameters' group: its mask is the panel the model uses
    std::int64_t maxLen = 0;
    double afterQuery = 0.0; // what the causal table holds after the query
    double lowest = -1.0, highest = 0.0; // the colour scale: the two grids' least and most pixels
};

// "Sandwich bias": the bias head K adds to query i's score of key j, side by side as NeMo's causal
// table holds it (distance 0 after the query, torch.tril: not -inf, the attention mask hides those
// keys elsewhere) and bidirectional, on one colour scale, computed per pixel in closed form at any
// L (SandwichBiasMeans). Its view: "keys" (j, across) and "queries" (i, down), the whole table at
// first (--positions A:B for a part of it).
class SandwichBiasModel final : public HeadBiasModel
{
public:
    SandwichBiasModel();

    // The data for the panels' extents (the causal panel's, then the bidirectional one's).
    static std::optional<SandwichBiasData> compute(const Params &params, const PanelExtent &causal,
                                                   const PanelExtent &bidirectional, const std::atomic<bool> *cancel);

    QList<Encoding> families() const override { return {Encoding::Sandwich}; }

protected:
    Quantity quantity() const override { return Quantity::SandwichBias; }
    std::shared_ptr<const FigureData> dataFor(const Params &params, const PanelExtent &causal,
                                              const PanelExtent &bidirectional,
                                              const std::atomic<bool> *cancel) const override;
};

} // namespace posenc
