#pragma once

#include "render/data/FigureModel.h"

#include "core/alibi/AlibiAttention.h"
#include "core/alibi/AlibiSlopes.h"

#include <QList>
#include <QString>

namespace posenc {

// One head of the alibi-attention figure: its weights and their running share at the figure's
// distances, and its span.
struct AlibiAttentionHead
{
    std::int64_t head = 1; // 1..H
    double slope = 0.0;
    QList<double> weight; // of one key at each distance
    QList<double> within; // the share of the weight on the keys within each distance
    double self = 0.0; // the weight of the query's own key, distance 0
    std::int64_t half = 0; // the least distance holding half the weight
    std::int64_t ninety = 0; // ... 90% of it
    double halfShare = 0.0, ninetyShare = 0.0; // the shares there (at least 0.5 and 0.9)
};

// The alibi-attention figure's data: for one query, with every content score zero, the softmax
// weight each head gives a key against its distance, in closed form (AlibiAttention).
struct AlibiAttentionData : FigureData
{
    std::int64_t query = 0;
    std::int64_t maxLen = 0;
    std::int64_t heads = 0; // H
    std::int64_t head = 1; // K
    AlibiMask mask = AlibiMask::Causal;
    AlibiAttention::Keys keys;
    // Integer distances from 1 on a log axis: every one where they fit, else each pixel's first,
    // and the farthest; the curves are monotone, so a line through them is exact at the points.
    QList<double> distance;
    QList<AlibiAttentionHead> drawn; // every head up to kMaxDrawn, else an even choice with 1, K, H
};

// "ALiBi attention span": the softmax weight one query gives the keys, against their distance (log
// axis), for every head, with content scores zero, so that the bias alone shows how far each head
// looks: w(d) = e^(-m d) / Z, a normalised geometric series; below it the share of the weight
// within each distance, each head's half and 90% spans marked. Option: the query (--query, by
// default the last position under the causal mask, the middle one symmetric).
class AlibiAttentionModel final : public FigureModel
{
public:
    static constexpr char16_t kQuery[] = u"query";
    // Heads drawn at most; more are thinned evenly, keeping the first, K and the last.
    static constexpr std::int64_t kMaxDrawn = AlibiSlopes::kMaxDrawnHeads;

    // The query of `state`, or its default for these parameters.
    static std::int64_t query(const Params &params, const FigureState &state);
    static std::int64_t defaultQuery(const Params &params);
    // The heads drawn of H, with K among them.
    static QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head);
    // The data over distances [lower, upper] of a log axis `pixels` wide.
    static AlibiAttentionData compute(const Params &params, std::int64_t query, double lower, double upper, int pixels);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Alibi}; }
    QList<FigureOption> ownOptions() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;

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
