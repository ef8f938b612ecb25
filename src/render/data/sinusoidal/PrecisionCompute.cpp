#include "PrecisionCompute.h"

#include "render/data/HeatmapResampler.h"

#include "core/ThreadPools.h"

#include <algorithm>
#include <cmath>

namespace posenc::PrecisionCompute {

namespace {

constexpr std::int64_t kTileCells = std::int64_t(1) << 18;
// A cell of the error table forms its angle in float32 and in double and takes both sines:
// measured 8 times as long as a cell of Y. Each panel gets half the cap of every figure.
constexpr std::int64_t kErrorCellCost = 8;
constexpr std::int64_t kPanelCap = Budget::kMaxExactCells / 2 / kErrorCellCost;

// Rows [first, end) of the view split into `bands` equal bands.
std::int64_t bandStart(std::int64_t first, std::int64_t count, int bands, int b)
{
    return first + count * b / bands;
}

Block cellsOf(const Params &params, const PanelExtent &lower)
{
    // Positions across, columns down: the table of shape [L, k] seen transposed.
    const Block b = HeatmapResampler::visibleBlock({PrecisionModel::columns(params), params.maxLen}, lower.x.lower,
                                                   lower.x.upper,
                                                   lower.y.lower, lower.y.upper);
    return {b.col0, b.cols, b.row0, b.rows};
}

} // namespace

std::int64_t fullDetailShare(const Block &block)
{
    const double cost = Budget::exactCost(block.rows, block.cols);
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(cost / static_cast<double>(kPanelCap))));
}

std::int64_t fastestColumns(const Block &block, int bands, int pixelRows)
{
    const double onePositionEach = static_cast<double>(bands) * Budget::exactCost(1, block.cols);
    if (onePositionEach <= static_cast<double>(kPanelCap))
        return 0;
    // A column taken from a lone wide row costs what the row's columns cost on average.
    const double perColumn = Budget::exactCost(1, block.cols) / static_cast<double>(block.cols);
    const double columns = static_cast<double>(kPanelCap) / (static_cast<double>(bands) * pixelRows * perColumn);
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(columns));
}

std::int64_t cellsInView(const Params &params, const PanelExtent &lower)
{
    return cellsOf(params, lower).cells();
}

BandMaximum bandMaximum(const Engine &engine, std::int64_t first, std::int64_t end, std::int64_t cells)
{
    const Params &params = engine.params();
    const std::vector<double> w = PrecisionModel::frequencies(params);
    const double amplitude = PrecisionModel::amplitude(params);
    const auto pairs = static_cast<std::int64_t>(w.size());
    BandMaximum result;
    RowMatrixXf column(end - first, 1);
    std::int64_t taken = 0;
    for (std::int64_t i = 0; i < pairs; ++i) {
        // Frequencies fall with the pair: no later column can do better than this bound.
        if (PrecisionModel::bound(end - 1, w[static_cast<std::size_t>(i)], amplitude) <= result.largest)
            break;
        if (taken >= cells) {
            result.complete = false;
            break;
        }
        for (const bool isCos : {false, true}) {
            const std::int64_t j = PrecisionModel::column(params, i, isCos);
            if (j < 0)
                continue;
            engine.computeBlock(Quantity::Error, {first, end - first, j, 1}, column);
            result.largest = std::max(result.largest, static_cast<double>(column.array().abs().maxCoeff()));
            taken += end - first;
        }
        result.pairs = i + 1;
    }
    return result;
}

