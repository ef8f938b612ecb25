#include "ColumnStatistics.h"

#include "OrderedTiles.h"
#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::ColumnStatistics {

namespace {

// Cells of one tile of rows: large enough to amortise a block's set-up.
constexpr std::int64_t kTileCells = std::int64_t(1) << 21;
// Bytes of partial moments kept before they are combined.
constexpr std::int64_t kPartialBytes = std::int64_t(32) << 20;
// Rows of one run of an estimate: consecutive rows amortise the set-up of a block.
constexpr std::int64_t kRunRows = 32;

// Count, mean and sum of squared deviations of each column.
struct Moments
{
    std::int64_t n = 0;
    Eigen::ArrayXd mean;
    Eigen::ArrayXd m2;
};

// One pass over the tile's rows as they lie in memory, with the data shifted by the tile's
// first row (a sample of each column, so that the sums of squares do not cancel whatever the
// columns' offsets): mean = K + S1 / n, M2 = S2 - S1^2 / n.
Moments momentsOf(const RowMatrixXf &tile)
{
    Moments m;
    m.n = tile.rows();
    const Eigen::Index cols = tile.cols();
    const Eigen::ArrayXd shift = tile.row(0).transpose().cast<double>().array();
    Eigen::ArrayXd s1 = Eigen::ArrayXd::Zero(cols), s2 = Eigen::ArrayXd::Zero(cols);
    const double *k = shift.data();
    double *sum = s1.data();
    double *squares = s2.data();
    for (Eigen::Index r = 1; r < m.n; ++r) {
        const float *row = tile.row(r).data();
        for (Eigen::Index c = 0; c < cols; ++c) {
            const double deviation = static_cast<double>(row[c]) - k[c];
            sum[c] += deviation;
            squares[c] += deviation * deviation;
        }
    }
    const double n = static_cast<double>(m.n);
    m.mean = shift + s1 / n;
    m.m2 = s2 - s1.square() / n;
    return m;
}

// Chan et al.'s update: the moments of the union of two sets of rows.
void merge(Moments &into, const Moments &part)
{
    if (part.n == 0)
        return;
    if (into.n == 0) {
        into = part;
        return;
    }
    const double na = static_cast<double>(into.n), nb = static_cast<double>(part.n);
    const Eigen::ArrayXd delta = part.mean - into.mean;
    into.mean += delta * (nb / (na + nb));
    into.m2 += part.m2 + delta.square() * (na * nb / (na + nb));
    into.n += part.n;
}

struct Run
{
    std::int64_t row0 = 0;
    std::int64_t rows = 0;
};

std::int64_t tileRowsFor(std::int64_t cols)
{
    return std::max<std::int64_t>(1, kTileCells / std::max<std::int64_t>(cols, 1));
}

// The moments of `quantity`'s columns [0, cols) over the rows of `runs`.
std::optional<Moments> rowMoments(const Engine &engine, Quantity quantity, std::int64_t cols,
                                  const std::vector<Run> &runs, const ComputeOptions &options)
{
    const std::int64_t tileRows = tileRowsFor(cols);
    if (engine.check(quantity, {0, std::min(tileRows, engine.params().maxLen), 0, cols}))
        return std::nullopt;
    std::vector<Run> tiles;
    for (const Run &run : runs)
        for (std::int64_t r = 0; r < run.rows; r += tileRows)
            tiles.push_back({run.row0 + r, std::min(tileRows, run.rows - r)});
    Moments total;
    total.mean = Eigen::ArrayXd::Zero(cols);
    total.m2 = Eigen::ArrayXd::Zero(cols);
    const std::int64_t chunk = std::max<std::int64_t>(1, kPartialBytes / (16 * std::max<std::int64_t>(cols, 1)));
    const bool done = forEachTileInOrder<Moments>(
        static_cast<std::int64_t>(tiles.size()), chunk, options.threads, options.cancel,
        [&](std::int64_t t) {
            const Run &tile = tiles[static_cast<std::size_t>(t)];
            RowMatrixXf values(tile.rows, cols);
            engine.computeBlock(quantity, {tile.row0, tile.rows, 0, cols}, values);
            return momentsOf(values);
        },
        [&](std::int64_t, const Moments &part) {
            merge(total, part);
            if (options.progress)
                options.progress->advance(part.n);
        });
    if (!done)
        return std::nullopt;
    return total;
}

void place(const Moments &m, std::int64_t offset, Eigen::ArrayXd &mean, Eigen::ArrayXd &std, Eigen::ArrayXd &rms)
{
    const auto n = static_cast<Eigen::Index>(m.mean.size());
    const Eigen::ArrayXd variance = m.m2 / static_cast<double>(std::max<std::int64_t>(m.n, 1));
    mean.segment(offset, n) = m.mean;
    std.segment(offset, n) = variance.sqrt();
    rms.segment(offset, n) = (m.mean.square() + variance).sqrt();
}

ColumnStats emptyStats(const Params &p)
{
    ColumnStats stats;
    for (Eigen::ArrayXd *a :
         {&stats.peMean, &stats.peStd, &stats.peRms, &stats.embeddingMean, &stats.embeddingStd, &stats.embeddingRms})
        *a = Eigen::ArrayXd::Zero(p.dModel);
    stats.maxLen = p.maxLen;
    return stats;
}

std::int64_t peOffset(const Params &p)
{
    return p.concatenates() ? p.embeddingColumns() : 0;
}

void placeClosedForm(const Params &p, ColumnStats &stats)
{
    const std::int64_t k = p.peColumns();
    Eigen::ArrayXd mean, meanSquare;
    sinusoidMoments(k, p.sinusoidal, p.maxLen, mean, meanSquare);
    const std::int64_t offset = peOffset(p);
    stats.peMean.segment(offset, k) = mean;
    stats.peStd.segment(offset, k) = (meanSquare - mean.square()).max(0.0).sqrt();
    stats.peRms.segment(offset, k) = meanSquare.sqrt();
}

std::optional<ColumnStats> statistics(const Engine &engine, const std::vector<Run> &runs, bool exact,
                                      const ComputeOptions &options)
{
    const Params &p = engine.params();
    ColumnStats stats = emptyStats(p);
    // The sinusoid's columns have closed forms; a learned table's are taken from its rows.
    const PositionalTable *kernel = engine.positionTerm().kernel();
    const bool closed = kernel && (kernel->angles() == Angles::Exact || !exact);
    if (options.progress) {
        std::int64_t rows = 0;
        for (const Run &run : runs)
            rows += run.rows;
        // s*E's rows, and the PE's as many again where its statistics come from its rows.
        options.progress->expect(closed || p.peColumns() == 0 ? rows : 2 * rows);
    }
    if (closed) {
        placeClosedForm(p, stats);
    } else if (p.peColumns() > 0) {
        const auto pe = rowMoments(engine, Quantity::Pe, p.peColumns(), runs, options);
        if (!pe)
            return std::nullopt;
        place(*pe, peOffset(p), stats.peMean, stats.peStd, stats.peRms);
    }
    const auto embedding = rowMoments(engine, Quantity::Embedding, p.embeddingColumns(), runs, options);
    if (!embedding)
        return std::nullopt;
    place(*embedding, 0, stats.embeddingMean, stats.embeddingStd, stats.embeddingRms);
    stats.rows = 0;
    for (const Run &run : runs)
        stats.rows += run.rows;
    return stats;
}

} // namespace

