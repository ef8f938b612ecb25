#pragma once

#include "DropoutAnatomyData.h"

namespace posenc {

// What dropout(p) does, cell by cell: X, the keep mask and Y in training and in evaluation on
// the cells in view, each cell's input against its output, and the fraction dropped against p
// with its binomial band. Its view is the X panel's cells.
class DropoutAnatomyModel final : public FigureModel
{
public:
    static constexpr char16_t kColumnsAxis[] = u"columns";
    static constexpr char16_t kPositionsAxis[] = u"positions";

    // The cells shown at first: few enough to see each one, and to count the scatter's points.
    static Block defaultBlock(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
