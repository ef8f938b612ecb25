#pragma once

#include "LearnedData.h"

namespace posenc {

// "Learned vs sinusoidal": the learned family's position table (its padding rows, then positions
// 0..L-1 from the offset on) beside the sinusoidal PE of its shape.
class LearnedModel final : public FigureModel
{
public:
    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<Encoding> families() const override { return {Encoding::Learned}; }
    QList<Quantity> inputs(const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
