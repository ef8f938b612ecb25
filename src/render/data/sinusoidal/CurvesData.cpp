#include "CurvesData.h"

#include "render/data/FigureText.h"

#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::CurvesCompute {

std::int64_t firstColumn(const Params &params)
{
    return params.concatenates() ? params.embeddingColumns() : 0;
}

std::int64_t defaultLastPosition(const Params &params, const std::vector<std::int64_t> &columns)
{
    const std::int64_t k = params.peColumns();
    double fastest = 0.0;
    for (const std::int64_t c : columns) {
        const std::int64_t j = c - firstColumn(params);
        if (j < 0 || j >= k)
            continue;
        const ColumnRole role = Frequencies::role(j, k, params.sinusoidal);
        fastest = std::max(fastest, Frequencies::angular(role.pair, k, params.sinusoidal));
    }
    const std::int64_t last = params.maxLen - 1;
    if (fastest <= 0.0)
        return last;
    const double turns = kReadableTurns * 2.0 * std::numbers::pi / fastest;
    return std::min(last, std::max(kLeastShown, static_cast<std::int64_t>(std::ceil(turns))));
}

std::vector<std::int64_t> defaultColumns(std::int64_t k)
{
    const std::int64_t middle = (k / 2) & ~std::int64_t(1);
    std::vector<std::int64_t> columns = {0, 1, middle, middle + 1, k - 2, k - 1};
    std::erase_if(columns, [k](std::int64_t c) { return c < 0 || c >= k; });
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    return columns;
}

std::vector<std::int64_t> defaultColumns(const Params &params)
{
    std::vector<std::int64_t> columns = defaultColumns(params.peColumns());
    for (std::int64_t &c : columns)
        c += firstColumn(params);
    return columns;
}

std::vector<std::int64_t> ladderColumns(const Params &params)
{
    const std::int64_t k = params.peColumns();
    const std::int64_t pairs = Frequencies::pairCount(k);
    std::vector<std::int64_t> columns;
    for (const int eighths : {0, 1, 2, 3, 5}) {
        const std::int64_t pair = std::min(pairs - 1, (pairs * eighths + 4) / 8);
        const std::int64_t j = Frequencies::column({pair, false}, k, params.sinusoidal);
        if (j >= 0)
            columns.push_back(j + firstColumn(params));
    }
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    return columns;
}

namespace {

// A sinusoid turning less than this many times a sample is drawn through its samples.
constexpr double kSmoothTurns = 0.125;

// The least and greatest of sin(t + phase) for t in [a, b].
std::pair<double, double> range(double a, double b, double phase)
{
    const double lo = a + phase, hi = b + phase;
    double least = std::min(std::sin(lo), std::sin(hi));
    double most = std::max(std::sin(lo), std::sin(hi));
    // A crest (pi/2 + 2 pi n) or a trough (-pi/2 + 2 pi n) inside the interval.
    const double twoPi = 2.0 * std::numbers::pi;
    if (std::floor((hi - std::numbers::pi / 2) / twoPi) > std::floor((lo - std::numbers::pi / 2) / twoPi))
        most = 1.0;
    if (std::floor((hi + std::numbers::pi / 2) / twoPi) > std::floor((lo + std::numbers::pi / 2) / twoPi))
        least = -1.0;
    return {least, most};
}

} // namespace

