#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

namespace posenc {

// A series of the rope-score figure at screen resolution: one point per pixel of the distance
// axis that holds a computed distance, its least and its most there (equal where the pixel
// holds one distance).
struct RopeScoreSeries
{
    QList<double> lo, hi;
};

// The rope-score figure's data over relative distances k >= 1 on a log axis (the rope-score
// table's rows): the score of q = k, the random pairs' mean and its +-std band, RoFormer's bound.
struct RopeScoreData : FigureData
{
    QList<double> distance; // each point's distance: its pixel's distances' geometric middle
    RopeScoreSeries aligned; // <q, R(k) q> / |q|^2, q all ones
    RopeScoreSeries mean; // the random unit pairs' mean of <R(m) q, R(m + k) k>
    RopeScoreSeries band; // mean - std .. mean + std
    RopeScoreSeries bound; // RoFormer's (1/h) sum_j |S_j|
    // The longest distance: max_len - 1, or the farthest key the attention sees (BatchLayout::farthestKey).
    std::int64_t last = 0;
    QString reach; // why `last` is below max_len - 1 ("attend within chunks of 8,192 positions"); else empty
    std::int64_t computed = 0; // the distances computed
    // Past the cap of a figure the long distances' pixels take `perPixel` evenly spaced distances
    // each (0: every distance computed).
    std::int64_t perPixel = 0;
    bool preview = false;
    std::int64_t pairs = 0; // h, the rotary pairs
    std::int64_t headDim = 0; // q's columns: the 2h turned and the rest, which add 1 each to q all ones
    QString scaling, model;
};

// The RoPE score against distance: over relative distance k (log), up to the farthest key the
// attention sees (BatchLayout::farthestKey), the score of q = k (all ones), the mean of 256 seeded
// random unit pairs with a +-std band, and RoFormer's decay bound
// (1/h) sum_j |S_j| below, from the rope-score table (Barbero et al. 2024, arXiv 2410.06205: the
// decay holds for aligned q and k, not for random ones).
class RopeScoreModel final : public FigureModel
{
public:
    // The rope-score table's columns.
    enum Column { Aligned = 0, Mean = 1, Std = 2, Bound = 3 };
    // The distances a figure computes at most at each detail; past it, a sample per pixel.
    static constexpr std::int64_t kMaxRows = std::int64_t(1) << 17;
    // A preview takes about two distances a pixel of a view 600 pixels wide: each distance costs
    // its pairs' sines and cosines and kSamples products (4096 took 16 ms on one core).
    static constexpr std::int64_t kPreviewRows = std::int64_t(1) << 10;

    // The data for distances in [lower, upper] (a log axis's range, clamped to [1, max_len - 1])
    // over `pixels` pixels; nothing when cancelled.
    static std::optional<RopeScoreData> compute(const Engine &engine, double lower, double upper, int pixels,
                                                std::int64_t maxRows, const ComputeOptions &options);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Rope}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

    // Computed for its first panel's columns of pixels alone (FigureModel::extentsRead).
    QList<PanelExtent> extentsRead(const QList<PanelExtent> &panels) const override
    {
        return firstPanelColumns(panels);
    }

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
