#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"

#include <QString>

namespace posenc {

// The rope-input figure's data: one head's columns of X = s·E before the rotation, the
// rope-input table after it and what the rotation changed, over the same cells at screen
// resolution.
struct RopeInputData : FigureData
{
    HeatmapGrid before; // X's first head_dim columns
    HeatmapGrid after; // rope-input: R(p) applied to them
    HeatmapGrid change; // after - before, cell by cell of the grids (a mean of differences)
    std::int64_t headDim = 0;
    std::int64_t rotaryDim = 0;
    double attentionFactor = 1.0; // in cos and sin: the rotated columns grow by it
    RopeLayout layout = RopeLayout::Half;
    QString scaling, model;
    QString input; // what X is: "s·E (s = √d = 22.63, σ = 1)" or the loaded matrix
};

// "RoPE on the input": the rope-input table, R(p) applied to the rows of one head of s·E (or of
// a loaded matrix) in the chosen layout, beside the same columns before the rotation and the
// change, on one colour scale; the columns past the rotary dim pass through. Its view: "columns"
// and "positions", the first positions at first, where each cell has its pixels.
class RopeInputModel final : public FigureModel
{
public:
    static constexpr char16_t kColumnsAxis[] = u"columns";
    static constexpr char16_t kPositionsAxis[] = u"positions";
    // Positions shown at first: few enough to see each cell, and each pair's turn in them.
    static constexpr std::int64_t kFirstPositions = 256;

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<Encoding> families() const override { return {Encoding::Rope}; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
