#include "check/PairAngles.h"

#include "check/CellTolerance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace posenc::PairAngles {

double PairSample::angle(std::int64_t i, std::int64_t j) const
{
    const double v = std::clamp(value(i, j), -1.0, 1.0);
    return cosine ? std::acos(v) : std::asin(v);
}

std::pair<double, double> PairSample::nearestTurn(std::int64_t i, std::int64_t j, double predicted) const
{
    return PairAngles::nearestTurn(angle(i, j), cosine, predicted);
}

std::pair<double, double> nearestTurn(double angle, bool cosine, double predicted)
{
    constexpr double kPi = std::numbers::pi;
    const double a = angle;
    double best = predicted, gap = std::numeric_limits<double>::infinity();
    for (const double base : {a, cosine ? -a : kPi - a}) {
        const double turned = base + 2.0 * kPi * std::round((predicted - base) / (2.0 * kPi));
        if (std::fabs(turned - predicted) < gap) {
            gap = std::fabs(turned - predicted);
            best = turned;
        }
    }
    return {best, gap};
}

double refined(double x, double angle, double slack, bool cosine, double inv, double *gap)
{
    const auto [best, off] = nearestTurn(angle, cosine, x * inv);
    if (gap)
        *gap = std::max(0.0, off - slack);
    return off > slack ? best / inv : x;
}

std::optional<PairSample> read(const TableEvidence &e)
{
    const std::int64_t pairs = e.cols() / 2, rows = e.sample.size();
    if (rows < 1 || pairs < 1)
        return std::nullopt;
    const RowMatrixXf &v = e.sample.values;
    const double tolerance = e.format == ValueFormat::Float32 ? 1e-6 : 1e-2;
    bool half = true, adjacent = true;
    for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < pairs; ++j) {
            half = half && std::fabs(v(i, j) - v(i, j + pairs)) <= tolerance;
            adjacent = adjacent && std::fabs(v(i, 2 * j) - v(i, 2 * j + 1)) <= tolerance;
        }
    }
    if (half == adjacent)
        return std::nullopt;
    PairSample p;
    p.half = half;
    p.value.resize(rows, pairs);
    for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < pairs; ++j)
            p.value(i, j) = v(i, half ? j : 2 * j);
    }
    const Eigen::VectorXd first = p.value.row(0);
    if ((first.array() - 1.0).abs().maxCoeff() <= tolerance)
        p.cosine = true;
    else if (first.cwiseAbs().maxCoeff() <= tolerance)
        p.cosine = false;
    else
        return std::nullopt;
    p.angleSlack.resize(rows, pairs);
    for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < pairs; ++j) {
            const double v = p.value(i, j), a = p.angle(i, j);
            const double delta = halfUnit(e.format) * std::fabs(v) + e.table.textRounding();
            const auto at = [&](double u) {
                const double c = std::clamp(u, -1.0, 1.0);
                return p.cosine ? std::acos(c) : std::asin(c);
            };
            p.angleSlack(i, j) = std::max(std::fabs(at(v + delta) - a), std::fabs(at(v - delta) - a));
        }
    }
    return p;
}

} // namespace posenc::PairAngles
