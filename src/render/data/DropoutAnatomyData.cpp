#include "DropoutAnatomyData.h"

#include "core/ThreadPools.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::DropoutAnatomyCompute {

namespace {

constexpr std::int64_t kScatterCells = 4096; // points, one a cell: beyond, a cloud says no more
constexpr std::int64_t kCountCells = std::int64_t(1) << 16; // cells counted at each p
constexpr int kSteps = 40; // p from 0 to 1 in steps of 1/40

// Evenly spaced rows of `block`, at most `cells` cells in all (at least one row).
std::vector<std::int64_t> spacedRows(const Block &block, std::int64_t cells, bool *everyRow)
{
    const std::int64_t rows = std::clamp<std::int64_t>(cells / std::max<std::int64_t>(1, block.cols), 1, block.rows);
    const std::int64_t stride = (block.rows + rows - 1) / rows;
    *everyRow = stride == 1;
    std::vector<std::int64_t> list;
    for (std::int64_t r = block.row0; r < block.rowEnd(); r += stride)
        list.push_back(r);
    return list;
}

Params withTraining(const Params &params, bool training)
{
    Params p = params;
    p.training = training;
    return p;
}

void scatter(const Engine &engine, const Block &block, DropoutAnatomyData &data)
{
    const Params &params = engine.params();
    // The dropout's input: s·E alone in embedding mode, the PE alone in pe mode, else X; its output
    // is Y less the part that passes (the PE, s·E).
    const DropoutTarget target = dropoutTarget(params.dropoutMode);
    const DropoutMask &rules = engine.dropoutMask();
    const std::vector<std::int64_t> rows = spacedRows(block, kScatterCells, &data.scatterEveryRow);
    RowMatrixXf e(1, block.cols), q(1, block.cols), y(1, block.cols), m(1, block.cols);
    for (const std::int64_t r : rows) {
        const Block row {r, 1, block.col0, block.cols};
        engine.inputParts(row, e, q);
        engine.computeBlock(Quantity::Output, row, y);
        engine.computeBlock(Quantity::Mask, row, m);
        const DropoutMask::RowRule rule = rules.rowRule(r);
        // Concat's PE columns in embedding mode (s·E columns in pe mode) pass through, as every cell
        // of a passed row.
        const auto [first, end] = params.droppableColumnsIn(block.col0, block.cols);
        for (std::int64_t c = 0; c < block.cols; ++c) {
            // X as the engine forms it: s·E + PE in float.
            const double in = target == DropoutTarget::Embedding ? e(0, c)
                : target == DropoutTarget::Positional            ? q(0, c)
                                                                 : static_cast<double>(e(0, c) + q(0, c));
            const double out = target == DropoutTarget::Embedding ? static_cast<double>(y(0, c)) - q(0, c)
                : target == DropoutTarget::Positional             ? static_cast<double>(y(0, c)) - e(0, c)
                                                                  : y(0, c);
            if (!std::isfinite(in) || !std::isfinite(out)) {
                ++data.nonFiniteCells;
                continue;
            }
            ScatterPoints &points = rule == DropoutMask::RowRule::Zero               ? data.zeroed
                : rule == DropoutMask::RowRule::PassThrough || c < first || c >= end ? data.passed
                : m(0, c) != 0.0f                                                    ? data.kept
                                                                                     : data.dropped;
            points.add(in, out);
        }
        data.scatterCells += block.cols;
    }
}

// The cells under dropout among evenly spaced rows of `block`, dropped at each p (same seed).
bool dropFractions(const Params &params, const Block &block, const ComputeOptions &options, DropoutAnatomyData &data)
{
    const DropoutMask rules(params);
    bool everyRow = true;
    std::vector<std::int64_t> rows;
    for (const std::int64_t r : spacedRows(block, kCountCells, &everyRow))
        if (rules.rowRule(r) == DropoutMask::RowRule::Dropout)
            rows.push_back(r);
    // Concat's PE columns in embedding mode (s·E columns in pe mode) are not under dropout.
    const auto droppable = params.droppableColumnsIn(block.col0, block.cols);
    const std::int64_t first = droppable.first, end = droppable.second; // a lambda's captures below
    data.countedCells = static_cast<std::int64_t>(rows.size()) * (end - first);
    data.probabilities = probabilities();
    QList<double> ps = data.probabilities;
    ps.append(params.dropout);
    std::vector<std::int64_t> dropped(static_cast<std::size_t>(ps.size()), 0);
    const bool done = forEachTile(ps.size(), options.threads, options.cancel, [&](std::int64_t i) {
        Params at = params;
        at.dropout = ps[i];
        const DropoutMask mask(at);
        std::vector<float> row(static_cast<std::size_t>(block.cols));
        std::int64_t count = 0;
        for (const std::int64_t r : rows) {
            mask.fillRow(r, block.col0, block.cols, row.data());
            count += std::count(row.begin() + first, row.begin() + end, 0.0f);
        }
        dropped[static_cast<std::size_t>(i)] = count;
    });
    if (!done)
        return false;
    const double n = static_cast<double>(std::max<std::int64_t>(1, data.countedCells));
    for (qsizetype i = 0; i < data.probabilities.size(); ++i)
        data.dropFractions.append(static_cast<double>(dropped[static_cast<std::size_t>(i)]) / n);
    data.measuredAtP = static_cast<double>(dropped.back()) / n;
    return true;
}

} // namespace

