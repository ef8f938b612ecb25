#pragma once

#include "render/data/Detail.h"
#include "render/data/FigureModel.h"

#include "core/Engine.h"
#include "core/TitleText.h"

#include <QList>
#include <QString>

#include <atomic>
#include <optional>

namespace posenc {

// One panel of the scale comparison: an init sigma and a scale s, and what they make of s*E.
struct ScaleVariant
{
    InitKind init = InitKind::Normal; // sigma 1, or d^-1/2 (ScaledNormal)
    ScaleKind scale = ScaleKind::One; // s 1, or sqrt(d)
    double sigma = 1.0;
    double s = 1.0;
    QString sigmaText; // "σ = 1", "σ = d^-1/2 = 0.0442"
    QString scaleText; // "s = 1", "s = √d = 22.63"
    QList<double> embeddingNorm; // ||s*E_p|| at the positions
    double expectedEmbeddingNorm = 0.0; // sqrt(s^2 sigma^2 d_E), d_E = d (d - k in concat)
    // sqrt(sum_p ||s*E_p||^2 / sum_p ||PE_p||^2) over the positions: the RMS norms' ratio.
    double measuredRatio = 0.0;
    // sqrt(s^2 sigma^2 d_E / mean_p ||PE_p||^2): sqrt(s^2 sigma^2 d / (d/2)) = s sigma sqrt(2) in sum.
    double expectedRatio = 0.0;
};

// The ratio ||s*E|| / ||PE|| of one choice of sigma and s against d_model, in closed form:
// sqrt(s^2 sigma^2 d_E / (k/2)), where s and sigma may themselves follow d (sqrt(d), d^-1/2).
struct RatioAgainstD
{
    QString label; // "σ = 1, s = √d"; the parameters' own: "yours: σ = 0.0289, s = √d"
    bool yours = false;
    QList<double> d; // d_model, 4 a factor of 2, from 16 on
    QList<double> ratio;
};

// Why s = sqrt(d): the norms per position of s*E against those of PE for sigma in {1, d^-1/2}
// and s in {1, sqrt(d)}, at the parameters' d, L, PE and seed, with the ratio of the norms
// measured beside its closed form (docs/ARCHITECTURE.md, "The mathematics").
struct ScaleCompareData : FigureData
{
    QList<ScaleVariant> variants; // sigma 1 with s 1 and s sqrt(d), then sigma d^-1/2 with both
    QList<double> positions; // every position, or evenly spaced ones (positionStride > 1)
    QList<double> peNorm; // ||PE_p||, the same in every panel
    double meanSquaredPeNorm = 0.0; // mean over all L positions of ||PE_p||^2: k/2 for even k
    std::int64_t positionStride = 1;
    TitleText::RowIndex index; // what the rows are: positions, or a timestep embedding's timesteps
    std::int64_t maxLen = 0;
    bool concat = false;
    bool loadedMatrixSetAside = false; // the parameters' own E was a loaded matrix
    QString parameters; // "d = 512, L = 1,024", the compose and PE that differ from the paper's
    QString ratioFormula; // "√(s²σ²d / (d/2))", "√(s²σ²(d−k) / (k/2))" in concat
    QString expectedEmbeddingFormula; // "√(s²σ²d)", "√(s²σ²(d−k))"
    QString expectedPeFormula; // "√(d/2)", "√(k/2)", "√(mean‖PEₚ‖²)" for odd k
    // The four panels' ratios against d, then the parameters' own sigma and s (none for a loaded
    // matrix, whose sigma is its own), and where the parameters' d puts theirs.
    QList<RatioAgainstD> ratios;
    double d = 0.0;
    double ownRatio = 0.0; // closed form at the parameters' d and sigma

    // The ratio is measured over every position, not a sample.
    bool isExact() const { return positionStride == 1; }
};

namespace ScaleCompareCompute {

// The parameters of the four panels, in the order of ScaleCompareData::variants: those given,
// with sigma and s set and seeded embeddings in place of a loaded matrix.
QList<Params> variants(const Params &params);
// The positions measured: every one while 5 rows of d cells each (four s*E and the PE) fit
// the budget of `detail`, else as many evenly spaced ones as fit.
std::int64_t positionStride(const Params &params, Detail detail);
// sqrt(E||s*E_p||^2 / ||PE_p||^2) in closed form at the parameters' d, sigma and s (k/2 for the
// PE's squared norm: odd k by its average).
double expectedRatio(const Params &params);
// That ratio against d_model for the parameters with d changed: from 16 to 16384, or to 4 d
// past that, 4 values a factor of 2. In concat with pe-dims set, the d that leave E no column are
// skipped.
RatioAgainstD ratioAgainstD(const Params &params, const QString &label, bool yours);
// Nothing when cancelled.
std::optional<ScaleCompareData> compute(const Params &params, Detail detail, const ComputeOptions &options);

} // namespace ScaleCompareCompute

} // namespace posenc