std::optional<QString> check(const Engine &engine)
{
    // Every tile, of s*E or of the PE, holds at most kTileCells cells: one of s*E stands for all.
    const Params &p = engine.params();
    const std::int64_t cols = p.embeddingColumns();
    return engine.check(Quantity::Embedding, {0, std::min(tileRowsFor(cols), p.maxLen), 0, cols});
}

void sinusoidMoments(std::int64_t dModel, const SinusoidalParams &params, std::int64_t maxLen, Eigen::ArrayXd &mean,
                     Eigen::ArrayXd &meanSquare)
{
    // sum_{p < L} e^{i p w} = e^{i (L - 1) w / 2} sin(L w / 2) / sin(w / 2); with 2w, the mean of
    // cos(2 p w) gives the mean squares: sin^2 = (1 - cos 2pw) / 2, cos^2 = (1 + cos 2pw) / 2.
    const double length = static_cast<double>(maxLen);
    mean.resize(dModel);
    meanSquare.resize(dModel);
    for (std::int64_t j = 0; j < dModel; ++j) {
        const ColumnRole role = Frequencies::role(j, dModel, params);
        const double w = Frequencies::angular(role.pair, dModel, params);
        const double dirichlet = std::sin(0.5 * length * w) / std::sin(0.5 * w);
        const double centre = 0.5 * (length - 1.0) * w;
        const double first = (role.isCos ? std::cos(centre) : std::sin(centre)) * dirichlet / length;
        const double doubled = std::cos(2.0 * centre) * std::sin(length * w) / std::sin(w) / length;
        mean[j] = first;
        meanSquare[j] = role.isCos ? 0.5 * (1.0 + doubled) : 0.5 * (1.0 - doubled);
    }
}

std::optional<ColumnStats> compute(const Engine &engine, const ComputeOptions &options)
{
    return statistics(engine, {{0, engine.params().maxLen}}, true, options);
}

std::optional<ColumnStats> estimate(const Engine &engine, std::int64_t rows, const ComputeOptions &options)
{
    const std::int64_t L = engine.params().maxLen;
    if (rows >= L)
        return compute(engine, options);
    // Evenly spaced runs: the rows of s*E are independent draws, so any spacing is fair.
    const std::int64_t runRows = std::clamp<std::int64_t>(rows / 16, 1, kRunRows);
    const std::int64_t count = std::max<std::int64_t>(1, rows / runRows);
    std::vector<Run> runs;
    for (std::int64_t k = 0; k < count; ++k) {
        const std::int64_t row0 = k * L / count;
        runs.push_back({row0, std::min(runRows, L - row0)});
    }
    return statistics(engine, runs, false, options);
}

} // namespace posenc::ColumnStatistics
