#pragma once

#include "render/data/FigureModel.h"

#include "core/Engine.h"
#include "core/TitleText.h"

#include <QList>
#include <QString>

#include <atomic>
#include <optional>
#include <vector>

namespace posenc {

struct CurvesRequest
{
    // Columns of X that hold the PE (firstColumn() .. d - 1); others are skipped.
    std::vector<std::int64_t> columns;
    double position0 = 0.0; // visible positions
    double position1 = 100.0;
    int pixels = 800; // plot width
};

// One column PE[:, j] as a smooth curve of the continuous position, with the table's values
// at the integer positions in view when they are few enough to be told apart.
struct Curve
{
    std::int64_t column = 0; // of X, as every figure numbers columns
    std::int64_t peColumn = 0; // of the PE table: column - firstColumn()
    std::int64_t pair = 0;
    bool isCos = false;
    double frequency = 0.0; // w_i, radians per position
    double wavelength = 0.0; // 2 pi / w_i, positions
    // Through the curve's values; or, for a band (see sampleCurve), the least and the most around
    // each sample, as the pairs (x, least), (x, most) or (x, most), (x, least), alternately.
    QList<double> denseX, denseY;
    bool band = false;
    QList<double> pointX, pointY; // from the engine's table
};

struct CurvesData : FigureData
{
    QList<Curve> curves;
    double position0 = 0.0;
    double position1 = 0.0;
    std::int64_t firstColumn = 0; // X's column of PE column 0: d - k in concat, else 0
    std::int64_t maxLen = 0;
    QString parameters; // FigureText::parametersText of the PE
    TitleText::RowIndex index; // what the rows are: positions, or a timestep embedding's timesteps
};

namespace CurvesCompute {

// The most curves one figure draws: more is a blur of lines and a legend longer than the plot.
constexpr std::int64_t kMaxCurves = 64;

// X's column that holds PE column 0: d - k in concat, where the PE sits in X's last k columns;
// 0 in sum.
std::int64_t firstColumn(const Params &params);
// A few low, middle and high columns of a table with `peColumns` columns.
std::vector<std::int64_t> defaultColumns(std::int64_t peColumns);
// Those of the PE of `params`, numbered as X numbers them.
std::vector<std::int64_t> defaultColumns(const Params &params);
// --dims ladder: the sines of the pairs at 0, 1/8, 1/4, 3/8 and 5/8 of the pairs, numbered as X
// numbers them. A pair's wavelength depends on i/(k/2) alone, so the ladder is the same set of
// wavelengths at every width: a list written for d 64 (0,8,16,24,40) was a dense band of five fast
// pairs at d 512 and beyond.
inline constexpr char16_t kLadder[] = u"ladder";
std::vector<std::int64_t> ladderColumns(const Params &params);
// The last position shown by default: the table's last, so that the view follows max_len, unless
// the fastest of `columns` would turn more than kReadableTurns times in it: then the positions
// it takes that many turns over (at least kLeastShown). Curves too fast for the pixels are drawn
// as bands, and at L 1024 the fastest pair's 163 turns made one solid block over the others.
std::int64_t defaultLastPosition(const Params &params, const std::vector<std::int64_t> &columns);
inline constexpr double kReadableTurns = 32.0;
inline constexpr std::int64_t kLeastShown = 64;
// The curve's dense line over [position0, position1] at `samples` samples: through its values,
// or, where it turns faster than an eighth of a turn a sample, through the least and the most it
// takes around each sample, which draws its band instead of aliases.
void sampleCurve(Curve &curve, bool isCos, double position0, double position1, int samples);
// The curves of the request; nothing when cancelled.
std::optional<CurvesData> compute(const Engine &engine, const CurvesRequest &request, const ComputeOptions &options);
QString legendText(const Curve &curve);
// The same, column, sin/cos and wavelength only: for a small figure.
QString shortLegendText(const Curve &curve);

} // namespace CurvesCompute

} // namespace posenc
