#pragma once

#include "FigureModel.h"

#include "core/Engine.h"

#include <QList>
#include <QString>

#include <atomic>
#include <optional>
#include <vector>

namespace posenc {

struct CurvesRequest
{
    std::vector<std::int64_t> columns; // columns of the PE table; out-of-range ones are skipped
    double position0 = 0.0; // visible positions
    double position1 = 100.0;
    int pixels = 800; // plot width
};

// One column PE[:, j] as a smooth curve of the continuous position, with the table's values
// at the integer positions in view when they are few enough to be told apart.
struct Curve
{
    std::int64_t column = 0;
    std::int64_t pair = 0;
    bool isCos = false;
    double frequency = 0.0; // w_i, radians per position
    double wavelength = 0.0; // 2 pi / w_i, positions
    QList<double> denseX, denseY;
    QList<double> pointX, pointY; // from the engine's table
};

struct CurvesData : FigureData
{
    QList<Curve> curves;
    double position0 = 0.0;
    double position1 = 0.0;
};

namespace CurvesCompute {

// The most curves one figure draws: more is a blur of lines and a legend longer than the plot.
constexpr std::int64_t kMaxCurves = 64;

// A few low, middle and high columns of a table with `peColumns` columns.
std::vector<std::int64_t> defaultColumns(std::int64_t peColumns);
// The last position shown by default: 64 positions, enough to see the fast columns turn and
// their integer dots apart, or the whole table when it is shorter.
std::int64_t defaultLastPosition(std::int64_t maxLen);
// The curves of the request; nothing when cancelled.
std::optional<CurvesData> compute(const Engine &engine, const CurvesRequest &request, const ComputeOptions &options);
QString legendText(const Curve &curve);
// The same, column, sin/cos and wavelength only: for a small figure.
QString shortLegendText(const Curve &curve);

} // namespace CurvesCompute

} // namespace posenc
