#pragma once

#include "Detail.h"
#include "FigureModel.h"

#include "core/Engine.h"
#include "core/TitleText.h"

#include <QList>

#include <atomic>
#include <optional>

namespace posenc {

// Per position ||s*E_p||, ||PE_p|| and their ratio; per column the mean, std and RMS over
// positions of PE and of s*E (ColumnStatistics: exact at any length in the full pass); the
// closed forms beside them (docs/ARCHITECTURE.md, "The mathematics").
struct MagnitudesData : FigureData
{
    QList<double> positions; // every position, or evenly spaced ones (positionStride > 1)
    QList<double> peNorm, embeddingNorm, ratio;
    QList<double> columns;
    QList<double> peRms, embeddingRms;
    QList<double> peMean, peStd, embeddingMean, embeddingStd;
    std::optional<double> expectedPeNorm; // sqrt(k / 2)
    double expectedEmbeddingNorm = 0.0; // sqrt(s^2 sigma^2 d_E)
    std::int64_t positionStride = 1;
    std::int64_t rmsRows = 0; // positions the per-column statistics are taken over
    std::int64_t maxLen = 0;
    TitleText::RowIndex index; // what the rows are: positions, or a timestep embedding's timesteps
    QString input; // what X is: "X = [s·E | PE]" in concat
    bool hasPositionTerm = true; // false without one (--encoding none): no PE to draw or compare
    QString parameters; // FigureText::parametersText of X
    // The closed forms as the parameters write them: "√(s²σ²d)", "√(k/2)" in concat.
    QString expectedEmbeddingFormula, expectedPeFormula;

    // The per-column statistics are over every position, not an estimate.
    bool columnStatsExact() const { return rmsRows == maxLen; }
};

namespace MagnitudesCompute {

// The passes of the full detail: one, or where the exact statistics take long (more than the
// full budget's cells of s*E), several over 8 times more positions each, the last over all.
int passCount(const Engine &engine);
// The positions the last pass takes s*E's statistics over: every one, or past the cap of every
// figure (Budget::kMaxExactCells) as many as it allows, an estimate.
std::int64_t exactRows(const Engine &engine);

// `pixels` is the width the per-position curves are shown on. Full: the per-column statistics
// over every position in the last pass (`pass` -1; the first Budget::exactRowsWithin(d) past
// that cap, an estimate), over the first L / 8^k positions k passes
// before it, each labelled an estimate; Preview: s*E's estimated from a few rows (the PE's are
// exact either way). Nothing when cancelled.
std::optional<MagnitudesData> compute(const Engine &engine, int pixels, Detail detail, const ComputeOptions &options,
                                      int pass = -1);

} // namespace MagnitudesCompute

} // namespace posenc
