#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

namespace posenc {

// The rope-layouts figure's data over relative distances k = 1 .. max_len − 1 (log axis): the
// lesson's q and k (RopeLayoutScore) scored <q, R(k) k> with the pairs of the model's layout and
// with those of the other, the distances the lesson quotes marked.
struct RopeLayoutsData : FigureData
{
    struct Mark
    {
        double distance = 0.0;
        double own = 0.0, other = 0.0;
    };
    QList<double> distance;
    QList<double> own; // the model's layout
    QList<double> other; // the same weights read in the other layout
    QList<Mark> marks; // k = 10 and 100 where max_len reaches them
    double atZero = 0.0; // <q, k> times the attention factor squared: both layouts alike
    RopeLayout layout = RopeLayout::Half;
    std::int64_t last = 0; // max_len − 1
    std::int64_t every = 0; // the distances 1 .. every computed each, past it a log-spaced sample
    std::int64_t sampled = 0; // of that many
    std::int64_t headDim = 0;
    std::int64_t pairs = 0;
    QString model, scaling;
};

// "Half or interleaved?": one query and one key (q_j = sin(j + 1), k_j = cos(2j + 1)) scored
// with RoPE's pairs in the model's layout and in the other. The layouts are one column
// permutation apart (transformers' convert_llama_weights_to_hf.py, permute); weights trained in
// one and read in the other pair columns trained with other partners, and every score but k = 0's
// changes.
class RopeLayoutsModel final : public FigureModel
{
public:
    // The distances computed one by one at most, past them a log-spaced sample of at most
    // kSampledDistances; each distance costs its pairs' sines and cosines, and a wide head takes
    // fewer of both, kPairBudget pairs' in all (about 0.1 s on one core), 64 at least.
    static constexpr std::int64_t kEveryDistance = std::int64_t(1) << 16;
    static constexpr std::int64_t kSampledDistances = 4096;
    static constexpr std::int64_t kPairBudget = std::int64_t(1) << 22;
    // The distances the rope-layouts lesson quotes.
    static constexpr double kMarked[] = {10.0, 100.0};

    static std::optional<RopeLayoutsData> compute(const Params &params, const std::atomic<bool> *cancel);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Rope}; }
    QList<Quantity> inputs(const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
