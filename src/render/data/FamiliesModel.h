#pragma once

#include "FamiliesCurves.h"
#include "FigureModel.h"

#include <QList>
#include <QString>

#include <optional>

namespace posenc {

// The families figure's data: for one query and the current settings of every family, how the
// positional term of a key varies with its offset k = j - q, on one offset axis.
struct FamiliesData : FigureData
{
    std::int64_t query = 0;
    std::int64_t maxLen = 0;
    Encoding chosen = Encoding::Sinusoidal; // the parameters' encoding, whose panel is marked
    std::int64_t sampled = 0; // offsets taken a pixel where the oscillating sums were sampled; 0: all
    bool preview = false; // a quick sample before the full detail
    // Sinusoidal: PE[q] · PE[q + k] over the table's k columns (exact angles).
    FamilyCurve sinusoid;
    std::int64_t peColumns = 0;
    double base = 10000.0;
    // RoPE: <q, R(k) q> / |q|^2 for q all ones over head_dim (the rope-score table's first column).
    FamilyCurve rope;
    QString ropeScaling, ropeModel;
    std::optional<QString> ropeProblem;
    // ALiBi: each drawn head's bias -m|k| (causal: -m(-k) for k <= 0, keys after the query masked).
    QList<FamilyCurve> alibi;
    QList<std::int64_t> alibiHeads; // the heads drawn, as AlibiAttentionModel::drawnHeads
    QList<double> alibiSlopes;
    std::int64_t heads = 0, head = 1;
    AlibiMask mask = AlibiMask::Causal;
    // T5: the bucket of k (key minus query); DeBERTa: the bucket of q - j = -k.
    FamilyCurve t5, deberta;
    std::int64_t t5Buckets = 0, t5MaxDistance = 0, debertaBuckets = 0, debertaMaxPosition = 0;
    bool t5Causal = false;
    std::optional<QString> t5Problem, debertaProblem;
};

// "One query, five families": for one query position (--query) and the current settings, the
// positional term each family gives a key against its offset k = j - q, stacked panels over one
// offset axis: the sinusoid's PE·PE, RoPE's score of an aligned query and key, ALiBi's bias per
// head, T5's and DeBERTa's bucket index (T5's learned bias per bucket and DeBERTa's learned
// relative embedding row per bucket have no fixed values: the bucket stands for them). Applies to every family; the chosen one's panel is marked. Its view:
// "offsets".
class FamiliesModel final : public FigureModel
{
public:
    static constexpr char16_t kQuery[] = u"query";
    static constexpr char16_t kOffsetsAxis[] = u"offsets";

    // The query of `state`, or its default: the middle position, whose keys lie on both sides.
    static std::int64_t query(const Params &params, const FigureState &state);
    static std::int64_t defaultQuery(const Params &params);
    // The data over offsets [lower, upper] of an axis `pixels` wide, the oscillating sums within
    // `budget` evaluations (FamiliesCurves); nothing when cancelled.
    static std::optional<FamiliesData> compute(const Params &params, std::int64_t query, double lower, double upper,
                                               int pixels, const std::atomic<bool> *cancel,
                                               std::int64_t budget = FamiliesCurves::kMaxEvaluations);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<FigureOption> options() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    // A quick sample of the oscillating sums first where every offset takes long.
    bool hasPreview(const FigureRequest &request) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
