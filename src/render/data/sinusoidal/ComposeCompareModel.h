#pragma once

#include "ComposeCompareData.h"

namespace posenc {

// Why sum the PE and not concatenate it: X = s*E + PE beside X = [s*E | PE] (k = pe_dims) on one
// colour scale, and under each, per column, the mean and std over every position of the PE and
// of s*E. Its view: the columns ("columns") and positions ("positions") of both heatmaps.
class ComposeCompareModel final : public FigureModel
{
public:
    static constexpr char16_t kColumnsAxis[] = u"columns";
    static constexpr char16_t kPositionsAxis[] = u"positions";

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    // The sinusoid's closed forms: the sinusoidal family only.
    QList<Encoding> families() const override { return {Encoding::Sinusoidal}; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
