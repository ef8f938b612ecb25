#pragma once

#include "DropoutData.h"

namespace posenc {

// The dropout figure: the chosen variant's keep mask beside its output Y over the same cells,
// with the measured drop fraction; its view is the mask panel's cells.
class DropoutModel final : public FigureModel
{
public:
    static constexpr char16_t kColormap[] = u"colormap";
    static constexpr char16_t kColumnsAxis[] = u"columns";
    static constexpr char16_t kPositionsAxis[] = u"positions";

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