void sampleCurve(Curve &curve, bool isCos, double position0, double position1, int samples)
{
    const double step = samples > 1 ? (position1 - position0) / (samples - 1) : 0.0;
    const double phase = isCos ? std::numbers::pi / 2 : 0.0;
    curve.denseX.clear();
    curve.denseY.clear();
    curve.band = false;
    // A curve faster than its samples would alias into slow false waves: each sample then spans
    // the values the curve takes over its stretch, drawn as a stroke from the least to the most.
    if (step * curve.frequency / (2.0 * std::numbers::pi) > kSmoothTurns) {
        curve.denseX.reserve(2 * samples);
        curve.denseY.reserve(2 * samples);
        curve.band = true;
        for (int s = 0; s < samples; ++s) {
            const double x = position0 + step * s;
            const double a = std::max(position0, x - step / 2) * curve.frequency;
            const double b = std::min(position1, x + step / 2) * curve.frequency;
            const auto [least, most] = range(a, b, phase);
            curve.denseX.append({x, x});
            curve.denseY.append(s % 2 == 0 ? QList<double> {least, most} : QList<double> {most, least});
        }
        return;
    }
    curve.denseX.resize(samples);
    curve.denseY.resize(samples);
    for (int s = 0; s < samples; ++s) {
        const double x = position0 + step * s;
        const double angle = x * curve.frequency;
        curve.denseX[s] = x;
        curve.denseY[s] = isCos ? std::cos(angle) : std::sin(angle);
    }
}

std::optional<CurvesData> compute(const Engine &engine, const CurvesRequest &request, const ComputeOptions &options)
{
    const Params &params = engine.params();
    const std::int64_t k = params.peColumns();
    CurvesData data;
    data.firstColumn = firstColumn(params);
    data.parameters = FigureText::parametersText(Quantity::Pe, params);
    data.maxLen = params.maxLen;
    data.index = TitleText::rowIndex(params);
    data.position0 = std::max(0.0, std::min(request.position0, request.position1));
    data.position1 = std::min(static_cast<double>(params.maxLen - 1), std::max(request.position0, request.position1));
    if (data.position1 < data.position0)
        data.position1 = data.position0;
    // One sample per device pixel draws a smooth antialiased curve; each sample more costs
    // stroking time on the GUI thread (twice as many doubled the replot: 3.0 against 1.5 ms).
    const int samples = std::clamp(request.pixels, 16, 20000);
    const std::int64_t first = static_cast<std::int64_t>(std::ceil(data.position0));
    const std::int64_t last = static_cast<std::int64_t>(std::floor(data.position1));
    const std::int64_t points = last - first + 1;
    // Markers only where neighbours stay a few pixels apart.
    const bool markers = points > 0 && points <= std::max(2, request.pixels / 4);
    RowMatrixXf column(std::max<std::int64_t>(points, 1), 1);
    for (const std::int64_t xColumn : request.columns) {
        const std::int64_t j = xColumn - data.firstColumn;
        if (j < 0 || j >= k)
            continue;
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        Curve curve;
        curve.column = xColumn;
        curve.peColumn = j;
        const ColumnRole role = Frequencies::role(j, k, params.sinusoidal);
        curve.pair = role.pair;
        curve.isCos = role.isCos;
        curve.frequency = Frequencies::angular(role.pair, k, params.sinusoidal);
        curve.wavelength = Frequencies::wavelength(role.pair, k, params.sinusoidal);
        sampleCurve(curve, role.isCos, data.position0, data.position1, samples);
        if (markers) {
            engine.computeBlock(Quantity::Pe, {first, points, j, 1}, column);
            for (std::int64_t p = 0; p < points; ++p) {
                curve.pointX.append(static_cast<double>(first + p));
                curve.pointY.append(static_cast<double>(column(p, 0)));
            }
        }
        data.curves.append(curve);
    }
    return data;
}

QString legendText(const Curve &curve)
{
    return u"j=%1 %2 i=%3  w=%4  λ=%5"_s.arg(curve.column)
        .arg(curve.isCos ? u"cos"_s : u"sin"_s)
        .arg(curve.pair)
        .arg(NumberText::compact(curve.frequency, 3), NumberText::compact(curve.wavelength, 3));
}

QString shortLegendText(const Curve &curve)
{
    return u"j=%1 %2  λ=%3"_s.arg(curve.column)
        .arg(curve.isCos ? u"cos"_s : u"sin"_s)
        .arg(NumberText::compact(curve.wavelength, 3));
}

} // namespace posenc::CurvesCompute
