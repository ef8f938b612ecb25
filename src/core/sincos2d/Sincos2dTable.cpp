#include "Sincos2dTable.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace posenc {

namespace {

// get_1d_sincos_pos_embed_from_grid(d / 2, positions): [sin(x w_k) | cos(x w_k)], w_k =
// 1 / 10000^(k / (d / 4)), in double as numpy's float64 omega makes it.
// The value of column k of an axis's half at index i: [0, d/4) the sines, [d/4, d/2) the cosines.
float halfValue(std::int64_t i, std::int64_t size, std::int64_t quarter, std::int64_t k, const Sincos2dParams &sincos)
{
    const double x = Sincos2dTable::coordinate(i, size, sincos);
    const std::int64_t f = k < quarter ? k : k - quarter;
    const double a = x / std::pow(10000.0, double(f) / double(quarter));
    return static_cast<float>(k < quarter ? std::sin(a) : std::cos(a));
}

// The halves of an axis of `count` indices, each computed once, where they take no more than
// kMostHalfCells floats; else none, and each cell is computed as it is filled (a draw of a wide
// grid at a wide d computes a few corner cells, not gigabytes).
constexpr std::int64_t kMostHalfCells = std::int64_t(1) << 22;

std::vector<float> halves(std::int64_t count, std::int64_t size, std::int64_t columns, const Sincos2dParams &sincos)
{
    const std::int64_t quarter = columns / 4;
    if (count * 2 * quarter > kMostHalfCells)
        return {};
    std::vector<float> out(std::size_t(count * 2 * quarter));
    for (std::int64_t i = 0; i < count; ++i)
        for (std::int64_t k = 0; k < 2 * quarter; ++k)
            out[std::size_t(i * 2 * quarter + k)] = halfValue(i, size, quarter, k, sincos);
    return out;
}

} // namespace

Sincos2dTable::Sincos2dTable(const Params &params, std::int64_t columns)
    : m_height(params.sincos2d.grid[0])
    , m_width(params.sincos2d.grid[1])
    , m_cls(params.sincos2d.clsToken ? 1 : 0)
    , m_columns(columns)
    , m_sincos(params.sincos2d)
    , m_columnHalves(halves(m_width, m_width, columns, params.sincos2d))
    , m_rowHalves(halves(m_height, m_height, columns, params.sincos2d))
{ }

double Sincos2dTable::coordinate(std::int64_t i, std::int64_t size, const Sincos2dParams &sincos)
{
    if (!sincos.baseSize)
        return double(i);
    // diffusers: torch.arange(size, float32) / (size / base_size) / interpolation_scale, float32.
    const float step = static_cast<float>(double(size) / *sincos.baseSize);
    const float scaled = static_cast<float>(i) / step;
    return double(scaled / static_cast<float>(sincos.interpolationScale));
}

void Sincos2dTable::fill(const Block &block, BlockRef out) const
{
    const std::int64_t half = m_columns / 2;
    for (std::int64_t r = 0; r < block.rows; ++r) {
        float *line = out.data() + r * out.outerStride();
        const std::int64_t p = block.row0 + r;
        if (p < m_cls) {
            std::fill(line, line + block.cols, 0.0f);
            continue;
        }
        const std::int64_t n = p - m_cls;
        // Columns [0, half) from the column's half, [half, d) from the row's.
        const std::int64_t split = std::clamp(half - block.col0, std::int64_t(0), block.cols);
        if (!m_columnHalves.empty() && !m_rowHalves.empty()) {
            const float *column = m_columnHalves.data() + (n % m_width) * half;
            const float *row = m_rowHalves.data() + (n / m_width) * half;
            std::memcpy(line, column + block.col0, std::size_t(split) * sizeof(float));
            if (split < block.cols)
                std::memcpy(line + split, row + (block.col0 + split - half),
                            std::size_t(block.cols - split) * sizeof(float));
            continue;
        }
        const std::int64_t quarter = m_columns / 4;
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const std::int64_t k = block.col0 + c;
            line[c] = c < split ? halfValue(n % m_width, m_width, quarter, k, m_sincos)
                                : halfValue(n / m_width, m_height, quarter, k - half, m_sincos);
        }
    }
}

} // namespace posenc
