// DETR's map read an image at a time within a fixed block, and each cell's tolerance
// (Sincos2dDetrParts.h).
#include "check/sincos2d/Sincos2dDetrParts.h"

#include <cmath>

namespace posenc::Sincos2dDetrMap::parts {

double cellTolerance(const Form &form, std::int64_t channel, std::int64_t channels, double largest,
                     ValueFormat computed, StoredType stored)
{
    const double u = halfUnit(computed);
    const Wave wave = waveOf(form, channel, channels);
    // One unit in the coordinate's last place in the computed format (2u at 1).
    const double place = largest > 0.0 ? std::exp2(std::floor(std::log2(largest))) * 2.0 * u : 0.0;
    const double angle = (2.0 * place + (4.0 + std::log(form.temperature) * wave.exponent) * u * largest) / wave.dimT;
    return std::min(2.0, angle) + 2.0 * halfUnit(storedFormat(stored)) + 2.0 * u + 0x1p-23;
}

Images::Images(const TableRows &rows, const std::vector<std::int64_t> &dims, bool flattened)
    : m_rows(rows)
    , m_dims(dims)
    , m_flattened(flattened)
{ }

bool Images::scan()
{
    const std::int64_t channels = m_dims[1], height = m_dims[2], width = m_dims[3];
    m_edges.assign(std::size_t(m_dims[0] * channels * (height + width)), 0.0f);
    bool bfloat = true, half = true;
    m_nan = false;
    for (std::int64_t b = 0; b < m_dims[0]; ++b) {
        float *edges = m_edges.data() + b * channels * (height + width);
        const bool read = visit(b, [&](std::int64_t c, std::int64_t y, std::int64_t x, float v) {
            if (x == 0)
                edges[c * (height + width) + y] = v;
            if (y == 0)
                edges[c * (height + width) + height + x] = v;
            m_nan = m_nan || std::isnan(v);
            // A NaN or infinity is no value's format (Deformable DETR's padding computed in float16).
            if ((bfloat || half) && std::isfinite(v)) {
                const ValueFormat f = representableFormat(&v, 1);
                bfloat = bfloat && f == ValueFormat::BFloat16;
                half = half && f != ValueFormat::Float32 && std::fabs(v) <= 65504.0f
                    && (v == 0.0f || std::fabs(v) >= 0x1p-14f || f == ValueFormat::Float16);
            }
        });
        if (!read)
            return false;
    }
    // A value of a few bits is exact in either half type; only where every one is exact in bfloat16
    // was the map rounded to it (a float16 computation's values have 11 bits).
    m_format = bfloat ? ValueFormat::BFloat16 : half ? ValueFormat::Float16 : ValueFormat::Float32;
    return true;
}

float Images::edge(std::int64_t b, std::int64_t c, std::int64_t y, std::int64_t x) const
{
    const std::int64_t height = m_dims[2], width = m_dims[3];
    const float *edges = m_edges.data() + (b * m_dims[1] + c) * (height + width);
    return y == 0 ? edges[height + x] : edges[y];
}

// PositionEmbeddingSine's cumsum of the mask stops growing past the valid region (a padded row
// repeats the last valid row's y, a padded column the last valid column's x), so along column 0 the
// row's channels repeat from row h - 1 to the last, and along row 0 the column's channels from
// column w - 1. A padded cell repeats its last valid neighbour bit for bit (the same cumsum through
// the same operations): the padding is the constant tail, equal, not within a rounding, which a
// half type's neighbours of a tall map are.
Valid Images::validOf(std::int64_t b, bool rowFirst) const
{
    const std::int64_t channels = m_dims[1], height = m_dims[2], width = m_dims[3];
    const auto repeats = [&](bool byRows, std::int64_t at) {
        for (std::int64_t c = 0; c < channels; ++c) {
            if (((c < channels / 2) == rowFirst) == byRows
                && (byRows ? edge(b, c, at, 0) != edge(b, c, at - 1, 0) : edge(b, c, 0, at) != edge(b, c, 0, at - 1)))
                return false;
        }
        return true;
    };
    Valid v {height, width};
    while (v.height > 1 && repeats(true, v.height - 1))
        --v.height;
    while (v.width > 1 && repeats(false, v.width - 1))
        --v.width;
    return v;
}

Valid Images::shrunk(std::int64_t b, bool rowFirst) const
{
    Valid v = validOf(b, rowFirst);
    if (v.height < m_dims[2] && v.height > 1)
        --v.height;
    if (v.width < m_dims[3] && v.width > 1)
        --v.width;
    return v;
}

} // namespace posenc::Sincos2dDetrMap::parts