QList<double> probabilities()
{
    QList<double> ps;
    for (int k = 0; k <= kSteps; ++k)
        ps.append(static_cast<double>(k) / kSteps);
    return ps;
}

QString trainingFormula(const Params &p)
{
    const bool concat = p.concatenates();
    if (p.dropout >= 1.0) {
        switch (p.dropoutMode) {
        case DropoutMode::Embedding:
            return concat ? u"Y = [0 | PE]"_s : u"Y = PE"_s;
        case DropoutMode::Positional:
            return concat ? u"Y = [s·E | 0]"_s : u"Y = s·E"_s;
        case DropoutMode::ProtectSpecial:
            return u"Y = 0, special rows X"_s;
        default:
            return u"Y = 0 (nothing kept, nothing divided)"_s;
        }
    }
    switch (p.dropoutMode) {
    case DropoutMode::Embedding:
        return concat ? u"Y = [M ⊙ s·E / (1−p) | PE]"_s : u"Y = M ⊙ s·E / (1−p) + PE"_s;
    case DropoutMode::Positional:
        return concat ? u"Y = [s·E | M ⊙ PE / (1−p)]"_s : u"Y = s·E + M ⊙ PE / (1−p)"_s;
    case DropoutMode::ProtectSpecial:
        return u"Y = M ⊙ X / (1−p), special rows X"_s;
    case DropoutMode::MaskedFill:
        return u"Y = M ⊙ masked_fill(X) / (1−p)"_s;
    case DropoutMode::Sum:
        break;
    }
    return u"Y = M ⊙ X / (1−p)"_s;
}

double sigma(double p, std::int64_t n)
{
    return n > 0 ? std::sqrt(std::max(0.0, p * (1.0 - p)) / static_cast<double>(n)) : 0.0;
}

std::optional<DropoutAnatomyData> compute(const Engine &engine, const HeatmapRequest &visible, Detail detail,
                                          const ComputeOptions &options)
{
    DropoutAnatomyData data;
    data.params = engine.params();
    const Engine training(withTraining(data.params, true));
    const Engine evaluation(withTraining(data.params, false));
    HeatmapRequest request = visible;
    request.cellBudget = Budget::cells(Detail::Preview);
    for (const auto &[source, quantity, grid] :
         {std::tuple {&training, Quantity::Input, &data.input}, std::tuple {&training, Quantity::Mask, &data.mask},
          std::tuple {&training, Quantity::Output, &data.training},
          std::tuple {&evaluation, Quantity::Output, &data.evaluation}}) {
        request.quantity = quantity;
        const int pass = detail == Detail::Preview
            ? 0
            : HeatmapResampler::lastPassWithin(*source, request, Budget::cells(Detail::Full));
        auto computed = HeatmapResampler::resample(*source, request, options, pass);
        if (!computed)
            return std::nullopt;
        *grid = std::move(*computed);
    }
    if (options.cancel && options.cancel->load())
        return std::nullopt;
    scatter(training, visible.block, data);
    if (!dropFractions(training.params(), visible.block, options, data))
        return std::nullopt;
    return data;
}

} // namespace posenc::DropoutAnatomyCompute
