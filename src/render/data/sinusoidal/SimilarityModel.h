#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"

#include <QList>

namespace posenc {

// The similarity figure's data: S[p, q] = PE_p . PE_q over the positions in view at screen
// resolution, and S against the offset k = q - p beside it, measured and in closed form.
struct SimilarityData : FigureData
{
    HeatmapGrid grid; // rows p, columns q: each cell the mean of S over its positions
    Shape table; // L x L
    bool cosine = false;
    std::int64_t peColumns = 0; // d of the PE table (k in concat)
    // Even d with exact angles: S[p, q] depends on q - p alone.
    bool translationInvariant = true;
    // S(k) in closed form: sum over pairs of cos(k w_i) (a lone sine column of odd d adds its
    // mean over p, half of cos(k w)), over dense offsets.
    QList<double> offsets, closedForm;
    // The table's own dot products PE_p0 . PE_(p0+k) at p0 = 0 and at p0 = middle.
    QList<double> measuredOffsets, measuredFirst, measuredMiddle;
    std::int64_t middle = 0; // 0: no second series (the table is too short)
};

// The similarity: the heatmap of S = PE . PE^T (--cosine divides by the norms) with, beside it,
// S(k) = PE_p . PE_(p+k) against the offset k and the closed form sum_i cos(k w_i) drawn over
// it: S depends only on p - q. Its view: positions q on x ("q"), p on y ("p"), offsets ("offsets").
class SimilarityModel final : public FigureModel
{
public:
    static constexpr char16_t kCosine[] = u"cosine";
    static constexpr char16_t kQAxis[] = u"q";
    static constexpr char16_t kPAxis[] = u"p";
    static constexpr char16_t kOffsetsAxis[] = u"offsets";

    static bool cosine(const FigureState &state);
    // The offsets shown at first: enough to see S fall from its peak and ripple.
    static std::int64_t defaultLastOffset(std::int64_t maxLen);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    // The sinusoid's closed forms: the sinusoidal family only.
    QList<Encoding> families() const override { return {Encoding::Sinusoidal}; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
