#pragma once

#include "render/data/FigureModel.h"

#include "core/positions/PositionEffect.h"

#include <QList>
#include <QString>

#include <memory>
#include <vector>

namespace posenc {

// The position-effect figure's data: one row of the batch, each of its tokens' effect columns
// (PositionEffect) as a band a pixel, the least to the most of the pixel's real tokens, over the
// columns in view: the score against the document's first token under the reference's ids and the
// chosen ones, their difference (and float32's), and the absolute parts a model reads.
struct PositionEffectData : FigureData
{
    struct Band
    {
        QList<double> lo, hi;
    };
    std::int64_t row = 0, cols = 0;
    IdsChoice choice = IdsChoice::Reference;
    PositionEffect::ScoreKind kind = PositionEffect::ScoreKind::None;
    bool term = false, temperature = false, chunk = false;
    // The rotary frequencies at the batch's length under each choice differ (dynamic NTK, longrope):
    // the lengths, torch.max(position_ids) + 1.
    bool frequenciesMove = false;
    std::int64_t referenceLength = 0, chosenLength = 0;
    QString scoreWords;
    QString family;
    QList<double> x; // each pixel's centre, in columns
    Band scoreReference, scoreChosen, difference, float32, termDifference, temperatureIds, temperatureCache, chunkIds,
        chunkCache, temperatureReference;
    // Over the whole row: the largest |differences|, and the real tokens whose ids the choice changes.
    double largestDifference = 0.0, largestFloat32 = 0.0, largestTerm = 0.0;
    std::int64_t changedIds = 0, realTokens = 0;
    // A preview: a few tokens of each pixel, the largest differences theirs (the ids counted in full).
    bool preview = false;
    QList<std::pair<std::int64_t, std::int64_t>> padding; // the row's padding runs (the first 256)
    QString problem;
};

// "Position effect": what a real token sees of its position under the reference's ids against a
// mistake's (--ids-choice), token by token along one row (--row): RoPE's relative score the same to
// rounding under a common shift, what reads the absolute position changed.
class PositionEffectModel final : public FigureModel
{
public:
    // The effect columns of row b, computed once for an engine on `threads` (0: all) and kept for
    // the next views; nothing when cancelled.
    static std::shared_ptr<const std::vector<double>> rowValues(const std::shared_ptr<const Engine> &engine,
                                                                std::int64_t b, int threads,
                                                                const std::atomic<bool> *cancel);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<FigureOption> ownOptions() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;
    bool hasPreview(const FigureRequest &request) const override;
    // The families whose positions the effect reads from one id per token (PositionEffect::reads).
    QList<Encoding> families() const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
