#include "RopeLayoutScore.h"

#include <cmath>

namespace posenc::RopeLayoutScore {

std::vector<double> lessonVector(const Params &params, bool query)
{
    std::vector<double> v(static_cast<std::size_t>(params.rope.headDim));
    for (std::size_t j = 0; j < v.size(); ++j)
        v[j] = query ? std::sin(double(j) + 1.0) : std::cos(2.0 * double(j) + 1.0);
    return v;
}

std::vector<double> rotated(const std::vector<double> &x, double position, const RopeFrequencies::Table &table,
                            RopeLayout layout)
{
    std::vector<double> out = x;
    const std::size_t h = table.inv.size();
    for (std::size_t i = 0; i < h; ++i) {
        const std::size_t a = layout == RopeLayout::Half ? i : 2 * i;
        const std::size_t b = layout == RopeLayout::Half ? i + h : 2 * i + 1;
        const double c = std::cos(position * table.inv[i]) * table.attentionFactor;
        const double s = std::sin(position * table.inv[i]) * table.attentionFactor;
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[b] * c + x[a] * s;
    }
    return out;
}

double dot(const std::vector<double> &a, const std::vector<double> &b)
{
    double sum = 0.0;
    for (std::size_t j = 0; j < a.size(); ++j)
        sum += a[j] * b[j];
    return sum;
}

double score(const Params &params, const RopeFrequencies::Table &table, double m, double n, RopeLayout layout)
{
    return dot(rotated(lessonVector(params, true), m, table, layout),
               rotated(lessonVector(params, false), n, table, layout));
}

RopeLayout other(RopeLayout layout)
{
    return layout == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
}

} // namespace posenc::RopeLayoutScore
