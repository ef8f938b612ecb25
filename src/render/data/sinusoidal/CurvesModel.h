#pragma once

#include "CurvesData.h"

namespace posenc {

// The curves: PE[:, j] against position for chosen columns (--dims, the window's columns
// field; a few low, middle and high ones by default); its view is the positions on x.
class CurvesModel final : public FigureModel
{
public:
    static constexpr char16_t kPositionsAxis[] = u"positions";

    // The columns drawn: those listed, the ladder (--dims ladder), or the defaults for the PE's columns.
    static std::vector<std::int64_t> columns(const Params &params, const FigureState &state);
    static bool isLadder(const FigureState &state);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    // The sinusoid's closed forms: the sinusoidal family only.
    QList<Encoding> families() const override { return {Encoding::Sinusoidal}; }
    QList<FigureOption> ownOptions() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

    // Computed for its first panel's columns of pixels alone (FigureModel::extentsRead).
    QList<PanelExtent> extentsRead(const QList<PanelExtent> &panels) const override
    {
        return firstPanelColumns(panels);
    }

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
