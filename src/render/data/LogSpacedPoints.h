#pragma once

#include <QList>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace posenc {

// The points a line over 1 .. last on a log axis is drawn at, increasing: every whole number up to
// `dense`, then `sampled` whole numbers spaced evenly in log to `last`, each once, `last` the last
// (nope-order's query positions, rope-layouts' distances).
inline QList<double> logSpacedPoints(std::int64_t last, std::int64_t dense, std::int64_t sampled)
{
    QList<double> points;
    const std::int64_t every = std::min(last, dense);
    for (std::int64_t n = 1; n <= every; ++n)
        points.append(static_cast<double>(n));
    if (last > every) {
        const double from = std::log(static_cast<double>(every)), to = std::log(static_cast<double>(last));
        for (std::int64_t k = 1; k <= sampled; ++k) {
            const double n = std::round(std::exp(from + (to - from) * double(k) / double(sampled)));
            if (n > points.last())
                points.append(std::min(n, static_cast<double>(last)));
        }
        if (points.last() < static_cast<double>(last))
            points.append(static_cast<double>(last));
    }
    return points;
}

} // namespace posenc
