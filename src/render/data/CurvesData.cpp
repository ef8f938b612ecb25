#include "CurvesData.h"

#include "FigureText.h"

#include "core/Frequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::CurvesCompute {

std::int64_t defaultLastPosition(std::int64_t maxLen)
{
    return std::min<std::int64_t>(maxLen - 1, 64);
}

std::int64_t firstColumn(const Params &params)
{
    return params.concatenates() ? params.embeddingColumns() : 0;
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

std::optional<CurvesData> compute(const Engine &engine, const CurvesRequest &request, const ComputeOptions &options)
{
    const Params &params = engine.params();
    const std::int64_t k = params.peColumns();
    CurvesData data;
    data.firstColumn = firstColumn(params);
    data.parameters = FigureText::parametersText(Quantity::Pe, params);
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
        const ColumnRole role = Frequencies::role(j, k, params.sinusoidal.layout);
        curve.pair = role.pair;
        curve.isCos = role.isCos;
        curve.frequency = Frequencies::angular(role.pair, k, params.sinusoidal.base);
        curve.wavelength = Frequencies::wavelength(role.pair, k, params.sinusoidal.base);
        curve.denseX.resize(samples);
        curve.denseY.resize(samples);
        for (int s = 0; s < samples; ++s) {
            const double x = data.position0 + (data.position1 - data.position0) * s / (samples - 1);
            const double angle = x * curve.frequency;
            curve.denseX[s] = x;
            curve.denseY[s] = role.isCos ? std::cos(angle) : std::sin(angle);
        }
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
        .arg(FigureText::formatNumber(curve.frequency, 3), FigureText::formatNumber(curve.wavelength, 3));
}

QString shortLegendText(const Curve &curve)
{
    return u"j=%1 %2  λ=%3"_s.arg(curve.column)
        .arg(curve.isCos ? u"cos"_s : u"sin"_s)
        .arg(FigureText::formatNumber(curve.wavelength, 3));
}

} // namespace posenc::CurvesCompute
