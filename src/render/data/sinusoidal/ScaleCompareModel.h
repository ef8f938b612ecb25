#pragma once

#include "ScaleCompareData.h"

namespace posenc {

// Why embeddings are multiplied by sqrt(d_model): the 2 x 2 grid of sigma in {1, d^-1/2} and
// s in {1, sqrt(d)} at the parameters' d and L, each panel the norms per position of s*E and
// of PE on one shared axis, and the ratio ||s*E|| / ||PE|| measured beside
// sqrt(s^2 sigma^2 d / (d/2)). The parameters' own sigma and s do not enter: the figure shows
// all four. No options.
class ScaleCompareModel final : public FigureModel
{
public:
    QString name() const override;
    QString title() const override;
    QString summary() const override;
    // The families whose position term has ||PE_p||^2 in closed form (FamilyTerm::normSquared: the
    // sinusoid's d/2, 2-D sin-cos's d/2 for every patch row); one whose rows hold no one norm at
    // these parameters (MAE's [CLS] row of zeros) is refused with its reason.
    QList<Encoding> families() const override;
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