std::optional<PrecisionData> compute(const Engine &engine, const PanelExtent &upper, const PanelExtent &lower,
                                     Detail detail, int threads, const std::atomic<bool> *cancel)
{
    const Params &params = engine.params();
    const std::vector<double> w = PrecisionModel::frequencies(params);
    PrecisionData data;
    data.peColumns = PrecisionModel::columns(params);
    data.rope = params.encoding == Encoding::Rope;
    data.index = TitleText::rowIndex(params);
    data.amplitude = PrecisionModel::amplitude(params);

    // Upper panel: one band of positions per pixel, exact.
    const auto rows = TableView::cellsInView(upper.x.lower, upper.x.upper, params.maxLen);
    if (rows) {
        const std::int64_t count = rows->second - rows->first;
        const int bands = static_cast<int>(std::min<std::int64_t>(count, std::max(1, upper.pixels().width())));
        std::vector<double> maxima(static_cast<std::size_t>(bands));
        std::vector<BandMaximum> found(static_cast<std::size_t>(bands));
        // Each band's share of the cap: at d 2^20 every pair's bound stays above the errors found,
        // and all of them would take hours.
        const std::int64_t cap = detail == Detail::Preview ? Budget::cells(Detail::Full) : kPanelCap;
        const std::int64_t bandCells = std::max<std::int64_t>(1, cap / bands);
        if (!forEachTile(bands, threads, cancel, [&](std::int64_t b) {
                found[static_cast<std::size_t>(b)]
                    = bandMaximum(engine, bandStart(rows->first, count, bands, int(b)),
                                  bandStart(rows->first, count, bands, int(b) + 1), bandCells);
                maxima[static_cast<std::size_t>(b)] = found[static_cast<std::size_t>(b)].largest;
            }))
            return std::nullopt;
        data.bandPairs = static_cast<std::int64_t>(w.size());
        for (const BandMaximum &band : found) {
            if (!band.complete) {
                data.bandPairsComplete = false;
                data.bandPairs = std::min(data.bandPairs, band.pairs);
            }
        }
        data.bandPositions = static_cast<double>(count) / bands;
        const double fastest = w.empty() ? 0.0 : w.front();
        for (int b = 0; b < bands; ++b) {
            const std::int64_t a = bandStart(rows->first, count, bands, b);
            const std::int64_t e = bandStart(rows->first, count, bands, b + 1);
            data.bandCentre.append(0.5 * static_cast<double>(a + e - 1));
            data.bandMax.append(maxima[static_cast<std::size_t>(b)]);
            data.bound.append(PrecisionModel::bound(e - 1, fastest, data.amplitude));
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
    if (detail == Detail::Preview) {
        data.stride = std::max<std::int64_t>(1, block.cells() / Budget::cells(Detail::Preview));
    } else {
        data.share = fullDetailShare(block);
        data.columnsTaken = fastestColumns(block, data.cols, data.rows);
    }
    data.maxima.assign(static_cast<std::size_t>(data.rows) * data.cols, 0.0f);
    std::vector<std::pair<double, std::int64_t>> largest(static_cast<std::size_t>(data.cols), {0.0, 0});
    // The largest |error| of `tile` (rows from position p, columns from c0 of the block) into
    // its pixels of band b.
    const auto take = [&](const RowMatrixXf &tile, std::int64_t b, std::int64_t p, std::int64_t c0) {
        for (Eigen::Index r = 0; r < tile.rows(); ++r) {
            for (Eigen::Index i = 0; i < tile.cols(); ++i) {
                const float e = std::abs(tile(r, i));
                const int y = static_cast<int>((c0 + i) * data.rows / block.cols);
                float &cell = data.maxima[static_cast<std::size_t>(y) * data.cols + b];
                cell = std::max(cell, e);
                auto &best = largest[static_cast<std::size_t>(b)];
                if (e > best.first)
                    best = {e, p + r * data.stride};
            }
        }
    };
    const bool done = forEachTile(data.cols, threads, cancel, [&](std::int64_t b) {
        std::int64_t first = bandStart(block.row0, block.rows, data.cols, int(b));
        const std::int64_t end = bandStart(block.row0, block.rows, data.cols, int(b) + 1);
        RowMatrixXf tile;
        if (data.columnsTaken > 0) {
            // Past the cap with one position a pixel: its last position, and of each pixel row
            // the first columns, the fastest, where the error is largest.
            for (int y = 0; y < data.rows; ++y) {
                const std::int64_t c0 = (y * block.cols + data.rows - 1) / data.rows;
                const std::int64_t c1 = ((y + 1) * block.cols + data.rows - 1) / data.rows;
                tile.resize(1, std::min(data.columnsTaken, c1 - c0));
                engine.computeBlock(Quantity::Error, {end - 1, 1, block.col0 + c0, tile.cols()}, tile);
                take(tile, b, end - 1, c0);
                if (cancel && cancel->load(std::memory_order_relaxed))
                    return;
            }
            return;
        }
        // Past the cap, the last of the pixel's positions, consecutive: the error grows with p.
        first = std::max(first, end - (end - first + data.share - 1) / data.share);
        const std::int64_t tileRows = std::max<std::int64_t>(1, kTileCells / block.cols);
        for (std::int64_t p = first; p < end; p += data.stride * tileRows) {
            const std::int64_t n = std::min(tileRows, (end - p + data.stride - 1) / data.stride);
            tile.resize(n, block.cols);
            if (data.stride == 1) {
                engine.computeBlock(Quantity::Error, {p, n, block.col0, block.cols}, tile);
            } else {
                for (std::int64_t r = 0; r < n; ++r)
                    engine.computeBlock(Quantity::Error, {p + r * data.stride, 1, block.col0, block.cols}, tile.row(r));
            }
            take(tile, b, p, 0);
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
