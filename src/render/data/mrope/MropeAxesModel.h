#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

namespace posenc {

// The mrope-axes figure's data: each rotary pair's wavelength, and the axis that owns it chunked
// and interleaved with the same section, and what a width offset turns the fastest w pair by.
struct MropeAxesData : FigureData
{
    QList<double> wavelengths; // 2 pi / inv_freq of each pair
    QList<int> chunked; // the axis of each pair chunked; empty where the section does not sum
    QList<int> interleaved; // ... and interleaved
    bool interleavedChosen = false; // the parameters' own split
    QString section; // "16,24,24"
    double theta = 0.0;
    std::int64_t headDim = 0;
    // The fastest w pair of each split and its turn for an offset of kOffset patches (-1: none).
    static constexpr int kOffset = 32;
    std::int64_t chunkedFastestW = -1, interleavedFastestW = -1;
    double chunkedTurn = 0.0, interleavedTurn = 0.0;
};

// "M-RoPE axes": which axis (t, h, w) owns each rotary pair, against the pair's wavelength on a log
// axis, chunked (apply_multimodal_rotary_pos_emb) above and interleaved (apply_interleaved_mrope)
// below for the same section and frequencies: chunked leaves width only the slowest pairs.
class MropeAxesModel final : public FigureModel
{
public:
    static MropeAxesData compute(const Engine &engine);

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
