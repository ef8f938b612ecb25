#include "Sincos2dTable.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace posenc {

namespace {

// get_1d_sincos_pos_embed_from_grid(d / 2, positions): [sin(x w_k) | cos(x w_k)], w_k =
// 1 / 10000^(k / (d / 4)), in double as numpy's float64 omega makes it.
std::vector<float> halves(std::int64_t count, std::int64_t size, std::int64_t columns, const Sincos2dParams &sincos)
{
    const std::int64_t quarter = columns / 4;
    std::vector<float> out(std::size_t(count * 2 * quarter));
    for (std::int64_t i = 0; i < count; ++i) {
        const double x = Sincos2dTable::coordinate(i, size, sincos);
        float *half = out.data() + i * 2 * quarter;
        for (std::int64_t k = 0; k < quarter; ++k) {
            const double a = x / std::pow(10000.0, double(k) / double(quarter));
            half[k] = static_cast<float>(std::sin(a));
            half[quarter + k] = static_cast<float>(std::cos(a));
        }
    }
    return out;
}

} // namespace

Sincos2dTable::Sincos2dTable(const Params &params, std::int64_t columns)
    : m_height(params.sincos2d.grid[0])
    , m_width(params.sincos2d.grid[1])
    , m_cls(params.sincos2d.clsToken ? 1 : 0)
    , m_columns(columns)
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
        const float *column = m_columnHalves.data() + (n % m_width) * half;
        const float *row = m_rowHalves.data() + (n / m_width) * half;
        // Columns [0, half) from the column's half, [half, d) from the row's.
        const std::int64_t split = std::clamp(half - block.col0, std::int64_t(0), block.cols);
        std::memcpy(line, column + block.col0, std::size_t(split) * sizeof(float));
        if (split < block.cols)
            std::memcpy(line + split, row + (block.col0 + split - half),
                        std::size_t(block.cols - split) * sizeof(float));
    }
}

} // namespace posenc
