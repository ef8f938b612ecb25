#include "Sincos2dTable.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace posenc {

namespace {

// get_1d_sincos_pos_embed_from_grid(d / 2, positions): [sin(x w_k) | cos(x w_k)], w_k =
// 1 / 10000^(k / (d / 4)), in double as numpy's float64 omega makes it: here its divisors
// 10000^(k / (d / 4)), k < d / 4, computed once.
std::vector<double> divisorsOf(std::int64_t quarter)
{
    std::vector<double> out(std::size_t(std::max<std::int64_t>(quarter, 0)));
    for (std::int64_t k = 0; k < quarter; ++k)
        out[std::size_t(k)] = std::pow(10000.0, double(k) / double(quarter));
    return out;
}

// Column k of an axis's half at coordinate x: [0, d/4) the sines, [d/4, d/2) the cosines.
float halfValue(double x, const std::vector<double> &divisors, std::int64_t k)
{
    const auto quarter = std::int64_t(divisors.size());
    const bool sine = k < quarter;
    const double a = x / divisors[std::size_t(sine ? k : k - quarter)];
    return static_cast<float>(sine ? std::sin(a) : std::cos(a));
}

// The halves of both axes are kept whole where the larger takes no more than this many floats;
// else each cell is computed as it is filled (a draw of a wide grid at a wide d computes a few
// corner cells, not gigabytes).
constexpr std::int64_t kMostHalfCells = std::int64_t(1) << 22;

// An axis of `count` indices: each index's half, its coordinate computed once.
std::vector<float> halves(std::int64_t count, std::int64_t size, const std::vector<double> &divisors,
                          const Sincos2dParams &sincos)
{
    const auto half = 2 * std::int64_t(divisors.size());
    std::vector<float> out(std::size_t(count * half));
    for (std::int64_t i = 0; i < count; ++i) {
        const double x = Sincos2dTable::coordinate(i, size, sincos);
        for (std::int64_t k = 0; k < half; ++k)
            out[std::size_t(i * half + k)] = halfValue(x, divisors, k);
    }
    return out;
}

} // namespace

Sincos2dTable::Sincos2dTable(const Params &params, std::int64_t columns)
    : m_height(params.sincos2d.grid[0])
    , m_width(params.sincos2d.grid[1])
    , m_cls(params.sincos2d.clsToken ? 1 : 0)
    , m_columns(columns)
    , m_sincos(params.sincos2d)
    , m_divisors(divisorsOf(columns / 4))
{
    if (std::max(m_width, m_height) * (columns / 2) > kMostHalfCells)
        return;
    m_columnHalves = halves(m_width, m_width, m_divisors, m_sincos);
    m_rowHalves = halves(m_height, m_height, m_divisors, m_sincos);
}

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
        if (p >= rows()) { // past the grid's last patch: no such patch
            std::fill(line, line + block.cols, std::numeric_limits<float>::quiet_NaN());
            continue;
        }
        const std::int64_t n = p - m_cls;
        // Columns [0, half) from the column's half, [half, d) from the row's.
        const std::int64_t split = std::clamp(half - block.col0, std::int64_t(0), block.cols);
        if (!m_columnHalves.empty()) {
            const float *column = m_columnHalves.data() + (n % m_width) * half;
            const float *row = m_rowHalves.data() + (n / m_width) * half;
            std::memcpy(line, column + block.col0, std::size_t(split) * sizeof(float));
            if (split < block.cols)
                std::memcpy(line + split, row + (block.col0 + split - half),
                            std::size_t(block.cols - split) * sizeof(float));
            continue;
        }
        const double x = coordinate(n % m_width, m_width, m_sincos);
        const double y = coordinate(n / m_width, m_height, m_sincos);
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const std::int64_t k = block.col0 + c;
            line[c] = c < split ? halfValue(x, m_divisors, k) : halfValue(y, m_divisors, k - half);
        }
    }
}

} // namespace posenc
