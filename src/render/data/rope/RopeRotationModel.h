#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"

#include <QList>
#include <QString>

namespace posenc {

// The rope-rotation figure's data: one pair's 2-D vector (its rope-cos and rope-sin cells) at the
// positions in view, and the two tables over positions x pairs at screen resolution.
struct RopeRotationData : FigureData
{
    std::int64_t pair = 0;
    std::int64_t column = 0; // the pair's first column in the tables: i (half) or 2i (interleaved)
    double frequency = 0.0; // theta_i after scaling, radians per position
    double attentionFactor = 1.0; // the circle's radius
    // The vector (cos, sin) of p theta_i, times the attention factor, as the tables hold it.
    QList<double> position, x, y;
    std::int64_t stride = 1; // positions between two points
    bool oneTurn = false; // the points stop after one turn, before the last position in view
    HeatmapGrid cos, sin;
    // The tables' positions a pixel row averages (1: none), and the first and last pair in view
    // that turns half a turn or more across them: its pixels show a mean, paler than its wave
    // (a mean over a turn is 0); -1 where none does.
    double positionsPerPixel = 1.0;
    std::int64_t firstMeanPair = -1, lastMeanPair = -1;
    std::int64_t pairs = 0;
    std::int64_t rotaryDim = 0;
    RopeLayout layout = RopeLayout::Half;
    QString scaling, model;
};

// "RoPE rotation": one pair's vector (cos p theta_i, sin p theta_i) turning with position, a point
// a position coloured by p on its circle over one turn at most, beside the rope-cos and rope-sin tables over positions
// x pairs. Options: the pair (--pair); the positions in view (--positions, the window zooms). Its view: "columns" and
// "positions" of the tables, which the circle follows.
class RopeRotationModel final : public FigureModel
{
public:
    static constexpr char16_t kPair[] = u"pair";
    static constexpr char16_t kColumnsAxis[] = u"columns";
    static constexpr char16_t kPositionsAxis[] = u"positions";
    // Points on the circle at most; more positions in view are taken every stride-th.
    static constexpr std::int64_t kMaxPoints = 512;
    // Positions shown at first: a few turns of the middle pairs.
    static constexpr std::int64_t kFirstPositions = 512;

    // The pair of `state`, or the default: rotary dim / 8, a pair that turns within the first
    // positions.
    static std::int64_t pair(const Params &params, const FigureState &state);
    // The tables' columns a view shows at first: the h of one half (half layout, where the other
    // half repeats them), all r interleaved.
    static std::int64_t shownColumns(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<Encoding> families() const override { return {Encoding::Rope}; }
    QList<FigureOption> ownOptions() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
