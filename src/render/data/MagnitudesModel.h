#pragma once

#include "MagnitudesData.h"

namespace posenc {

// The magnitudes: per position the norms of PE and s*E and their ratio, per column their RMS,
// with the closed forms beside them. No options; it always shows every position and column.
class MagnitudesModel final : public FigureModel
{
public:
    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    int passCount(const FigureRequest &request) const override;
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
