#include "BucketsModel.h"

#include "core/deberta/DebertaBuckets.h"
#include "core/t5/T5Buckets.h"
#include "render/data/DiagonalMeans.h"
#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The staircase of `f` over distances 1..farthest: its runs, each drawn from its first distance.
BucketSteps bucketStepsOf(std::int64_t farthest, const std::function<double(std::int64_t)> &f)
{
    BucketSteps steps;
    if (farthest < 1)
        return steps;
    for (const DiagonalRun &run : DiagonalMeans::runs(1, farthest, f)) {
        steps.distance.append(static_cast<double>(run.first));
        steps.bucket.append(run.value);
    }
    steps.distance.append(static_cast<double>(farthest));
    steps.bucket.append(steps.bucket.back());
    return steps;
}

} // namespace

std::optional<QString> BucketsModel::problem(const Params &params, Encoding family)
{
    return family == Encoding::T5 ? T5Buckets::problem(params) : DebertaBuckets::problem(params);
}

std::int64_t BucketsModel::farthest(const Params &params)
{
    return std::max({params.maxLen - 1, 2 * params.t5.maxDistance, 2 * params.deberta.maxPosition});
}

std::int64_t BucketsModel::mapBucket(const Params &params, Encoding family, std::int64_t k)
{
    return family == Encoding::Deberta ? DebertaBuckets::ofOffset(params, k) : T5Buckets::ofOffset(params, k);
}

BucketsData BucketsModel::curves(const Params &params)
{
    BucketsData data;
    data.maxLen = params.maxLen;
    data.farthest = farthest(params);
    data.family = params.encoding == Encoding::Deberta ? Encoding::Deberta : Encoding::T5;
    const T5Params &t5 = params.t5;
    data.t5Buckets = t5.buckets;
    data.t5MaxDistance = t5.maxDistance;
    data.t5IsCausal = t5.causal;
    data.t5Problem = problem(params, Encoding::T5);
    if (!data.t5Problem) {
        data.t5ExactBidirectional = T5Buckets::maxExact(t5.buckets, true);
        data.t5ExactCausal = T5Buckets::maxExact(t5.buckets, false);
        const auto t5Bucket = [&t5](std::int64_t relative, bool bidirectional) {
            return static_cast<double>(T5Buckets::bucket(relative, t5.buckets, t5.maxDistance, bidirectional));
        };
        // The bidirectional map halves the buckets: an odd count (valid for the causal map) has none.
        data.t5HasBidirectional
            = t5.buckets % 2 == 0 && t5.buckets >= 4 && t5.maxDistance > T5Buckets::maxExact(t5.buckets, true);
        data.t5HasCausal = t5.maxDistance > T5Buckets::maxExact(t5.buckets, false);
        if (data.t5HasBidirectional) {
            data.t5After = bucketStepsOf(data.farthest, [&](std::int64_t d) { return t5Bucket(d, true); });
            data.t5Before = bucketStepsOf(data.farthest, [&](std::int64_t d) { return t5Bucket(-d, true); });
        }
        if (data.t5HasCausal)
            data.t5Causal = bucketStepsOf(data.farthest, [&](std::int64_t d) { return t5Bucket(-d, false); });
    }
    const DebertaParams &deberta = params.deberta;
    data.debertaBuckets = deberta.buckets;
    data.debertaMaxPosition = deberta.maxPosition;
    data.debertaMid = deberta.buckets / 2;
    data.debertaProblem = problem(params, Encoding::Deberta);
    if (!data.debertaProblem) {
        data.debertaTopFrom
            = DebertaBuckets::firstReaching(deberta.buckets - 1, deberta.buckets, deberta.maxPosition).value_or(1);
        const auto past = DebertaBuckets::firstReaching(deberta.buckets, deberta.buckets, deberta.maxPosition);
        data.debertaTopTo = past ? *past - 1 : 0;
    }
    if (!data.debertaProblem)
        data.deberta = bucketStepsOf(data.farthest, [&deberta](std::int64_t d) {
            return static_cast<double>(DebertaBuckets::bucket(d, deberta.buckets, deberta.maxPosition));
        });
    return data;
}

std::optional<BucketsData> BucketsModel::compute(const Params &params, const PanelExtent &map,
                                                 const std::atomic<bool> *cancel)
{
    BucketsData data = curves(params);
    if ((data.family == Encoding::T5 ? data.t5Problem : data.debertaProblem))
        return data;
    const HeatmapRequest visible
        = VisibleCells::request(map, data.family == Encoding::Deberta ? Quantity::DebertaBucket : Quantity::T5Bucket,
                                {params.maxLen, params.maxLen});
    const Block &block = visible.block;
    const std::int64_t first = DiagonalMeans::firstDiagonal(block), last = DiagonalMeans::lastDiagonal(block);
    const Encoding family = data.family;
    const auto runs = DiagonalMeans::runs(
        first, last, [&](std::int64_t k) { return static_cast<double>(mapBucket(params, family, k)); });
    auto grid = DiagonalMeans::grid(runs, block, visible.pixelRows, visible.pixelCols, cancel);
    if (!grid)
        return std::nullopt;
    data.map = std::move(*grid);
    if (family == Encoding::T5) {
        data.mapLow = 0.0;
        data.mapHigh = static_cast<double>(std::max<std::int64_t>(params.t5.buckets - 1, 1));
    } else {
        // Signed and growing with the distance: symmetric over the farthest bucket in view.
        const auto extent = static_cast<double>(std::max(
            {std::abs(mapBucket(params, family, first)), std::abs(mapBucket(params, family, last)), std::int64_t(1)}));
        data.mapLow = -extent;
        data.mapHigh = extent;
    }
    data.map.colourExtent = std::max(std::abs(data.mapLow), std::abs(data.mapHigh));
    return data;
}

QString BucketsModel::name() const
{
    return u"buckets"_s;
}

QString BucketsModel::title() const
{
    return u"Relative position buckets"_s;
}

QString BucketsModel::summary() const
{
    return u"the bucket against relative distance (log axis) for T5, bidirectional and causal, and DeBERTa, exact "
           "and logarithmic ranges marked, beside the L x L map of the chosen family's buckets"_s;
}

QList<FigureOption> BucketsModel::ownOptions() const
{
    return {ViewOptions::positions(u"queries and keys A..B-1 of the map in view"_s)};
}

QList<Quantity> BucketsModel::inputs(const FigureState &) const
{
    return {Quantity::T5Bucket, Quantity::DebertaBucket};
}

std::optional<TableRequest> BucketsModel::table(const Params &params, const FigureState &state) const
{
    // The map's cells in view: `posenc table t5-bucket` (or deberta-bucket) `--positions A:B --dims C:D`.
    return VisibleCells::queryKeyCells(
        params.encoding == Encoding::Deberta ? Quantity::DebertaBucket : Quantity::T5Bucket, params.maxLen, state);
}

QList<ParamError> BucketsModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, params.maxLen);
}

FigureResult BucketsModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    // Panels: the T5 curves, the DeBERTa curves, the map.
    auto data = compute(request.engine->params(), request.panels.value(2), &cancel);
    if (!data)
        return {};
    return {std::make_shared<const BucketsData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
