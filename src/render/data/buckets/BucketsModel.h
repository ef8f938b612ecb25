#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"
#include "render/data/VisibleCells.h"

#include <QList>
#include <QString>

#include <optional>

namespace posenc {

// One staircase of the buckets figure over distances 1.. (a log axis): the first distance of each
// run of one bucket and that bucket, then the farthest distance again, drawn as steps.
struct BucketSteps
{
    QList<double> distance;
    QList<double> bucket;
};

// The buckets figure's data: the bucket against the distance for T5 (bidirectional, both sides,
// and causal) and DeBERTa, exact at every distance, and the L x L map of the chosen family.
struct BucketsData : FigureData
{
    std::int64_t farthest = 0; // the curves' last distance
    std::int64_t maxLen = 0;
    // T5 (HF _relative_position_bucket): keys after the query (bidirectional's upper half), keys
    // before it, and the causal map's keys before it (every key after is bucket 0).
    BucketSteps t5After, t5Before, t5Causal;
    std::int64_t t5Buckets = 0, t5MaxDistance = 0;
    std::int64_t t5ExactBidirectional = 0, t5ExactCausal = 0; // max_exact: distances below have their own
    bool t5IsCausal = false; // the parameters' direction
    // Which maps the settings allow: the bidirectional one needs an even count of at least 4, each
    // a max_distance past its exact distances.
    bool t5HasBidirectional = false, t5HasCausal = false;
    std::optional<QString> t5Problem; // why T5 is not drawn (its settings, under another encoding)
    // DeBERTa (make_log_bucket_position): |bucket| against |i - j|, the same on both sides.
    BucketSteps deberta;
    std::int64_t debertaBuckets = 0, debertaMaxPosition = 0, debertaMid = 0;
    // The distances whose bucket is the last the attention reads unclamped, buckets - 1: from the
    // first that reaches it (rounded up, before max_position - 1) to the last before it grows past (0:
    // it never does, at buckets 2).
    std::int64_t debertaTopFrom = 0, debertaTopTo = 0;
    std::optional<QString> debertaProblem;
    // The map of the chosen family over the queries (down) and keys (across) in view, each pixel
    // the exact mean bucket of its cells.
    Encoding family = Encoding::T5;
    HeatmapGrid map;
    double mapLow = 0.0, mapHigh = 1.0; // its colour range, from the parameters and the view
};

// "Relative position buckets": how T5 and DeBERTa turn a distance into a bucket, exact near and
// logarithmic far: the bucket against the distance (log axis) for T5 bidirectional (keys before
// and after the query) and causal, and for DeBERTa, with the exact and logarithmic ranges marked,
// T5's cap at buckets - 1 past max_distance and DeBERTa's buckets growing past max_position;
// beside them the L x L map of the chosen family's buckets, per pixel in closed form at any L
// (DiagonalMeans). Its view: the map's "keys" and "queries", the curves' "distances".
class BucketsModel final : public FigureModel
{
public:
    static constexpr const char16_t *kKeysAxis = VisibleCells::kKeysAxis;
    static constexpr const char16_t *kQueriesAxis = VisibleCells::kQueriesAxis;
    static constexpr char16_t kDistancesAxis[] = u"distances";

    // The curves' last distance: max_len - 1, and at least twice T5's max_distance and DeBERTa's
    // max_position, so that the cap and the growth past it show at any L.
    static std::int64_t farthest(const Params &params);
    // The bucket of diagonal k = j - i (key minus query) in the map of `family`.
    static std::int64_t mapBucket(const Params &params, Encoding family, std::int64_t k);
    // The curves alone, and the map for a panel, widget-free.
    static BucketsData curves(const Params &params);
    static std::optional<BucketsData> compute(const Params &params, const PanelExtent &map,
                                              const std::atomic<bool> *cancel);
    // Why the family's buckets cannot be drawn from these parameters, if they cannot.
    static std::optional<QString> problem(const Params &params, Encoding family);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<Encoding> families() const override { return {Encoding::T5, Encoding::Deberta}; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
