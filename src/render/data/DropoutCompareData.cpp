#include "DropoutCompareData.h"

#include "FigureText.h"

#include "core/ParamText.h"
#include "core/ThreadPools.h"

#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

double DropoutModePanel::lostFraction() const
{
    return peCells > 0 ? static_cast<double>(peCellsLost) / static_cast<double>(peCells) : 0.0;
}

double DropoutModePanel::energyKeptFraction() const
{
    return peEnergy > 0.0 ? peEnergyKept / peEnergy : 1.0;
}

namespace DropoutCompareCompute {

namespace {

// Cells counted one by one at most, over evenly spaced rows of the view past it.
constexpr std::int64_t kCountCells = std::int64_t(1) << 22;

struct PeCount
{
    std::array<std::int64_t, kDropoutModeCount> lost {};
    std::array<double, kDropoutModeCount> kept {};
    std::int64_t cells = 0;
    double energy = 0.0;
};

// The PE reaching Y under each mode, over whole rows of `block` within the sequence (all, or
// evenly spaced).
std::optional<PeCount> countPe(const std::array<Engine, kDropoutModeCount> &modes, const Block &block,
                               const ComputeOptions &options, bool *everyRow)
{
    const Engine &engine = modes[0];
    const Params &p = engine.params();
    // The columns of the view that hold a PE value: all of them, or the PE's in concat; the rows
    // of the sequence.
    const std::int64_t peFrom = p.concatenates() ? std::max(block.col0, p.embeddingColumns()) : block.col0;
    const std::int64_t rowEnd = std::min(block.rowEnd(), p.sequenceLength());
    const Block pe {block.row0, std::max<std::int64_t>(0, rowEnd - block.row0), peFrom, block.colEnd() - peFrom};
    *everyRow = true;
    if (pe.isEmpty())
        return PeCount {};
    const std::int64_t rows = std::clamp<std::int64_t>(kCountCells / pe.cols, 1, pe.rows);
    const std::int64_t stride = (pe.rows + rows - 1) / rows;
    *everyRow = stride == 1;
    const std::int64_t samples = (pe.rows + stride - 1) / stride;
    std::vector<PeCount> counts(static_cast<std::size_t>(samples));
    const bool done = forEachTile(samples, options.threads, options.cancel, [&](std::int64_t tile) {
        const Block row {pe.row0 + tile * stride, 1, pe.col0, pe.cols};
        RowMatrixXf embedding(1, row.cols), positional(1, row.cols), mask(1, row.cols);
        engine.inputParts(row, embedding, positional);
        PeCount &count = counts[static_cast<std::size_t>(tile)];
        const Eigen::ArrayXd squares = positional.row(0).cast<double>().array().square();
        count.cells = row.cols;
        count.energy = squares.sum();
        for (std::size_t m = 0; m < modes.size(); ++m) {
            // Embedding mode drops s·E only: the PE reaches Y in every cell.
            if (kModes[m] == DropoutMode::Embedding) {
                count.kept[m] = count.energy;
                continue;
            }
            modes[m].computeBlock(Quantity::Mask, row, mask);
            const Eigen::ArrayXd reaches = mask.row(0).cast<double>().array();
            count.lost[m] = row.cols - static_cast<std::int64_t>(reaches.sum());
            count.kept[m] = (squares * reaches).sum();
        }
    });
    if (!done)
        return std::nullopt;
    PeCount total;
    for (const PeCount &c : counts) {
        total.cells += c.cells;
        total.energy += c.energy;
        for (std::size_t m = 0; m < kDropoutModeCount; ++m) {
            total.lost[m] += c.lost[m];
            total.kept[m] += c.kept[m];
        }
    }
    return total;
}

} // namespace

bool choseSequence(const Params &params)
{
    return !params.seqLen && params.maxLen > kShownSequence;
}

Params shown(const Params &params)
{
    Params p = params;
    if (choseSequence(params)) {
        std::int64_t n = kShownSequence;
        for (const std::int64_t row : params.special)
            n = std::max(n, row + 1);
        p.seqLen = std::min(n, params.maxLen);
    }
    return p;
}

Params withMode(const Params &params, DropoutMode mode)
{
    Params p = params;
    p.dropoutMode = mode;
    return p;
}

Params peOnly(const Params &params)
{
    Params p = params;
    // s = 0 and E = 0 (no matrix, sigma 0): s·E is exactly zero whatever a loaded matrix holds.
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 0.0;
    p.init = InitKind::Custom;
    p.customSigma = 0.0;
    p.embeddings.reset();
    return p;
}

std::optional<DropoutCompareData> compute(const Engine &engine, const HeatmapRequest &visible, Detail detail,
                                          const ComputeOptions &options)
{
    DropoutCompareData data;
    data.params = shown(engine.params());
    data.choseSequence = choseSequence(engine.params());
    const std::array<Engine, kDropoutModeCount> modes {
        Engine(withMode(data.params, kModes[0])), Engine(withMode(data.params, kModes[1])),
        Engine(withMode(data.params, kModes[2])), Engine(withMode(data.params, kModes[3])),
        Engine(withMode(data.params, kModes[4]))};
    HeatmapRequest request = visible;
    request.quantity = Quantity::Output;
    request.cellBudget = Budget::cells(Detail::Preview);
    for (std::size_t m = 0; m < modes.size(); ++m) {
        DropoutModePanel &panel = data.modes[m];
        panel.mode = kModes[m];
        panel.params = modes[m].params();
        // Y's PE part under pe is dropout(PE), sum's with the same mask: its dropped cells have no
        // value and are marked so (CellMarks), not drawn as the 0 the pe mode's s·E = 0 leaves. In
        // concat, pe drops the PE's columns alone, and its own marks say so.
        const bool asSum = kModes[m] == DropoutMode::Positional && !panel.params.concatenates();
        const Engine peEngine(peOnly(asSum ? withMode(panel.params, DropoutMode::Sum) : panel.params));
        for (const auto &[source, grid] :
             {std::pair {&modes[m], &panel.output}, std::pair {&peEngine, &panel.pePart}}) {
            const int pass = detail == Detail::Preview
                ? 0
                : HeatmapResampler::lastPassWithin(*source, request, Budget::cells(Detail::Full));
            auto computed = HeatmapResampler::resample(*source, request, options, pass);
            if (!computed)
                return std::nullopt;
            *grid = std::move(*computed);
        }
    }
    const auto counted = countPe(modes, visible.block, options, &data.everyRow);
    if (!counted)
        return std::nullopt;
    const std::int64_t sequence = data.params.sequenceLength();
    data.paddingInView = visible.block.rowEnd() > sequence;
    for (std::size_t m = 0; m < modes.size(); ++m) {
        DropoutModePanel &panel = data.modes[m];
        panel.onlyPadding = visible.block.row0 >= sequence;
        panel.peCells = counted->cells;
        panel.peCellsLost = counted->lost[m];
        panel.peEnergy = counted->energy;
        panel.peEnergyKept = counted->kept[m];
    }
    return data;
}

QString modeTitle(const DropoutModePanel &panel)
{
    const Params &p = panel.params;
    const bool concat = p.concatenates();
    const bool dropping = p.training && p.dropout > 0.0;
    QString formula;
    switch (panel.mode) {
    case DropoutMode::Sum:
        formula = dropping ? u"Y = dropout(X)"_s : u"Y = X"_s;
        break;
    case DropoutMode::Embedding:
        formula = !dropping ? u"Y = X"_s : concat ? u"Y = [dropout(s·E) | PE]"_s : u"Y = dropout(s·E) + PE"_s;
        break;
    case DropoutMode::Positional:
        formula = !dropping ? u"Y = X"_s : concat ? u"Y = [s·E | dropout(PE)]"_s : u"Y = dropout(PE) + s·E"_s;
        break;
    case DropoutMode::ProtectSpecial:
        formula = dropping ? u"Y = dropout(X), special rows whole"_s : u"Y = X"_s;
        break;
    case DropoutMode::MaskedFill:
        formula = dropping ? u"Y = dropout(masked_fill(X))"_s : u"Y = masked_fill(X)"_s;
        break;
    }
    return u"%1\n%2"_s.arg(ParamText::toString(panel.mode), formula);
}

QString percentText(double fraction)
{
    const double percent = 100.0 * fraction;
    // compact's two digits would write 100 as "1e2".
    return std::abs(percent) >= 9.95 ? QString::number(std::round(percent)) : NumberText::compact(percent, 2);
}

QString peText(const DropoutModePanel &panel, bool brief)
{
    const QString percent = u"%1\u00a0%"_s; // the number and its sign on one line
    // Under concat the columns in view may all be s·E, and a view may hold padding only: nothing
    // of the PE to lose.
    if (panel.peCells == 0) {
        const QString why = panel.onlyPadding ? u"only padding in view"_s : u"no PE column in view"_s;
        return brief ? why : u"its PE part\n"_s + why;
    }
    // The PE's energy in the cells it reaches, before their factor 1/(1 − p): the expected
    // energy is whole (E[Y] = X), this is how much of it the mask leaves in place.
    if (brief)
        return u"PE lost: %1\nenergy kept: %2"_s.arg(percent.arg(percentText(panel.lostFraction())),
                                                     percent.arg(percentText(panel.energyKeptFraction())));
    return u"its PE part\nPE lost: %1 of %2 cells, %3\nPE energy in kept cells: %4"_s.arg(
        FigureText::formatCount(panel.peCellsLost), FigureText::formatCount(panel.peCells),
        percent.arg(percentText(panel.lostFraction())), percent.arg(percentText(panel.energyKeptFraction())));
}

} // namespace DropoutCompareCompute

} // namespace posenc
