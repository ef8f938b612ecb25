#pragma once

#include "DropoutCompareData.h"

namespace posenc {

// The dropout modes compared (docs/ARCHITECTURE.md, The mathematics): Y under sum, embedding,
// protect-special and masked-fill side by side from the same X and mask, over the PE's part of
// each Y, the token roles on the rows. Its view is the first panel's cells; the dropout mode
// parameter is not read (every mode is shown).
class DropoutCompareModel final : public FigureModel
{
public:
    static constexpr char16_t kColumnsAxis[] = u"columns";
    static constexpr char16_t kPositionsAxis[] = u"positions";

    // The cells shown at first: few enough to see each one, with the sequence's end in view; a
    // table of at most 40 x 48 whole.
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
