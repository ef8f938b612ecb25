#pragma once

#include "render/data/FigureModel.h"

#include "core/TitleText.h"

#include <QList>

#include <vector>

namespace posenc {

// The precision figure's data: the float32-angle error |PE(float(p) float(w)) - PE(p w)| over
// the positions in view, by its maximum, so that no averaging can hide it.
struct PrecisionData : FigureData
{
    // Upper panel, one band of positions per pixel: the largest |error| over the band's positions
    // and every PE column, exact, beside the bound float32 rounding of the angle gives.
    QList<double> bandCentre, bandMax, bound;
    double bandPositions = 1.0; // the positions of a band, on average
    // The pairs every band took, fastest first: all that could reach its largest error, or
    // fewer where the cap of every figure stopped them (bandPairsComplete false: a preview).
    std::int64_t bandPairs = 0;
    bool bandPairsComplete = true;
    // Lower panel: the largest |error| in each pixel, positions across and PE columns down.
    Block block; // positions [row0, rowEnd) on x, columns [col0, colEnd) on y
    int cols = 0; // position bands
    int rows = 0; // column bands
    std::vector<float> maxima; // rows x cols, row-major
    // 1 when every position entered the maxima; s when every s-th did (a preview).
    std::int64_t stride = 1;
    // 1 when every position entered the maxima; s when the last 1/s of each pixel's positions did
    // (full detail past the cap of every figure, Budget::kMaxExactCells: a preview).
    std::int64_t share = 1;
    // 0 when every column entered the maxima; m when, past the cap with one position a pixel,
    // the first (fastest) m columns of each pixel row did, at each pixel's last position.
    std::int64_t columnsTaken = 0;
    double largest = 0.0; // over the panel's positions and columns
    std::int64_t largestAt = 0; // its position
    std::int64_t peColumns = 0; // the error table's columns: the PE's, or RoPE's sin | cos
    bool rope = false; // RoPE's cos and sin of p·θ_i, not a PE
    TitleText::RowIndex index; // what the rows are: positions, or a timestep embedding's timesteps
    double amplitude = 1.0; // of the values: RoPE's attention factor

    float at(int row, int col) const { return maxima[static_cast<std::size_t>(row) * cols + col]; }
};

// Float32 precision: the error of the PE when its angle p * w is formed in float32 (as the
// float32 code of common frameworks forms it), at long positions. Upper panel: the maximum
// |error| per band of positions on a log axis, against the bound 2^-23 p w_0 + 2^-25 that
// rounding the angle predicts; lower panel: the maximum |error| per pixel. Its view: positions
// on x ("positions"), columns on the lower panel's y ("columns").
class PrecisionModel final : public FigureModel
{
public:
    static constexpr char16_t kPositionsAxis[] = u"positions";
    static constexpr char16_t kColumnsAxis[] = u"columns";

    // What float32 rounding of the angle can do at position p to a column of frequency w: the
    // angle float(float(p) float(w)) is p w to within p w (2^-23 + 2^-47) (p < 2^24 is exact
    // in float32), and the float32 value is rounded by at most 2^-25.
    // Values of amplitude a (RoPE's attention factor) are off by a times the angle's error, and
    // rounded by 2^-24 where a > 1.
    static double bound(std::int64_t position, double frequency, double amplitude = 1.0);

    // The table whose angles the error rounds: the sinusoid's PE, or RoPE's sin | cos over its
    // rotary pairs (the error quantity's columns), each pair's frequency (fastest first), the
    // column of a pair's sine or cosine (-1: none), and the values' amplitude.
    static std::int64_t columns(const Params &params);
    static std::vector<double> frequencies(const Params &params);
    static std::int64_t column(const Params &params, std::int64_t pair, bool isCos);
    static double amplitude(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    // The sinusoid's angles, and RoPE's, which transformers forms in float32 alike.
    QList<Encoding> families() const override { return {Encoding::Sinusoidal, Encoding::Rope}; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
