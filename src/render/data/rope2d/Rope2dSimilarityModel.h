#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

namespace posenc {

// The rope-2d-similarity figure's data: for each way of splitting the pairs between the axes, the
// score of the chosen patch against every patch of the grid (an even sample of a large grid).
struct Rope2dSimilarityData : FigureData
{
    static constexpr std::int64_t kMaxSide = 256;

    struct Panel
    {
        QString title; // "pixtral · head 64, θ 1e4"
        bool chosen = false; // the parameters' own style
        QList<std::int64_t> rows, columns; // the grid rows and columns sampled
        QList<double> score; // rows x columns, row-major
        double along = 0.0, across = 0.0; // the score `quarter` patches away along a row, down a column
    };
    QList<Panel> panels;
    std::int64_t height = 0, width = 0;
    std::int64_t patchRow = 0, patchColumn = 0;
    std::int64_t quarter = 1; // a quarter of the grid's longer side, at least 1
    double least = 1.0; // the lowest score of all panels
};

// "2-D RoPE similarity": <R(p0) q, R(p) q> / |q|^2 for q all ones, p0 the chosen patch, over the
// whole grid, for each style: the Qwen-VL ViT, Pixtral, FLUX.1, RoPE-ViT's axial form, and M-RoPE's
// chunked and interleaved splits of an image's h and w; the parameters' own style with their head
// and theta, the others with their models' own (each panel says which).
class Rope2dSimilarityModel final : public FigureModel
{
public:
    static Rope2dSimilarityData compute(const Params &params);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<Encoding> families() const override { return {Encoding::Rope2d}; }
    QList<Quantity> inputs(const FigureState &state) const override;
    std::optional<TableRequest> table(const Params &params, const FigureState &state) const override;

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
