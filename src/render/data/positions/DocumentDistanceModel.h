#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"

#include "core/positions/DocumentDistance.h"

#include <QList>

namespace posenc {

// The document-distance figure's data: one row's query-key distances under the reference's ids and
// mask and under another choice, side by side, each pixel the exact mean of its attended pairs'
// distances (NaN where the mask hides all of them), and each choice's counts over the whole row.
struct DocumentDistanceData : FigureData
{
    static constexpr qsizetype kMaxStarts = 256;

    HeatmapGrid reference, compared;
    IdsChoice compare = IdsChoice::RestartedWithoutBlockMask;
    DocumentDistance::Counts referenceCounts, comparedCounts;
    std::int64_t row = 0, cols = 0;
    QList<double> documentStarts; // the row's documents' first columns (the first kMaxStarts)
    bool documents = false;
    bool bothWays = false; // the model's queries see the keys after them too (BatchLayout::bothWays)
    // The score that reads the columns, not the ids ("ALiBi bias", DocumentDistance::readsColumns):
    // the distances drawn are the columns'; empty: the ids'.
    QString columnsReadBy;
    double extent = 1.0; // the colour scale's ends: ± the farthest distance of the pairs in view
    QString problem;
};

// "Document distance": the query-key distances id(q) − id(k) of a packed row that the attention
// sees, under the reference (the collator's restarted ids, varlen's block mask) and under another
// choice (--compare): positions that run on make a document's earlier neighbour its own past;
// restarted ones under a causal mask give cross-document pairs negative distances.
class DocumentDistanceModel final : public FigureModel
{
public:
    static inline constexpr char16_t kKeysAxis[] = u"keys";
    static inline constexpr char16_t kQueriesAxis[] = u"queries";

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
