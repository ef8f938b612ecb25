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
    // The sinusoid's closed forms: the sinusoidal family only.
    QList<Encoding> families() const override { return {Encoding::Sinusoidal}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
