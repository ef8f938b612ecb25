#include "PrecisionCompute.h"

#include "render/data/HeatmapResampler.h"

#include "core/ThreadPools.h"
#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>

namespace posenc::PrecisionCompute {

namespace {

constexpr std::int64_t kTileCells = std::int64_t(1) << 18;

// Rows [first, end) of the view split into `bands` equal bands.
std::int64_t bandStart(std::int64_t first, std::int64_t count, int bands, int b)
{
    return first + count * b / bands;
}

Block cellsOf(const Params &params, const PanelExtent &lower)
{
    // Positions across, columns down: the table of shape [L, k] seen transposed.
    const Block b = HeatmapResampler::visibleBlock({params.peColumns(), params.maxLen}, lower.x.lower, lower.x.upper,
                                                   lower.y.lower, lower.y.upper);
    return {b.col0, b.cols, b.row0, b.rows};
}

} // namespace

std::int64_t cellsInView(const Params &params, const PanelExtent &lower)
{
    return cellsOf(params, lower).cells();
}

double bandMaximum(const Engine &engine, std::int64_t first, std::int64_t end)
{
    const Params &params = engine.params();
    const std::int64_t k = params.peColumns();
    const std::int64_t pairs = Frequencies::pairCount(k);
    double largest = 0.0;
    RowMatrixXf column(end - first, 1);
    for (std::int64_t i = 0; i < pairs; ++i) {
        // Frequencies fall with the pair: no later column can do better than this bound.
        if (PrecisionModel::bound(end - 1, Frequencies::angular(i, k, params.sinusoidal.base)) <= largest)
            break;
        for (const bool isCos : {false, true}) {
            const std::int64_t j = Frequencies::column({i, isCos}, k, params.sinusoidal.layout);
            if (j < 0)
                continue;
            engine.computeBlock(Quantity::Error, {first, end - first, j, 1}, column);
            largest = std::max(largest, static_cast<double>(column.array().abs().maxCoeff()));
        }
    }
    return largest;
}

std::optional<PrecisionData> compute(const Engine &engine, const PanelExtent &upper, const PanelExtent &lower,
                                     Detail detail, int threads, const std::atomic<bool> *cancel)
{
    const Params &params = engine.params();
    const std::int64_t k = params.peColumns();
    PrecisionData data;
    data.peColumns = k;

    // Upper panel: one band of positions per pixel, exact.
    const auto rows = TableView::cellsInView(upper.x.lower, upper.x.upper, params.maxLen);
    if (rows) {
        const std::int64_t count = rows->second - rows->first;
        const int bands = static_cast<int>(std::min<std::int64_t>(count, std::max(1, upper.pixels().width())));
        std::vector<double> maxima(static_cast<std::size_t>(bands));
        if (!forEachTile(bands, threads, cancel, [&](std::int64_t b) {
                maxima[static_cast<std::size_t>(b)] = bandMaximum(engine, bandStart(rows->first, count, bands, int(b)),
                                                                  bandStart(rows->first, count, bands, int(b) + 1));
            }))
            return std::nullopt;
        data.bandPositions = static_cast<double>(count) / bands;
        const double fastest = Frequencies::angular(0, k, params.sinusoidal.base);
        for (int b = 0; b < bands; ++b) {
            const std::int64_t a = bandStart(rows->first, count, bands, b);
            const std::int64_t e = bandStart(rows->first, count, bands, b + 1);
            data.bandCentre.append(0.5 * static_cast<double>(a + e - 1));
            data.bandMax.append(maxima[static_cast<std::size_t>(b)]);
            data.bound.append(PrecisionModel::bound(e - 1, fastest));
        }
    }

    // Lower panel: the largest |error| of each pixel, every position of it in full detail.
    data.block = cellsOf(params, lower);
    const Block &block = data.block;
    if (block.isEmpty())
        return data;
    const QSize pixels = lower.pixels();
    data.cols = static_cast<int>(std::min<std::int64_t>(block.rows, pixels.width()));
    data.rows = static_cast<int>(std::min<std::int64_t>(block.cols, pixels.height()));
    if (detail == Detail::Preview)
        data.stride = std::max<std::int64_t>(1, block.cells() / Budget::cells(Detail::Preview));
    data.maxima.assign(static_cast<std::size_t>(data.rows) * data.cols, 0.0f);
    std::vector<std::pair<double, std::int64_t>> largest(static_cast<std::size_t>(data.cols), {0.0, 0});
    const bool done = forEachTile(data.cols, threads, cancel, [&](std::int64_t b) {
        const std::int64_t first = bandStart(block.row0, block.rows, data.cols, int(b));
        const std::int64_t end = bandStart(block.row0, block.rows, data.cols, int(b) + 1);
        const std::int64_t tileRows = std::max<std::int64_t>(1, kTileCells / block.cols);
        RowMatrixXf tile;
        for (std::int64_t p = first; p < end; p += data.stride * tileRows) {
            const std::int64_t n = std::min(tileRows, (end - p + data.stride - 1) / data.stride);
            tile.resize(n, block.cols);
            if (data.stride == 1) {
                engine.computeBlock(Quantity::Error, {p, n, block.col0, block.cols}, tile);
            } else {
                for (std::int64_t r = 0; r < n; ++r)
                    engine.computeBlock(Quantity::Error, {p + r * data.stride, 1, block.col0, block.cols}, tile.row(r));
            }
            for (std::int64_t r = 0; r < n; ++r) {
                for (std::int64_t c = 0; c < block.cols; ++c) {
                    const float e = std::abs(tile(r, c));
                    const int y = static_cast<int>(c * data.rows / block.cols);
                    float &cell = data.maxima[static_cast<std::size_t>(y) * data.cols + b];
                    cell = std::max(cell, e);
                    auto &best = largest[static_cast<std::size_t>(b)];
                    if (e > best.first)
                        best = {e, p + r * data.stride};
                }
            }
            if (cancel && cancel->load(std::memory_order_relaxed))
                return;
        }
    });
    if (!done)
        return std::nullopt;
    for (const auto &[value, at] : largest) {
        if (value > data.largest) {
            data.largest = value;
            data.largestAt = at;
        }
    }
    return data;
}

} // namespace posenc::PrecisionCompute
