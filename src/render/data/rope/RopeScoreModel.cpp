#include "RopeScoreModel.h"

#include "core/rope/RopeText.h"

#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeScore.h"

#include "core/positions/BatchLayout.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The distances of one pixel: [first, end), and those of them computed.
struct PixelDistances
{
    std::int64_t first = 0;
    std::int64_t end = 0;
    std::vector<std::int64_t> rows;
};

void widen(RopeScoreSeries &series, qsizetype at, double lo, double hi)
{
    if (at == series.lo.size()) {
        series.lo.append(lo);
        series.hi.append(hi);
        return;
    }
    series.lo[at] = std::min(series.lo[at], lo);
    series.hi[at] = std::max(series.hi[at], hi);
}

} // namespace

std::optional<RopeScoreData> RopeScoreModel::compute(const Engine &engine, double lower, double upper, int pixels,
                                                     std::int64_t maxRows, const ComputeOptions &options)
{
    const Params &params = engine.params();
    RopeScoreData data;
    // The distances the attention sees: a chunked or sliding-window layer scores no key past its
    // reach, so none is drawn as if it did (Llama 4 Scout's RoPE layers, chunks of 8,192 of 131,072).
    data.last = BatchLayout::farthestKey(params);
    data.reach = BatchLayout::farthestKeyWhy(params);
    data.pairs = RopeFrequencies::pairs(params.rope);
    data.headDim = params.rope.headDim;
    data.scaling = RopeText::scalingText(params);
    data.model = RopeText::modelText(params);
    if (data.last < 1)
        return data;
    // The integer distances in view, on a log axis of `pixels` pixels.
    const double x0 = std::max(lower, 1.0);
    const double x1 = std::min(std::max(upper, x0 * 1.0001), static_cast<double>(data.last));
    const auto first = static_cast<std::int64_t>(std::ceil(x0));
    const auto end = static_cast<std::int64_t>(std::floor(x1)) + 1;
    if (first >= end)
        return data;
    const int n = std::max(pixels, 1);
    const double span = std::log(std::max(x1 / x0, 1.0000001));
    const auto pixelOf = [&](std::int64_t k) {
        return std::clamp(static_cast<int>(std::floor(n * std::log(double(k) / x0) / span)), 0, n - 1);
    };
    // The pixels' distances: each pixel's run of integers, all of them within the cap, else an
    // even sample of each crowded pixel.
    QList<PixelDistances> groups;
    for (std::int64_t k = first; k < end;) {
        const int pixel = pixelOf(k);
        // The first distance of the next pixel: x0 e^((pixel + 1) span / n), rounded up, past k.
        const double next = x0 * std::exp(double(pixel + 1) * span / n);
        std::int64_t stop = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(next)), k + 1, end);
        while (stop < end && pixelOf(stop) == pixel)
            ++stop;
        while (stop - 1 > k && pixelOf(stop - 1) != pixel)
            --stop;
        groups.append({k, stop, {}});
        k = stop;
    }
    const std::int64_t total = end - first;
    const std::int64_t perPixel = std::max<std::int64_t>(maxRows / std::max<qsizetype>(groups.size(), 1), 2);
    for (PixelDistances &group : groups) {
        const std::int64_t count = group.end - group.first;
        if (total <= maxRows || count <= perPixel) {
            for (std::int64_t k = group.first; k < group.end; ++k)
                group.rows.push_back(k);
            continue;
        }
        data.perPixel = perPixel;
        for (std::int64_t s = 0; s < perPixel; ++s)
            group.rows.push_back(group.first + s * (count - 1) / (perPixel - 1));
    }
    // The rows, computed in runs of consecutive distances.
    std::vector<std::int64_t> rows;
    for (const PixelDistances &group : groups)
        rows.insert(rows.end(), group.rows.begin(), group.rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    RowMatrixXf cells(static_cast<Eigen::Index>(rows.size()), 4);
    for (std::size_t r = 0; r < rows.size();) {
        std::size_t stop = r + 1;
        while (stop < rows.size() && rows[stop] == rows[stop - 1] + 1)
            ++stop;
        const Block block {rows[r], static_cast<std::int64_t>(stop - r), 0, 4};
        auto out = cells.middleRows(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(stop - r));
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        if (block.rows >= 64) {
            if (!engine.compute(Quantity::RopeScore, block, out, options))
                return std::nullopt;
        } else {
            engine.computeBlock(Quantity::RopeScore, block, out);
        }
        r = stop;
    }
    data.computed = static_cast<std::int64_t>(rows.size());
    std::size_t at = 0;
    for (const PixelDistances &group : groups) {
        const qsizetype point = data.distance.size();
        const double a = static_cast<double>(group.first), b = static_cast<double>(group.end - 1);
        data.distance.append(std::sqrt(a * b));
        for (const std::int64_t k : group.rows) {
            while (rows[at] != k)
                ++at;
            const auto row = cells.row(static_cast<Eigen::Index>(at));
            const double mean = row(Mean), std = row(Std);
            widen(data.aligned, point, row(Aligned), row(Aligned));
            widen(data.mean, point, mean, mean);
            widen(data.band, point, mean - std, mean + std);
            widen(data.bound, point, row(Bound), row(Bound));
        }
    }
    return data;
}

QString RopeScoreModel::name() const
{
    return u"rope-score"_s;
}

QString RopeScoreModel::title() const
{
    return u"RoPE score against distance"_s;
}

QString RopeScoreModel::summary() const
{
    return u"over relative distance k (log): the score of q = k (all ones), the mean of random unit pairs with a "
           "+-std band, and RoFormer's decay bound, from the rope-score table"_s;
}

QList<Quantity> RopeScoreModel::inputs(const FigureState &) const
{
    return {Quantity::RopeScore};
}

bool RopeScoreModel::hasPreview(const FigureRequest &request) const
{
    return BatchLayout::farthestKey(request.engine->params()) > kPreviewRows;
}

std::optional<TableRequest> RopeScoreModel::table(const Params &params, const FigureState &) const
{
    // Every distance: `posenc table rope-score`.
    return TableRequest {TableRequest::Cells, Quantity::RopeScore, {0, params.maxLen, 0, 4}, {}};
}

FigureResult RopeScoreModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const PanelExtent panel = request.panels.value(0);
    // A distance's row costs 2 h (256 + 1) products of h pairs: at head_dim 2^16 the 2^17 rows of
    // the full detail took hours. Within Detail.h's bounds, an even sample of each crowded pixel.
    const double rowCost = 2.0
        * double(std::max<std::int64_t>(1, RopeFrequencies::pairs(request.engine->params().rope)))
        * double(RopeScore::kSamples + 1);
    const double within
        = request.detail == Detail::Preview ? double(Budget::cells(Detail::Preview)) : double(Budget::kMaxExactCells);
    const std::int64_t cap = std::min(request.detail == Detail::Preview ? kPreviewRows : kMaxRows,
                                      std::max<std::int64_t>(64, static_cast<std::int64_t>(within / rowCost)));
    auto data = compute(*request.engine, panel.x.lower, panel.x.upper, panel.pixels().width(), cap,
                        {request.threads, &cancel});
    if (!data)
        return {};
    data->preview = request.detail == Detail::Preview && data->perPixel > 0;
    return {std::make_shared<const RopeScoreData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
