#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

namespace posenc {

// The mrope-positions figure's data: the t, h and w ids of the prompt's tokens (all of them, or an
// even sample of a long prompt), its vision spans, where the text after each starts, and where
// generation goes on.
struct MropePositionsData : FigureData
{
    static constexpr std::int64_t kMaxPoints = 8192;
    static constexpr qsizetype kMaxSpans = 256;

    std::int64_t tokens = 0;
    QList<double> rows, t, h, w;
    bool sampled = false;
    struct Span
    {
        std::int64_t first = 0, end = 0;
        bool video = false;
    };
    QList<Span> spans; // the first kMaxSpans vision spans
    qsizetype allSpans = 0;
    QList<double> startRows, startIds; // the first token of each text run after a vision span
    std::int64_t maxId = 0;
    std::int64_t ropeDelta = 0;
    QString rule; // "qwen2.5-vl, transformers v4"
};

// "M-RoPE positions": each token of the prompt along the sequence with its t, h and w ids as
// get_rope_index gives them, the image and video spans shaded, the next text's start marked, and
// the first generated token at max + 1 (rope_deltas).
class MropePositionsModel final : public FigureModel
{
public:
    static MropePositionsData compute(const Engine &engine);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<Encoding> families() const override { return {Encoding::Mrope}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
