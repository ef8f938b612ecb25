#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"

#include <QList>
#include <QString>

namespace posenc {

// The position-ids figure's data: the batch's ids under --ids-choice as a map of rows by columns,
// each pixel the exact mean of its real tokens' ids (NaN where it holds padding alone), and one row
// drawn closely: the reference's ids and the chosen ones, its padding, documents and decode steps.
struct PositionIdsData : FigureData
{
    static constexpr qsizetype kMaxRuns = 256;
    static constexpr std::int64_t kMaxPoints = 8192;

    HeatmapGrid grid;
    double most = 1.0; // the colour scale's top: the largest id under the choice
    std::int64_t rows = 0, cols = 0, cache = 0;
    int axis = 0, axes = 1;
    IdsChoice choice = IdsChoice::Reference;
    bool documents = false;
    bool byColumn = false; // the model adds its term by column: every id the column (BatchLayout)
    // The model reads none of the ids: its score bias is built from the columns or the mask
    // (ScoreFromColumns: T5, DeBERTa, MPT's and BLOOM's ALiBi), where `unreadBy` names its family.
    QString unreadBy;
    std::int64_t row = 0; // the row drawn closely
    struct Run
    {
        std::int64_t start = 0, end = 0;
        bool real = false;
        bool decode = false;
    };
    QList<Run> runs; // its first kMaxRuns segments
    qsizetype allRuns = 0;
    QList<double> x, reference, chosen; // its ids, NaN between segments
    bool differs = false; // the chosen ids differ from the reference's at some real token of the row
    QList<double> documentStarts; // the columns where its documents start
    std::int64_t realTokens = 0;
    std::int64_t ropeDelta = 0; // M-RoPE's rope_deltas of the row
    QString problem; // why there are no ids (an M-RoPE row that cuts the prompt's image)
};

// "Position ids": the batch's position ids as transformers computes them (generation's cumsum of the
// mask, the flattening collator's restart per document, get_rope_index with a mask, a decode step's
// cache position), padding and document boundaries marked, and a mistake's ids beside them.
class PositionIdsModel final : public FigureModel
{
public:
    static inline constexpr char16_t kAxis[] = u"axis";
    // The axis drawn, 0 (t), 1 (h) or 2 (w), as the state's option names it; 0 for one id a token.
    static int axisOf(const Params &params, const FigureState &state);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<FigureOption> ownOptions() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
