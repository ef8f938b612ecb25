#pragma once

#include "LearnedData.h"

namespace posenc {

// "Learned vs sinusoidal": the loaded matrix read as a learned position table (rows 0..L-1)
// beside the sinusoidal PE of its shape. It needs a matrix with at least max_len rows.
class LearnedModel final : public FigureModel
{
public:
    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Quantity> inputs(const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
