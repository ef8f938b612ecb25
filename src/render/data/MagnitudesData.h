#pragma once

#include "Detail.h"
#include "FigureModel.h"

#include "core/Engine.h"

#include <QList>

#include <atomic>
#include <optional>

namespace posenc {

// Per position ||s*E_p||, ||PE_p|| and their ratio; per column the RMS of PE and of s*E;
// the closed forms beside them (DESIGN.md section 1).
struct MagnitudesData : FigureData
{
    QList<double> positions; // every position, or evenly spaced ones (positionStride > 1)
    QList<double> peNorm, embeddingNorm, ratio;
    QList<double> columns;
    QList<double> peRms, embeddingRms;
    std::optional<double> expectedPeNorm; // sqrt(k / 2)
    double expectedEmbeddingNorm = 0.0; // sqrt(s^2 sigma^2 d_E)
    std::int64_t positionStride = 1;
    std::int64_t rmsRows = 0; // positions the column RMS is taken over
    std::int64_t maxLen = 0;
};

namespace MagnitudesCompute {

// `pixels` is the width the per-position curves are shown on. Nothing when cancelled.
std::optional<MagnitudesData> compute(const Engine &engine, int pixels, Detail detail, const ComputeOptions &options);

} // namespace MagnitudesCompute

} // namespace posenc
