#pragma once

#include "render/data/FigureModel.h"

#include <QList>

#include <memory>
#include <vector>

namespace posenc {

// The nope-order figure's data (NopeOrder): against the query's position t, the weight uniform
// attention gives the first key with and without the causal mask, and the norm of its output h_t
// (the mean of s·E's rows 0..t) measured for this seed beside its expectation.
struct NopeOrderData : FigureData
{
    std::int64_t maxLen = 0;
    std::int64_t dModel = 0; // the columns of s·E
    double scale = 1.0; // s
    double sigma = 1.0;
    bool loaded = false; // rows of a real matrix: no expected norm
    // Drawn at t + 1 = 1 .. L on a log axis: every integer up to a few thousand, then each pixel's.
    QList<double> prefix; // t + 1
    QList<double> weight; // 1/(t + 1)
    QList<double> expected; // s·σ·√(d/(t + 1)); empty for a loaded matrix
    QList<double> measuredPrefix; // the points of `prefix` below the measured rows
    QList<double> measured; // ‖h_t‖ there
    std::shared_ptr<const std::vector<double>> norms; // ‖h_t‖ for every t measured
    double bidirectionalWeight = 0.0; // 1/L
    // Every query's ‖h‖ without the mask: the mean of all L rows, measured where every row is,
    // else expected; nothing where neither is known.
    std::optional<double> bidirectionalNorm;
    bool bidirectionalMeasured = false;
};

// "NoPE: order from the causal mask": how a layer with no position term still tells positions
// apart (NopeOrder). Uniform attention (every score alike) over the causal prefix gives query t's
// keys 1/(t + 1) each: the first key's weight names t, and the output, a mean of t + 1 embeddings,
// shrinks as s·σ·√(d/(t + 1)); without the mask both are flat. s·E's rows are measured up to a
// budget of cells, the closed forms drawn at every position.
class NopeOrderModel final : public FigureModel
{
public:
    static constexpr char16_t kPositionsAxis[] = u"positions";
    // The cells of s·E a figure reads at most (2^26, a quarter of a GiB read in chunks), and the
    // rows at most (the norms kept for the readout).
    static constexpr std::int64_t kMeasuredCells = std::int64_t(1) << 26;
    static constexpr std::int64_t kMeasuredRows = std::int64_t(1) << 20;

    // The data, or nothing where `cancel` was set. Precondition: `engine` can read s·E's
    // measuredRows rows (the figure's refusal otherwise).
    static std::optional<NopeOrderData> compute(const Engine &engine, const std::atomic<bool> *cancel);
    static std::int64_t measuredRows(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::None}; }
    QList<Quantity> inputs(const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
