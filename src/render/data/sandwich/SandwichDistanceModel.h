#pragma once

#include "render/data/FigureModel.h"

#include "core/FamilyCurves.h"

#include <QList>

namespace posenc {

// The sandwich-distance figure's data: each drawn head's bias against the distance in view, each
// pixel the least and the most of its distances.
struct SandwichDistanceData : FigureData
{
    SandwichParams sandwich;
    std::int64_t maxLen = 0;
    QList<std::int64_t> heads; // the heads drawn, head K among them
    QList<FamilyCurve> curves; // one per drawn head; offset = distance
    double farMean = 0.0; // head K's -d/2 / (8K/H)
    std::int64_t sampled = 0; // distances taken a pixel where the sums were sampled; 0: all
    bool preview = false; // a quick sample before the full detail
};

// "Sandwich bias by distance": the bias of every head (up to 16 drawn) against the distance
// r = |i - j| = 0 .. L - 1, each the same sum of cosines shifted by -d/2 and divided by 8h/H, so
// that head 1's is H/8 times the sum's and head H's 1/8 (Chi et al. 2023, as ALiBi's slopes shrink
// with the head); head K wider, with the mean it tends to far away. Its view: "distances".
class SandwichDistanceModel final : public FigureModel
{
public:
    static constexpr char16_t kDistancesAxis[] = u"distances";

    // The data over the distances [lower, upper] at `pixels` pixels, the sums within `budget`.
    static std::optional<SandwichDistanceData> compute(const Params &params, double lower, double upper, int pixels,
                                                       std::int64_t budget, const std::atomic<bool> *cancel);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Sandwich}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

    // Computed for its first panel's columns of pixels alone (FigureModel::extentsRead).
    QList<PanelExtent> extentsRead(const QList<PanelExtent> &panels) const override
    {
        return firstPanelColumns(panels);
    }

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
