#pragma once

#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"

#include "core/Params.h"

#include <QList>
#include <QSize>

#include <atomic>
#include <optional>

namespace posenc {

// The learned family's position table P beside the sinusoidal table PE of the same shape (the
// base, layout and angles of the parameters): both tables, their similarity matrices P P^T and
// PE PE^T over the positions, and their row norms. The rows before the offset, which belong to
// padding, are shown at positions -offset .. -1 and used nowhere else. Every grid is at screen
// resolution: exact area averages, never more cells than pixels.
struct LearnedData : FigureData
{
    HeatmapGrid learned; // (offset + L) x d, its block's rows from -offset
    HeatmapGrid sinusoidal; // L x d
    HeatmapGrid learnedSimilarity, sinusoidalSimilarity; // L x L
    QList<double> learnedPositions, learnedNorm; // -offset .. L - 1
    QList<double> positions, sinusoidalNorm; // 0 .. L - 1
    double expectedPeNorm = 0.0; // sqrt(d / 2), interleaved even d; measured mean otherwise
    double learnedMeanNorm = 0.0;
    std::int64_t rows = 0; // L
    std::int64_t cols = 0; // d
    std::int64_t paddingRows = 0; // the table's rows before position 0
};

namespace LearnedCompute {

// Grid cell (a, b) of a rows x cols table shown on at most maxRows x maxCols cells: the mean of
// the table cells in rows [a R / n, (a + 1) R / n) and the matching columns.
HeatmapGrid areaAverage(const RowMatrixXf &table, int maxRows, int maxCols);

// The area average of table * table^T on at most `pixels` x `pixels` cells, from the means of
// row bands: the mean of P_p . P_q over p in band A and q in band B is mean(A) . mean(B).
HeatmapGrid similarity(const RowMatrixXf &table, int pixels);

// `learned` holds the learned table's rows 0 .. offset + L - 1: `paddingRows` rows of padding, then
// the positions. `tablePixels` and `similarityPixels` are the panel sizes. Nothing when cancelled.
std::optional<LearnedData> compute(const RowMatrixXf &learned, std::int64_t paddingRows, const Params &params,
                                   QSize tablePixels, int similarityPixels, const std::atomic<bool> *cancel = nullptr);

} // namespace LearnedCompute

} // namespace posenc
