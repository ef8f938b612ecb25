#include "Rope2dRotation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QString styleWord(Rope2dStyle style)
{
    switch (style) {
    case Rope2dStyle::QwenVit:
        return u"qwen-vit"_s;
    case Rope2dStyle::Pixtral:
        return u"pixtral"_s;
    case Rope2dStyle::Flux:
        return u"flux"_s;
    case Rope2dStyle::Axial:
        return u"axial"_s;
    case Rope2dStyle::Hunyuan:
        return u"hunyuan"_s;
    }
    return {};
}

// 1 / theta^(numerator / denominator), in double.
double inverse(double theta, double numerator, double denominator)
{
    return 1.0 / std::pow(theta, numerator / denominator);
}

} // namespace

std::optional<QString> Rope2dRotation::styleProblem(const Params &params)
{
    const Rope2dParams &r = params.rope2d;
    if (r.style != Rope2dStyle::Flux && params.rope.headDim % 4 != 0)
        return u"%1 splits a head's pairs between two axes: head-dim must be a multiple of 4; it is %2"_s
            .arg(styleWord(r.style))
            .arg(params.rope.headDim);
    return std::nullopt;
}

std::optional<QString> Rope2dRotation::axesProblem(const Params &params)
{
    const std::vector<std::int64_t> &dims = params.rope2d.axesDim;
    if (dims.size() < 3 || std::ssize(dims) > Rope2dParams::kMaxAxes)
        return u"3 to 8 even column counts (t, h, w[, l]); it has %1"_s.arg(dims.size());
    for (const std::int64_t d : dims) {
        if (d < 2 || d % 2 != 0 || d > RopeParams::kMaxHeadDim)
            return u"even column counts in [2, 65536]; %1 is not"_s.arg(d);
    }
    if (params.encoding == Encoding::Rope2d && params.rope2d.style == Rope2dStyle::Flux) {
        const std::int64_t sum = std::accumulate(dims.begin(), dims.end(), std::int64_t(0));
        if (sum != params.rope.headDim)
            return u"column counts summing to head-dim %1 (EmbedND's axes fill the head); they sum to %2"_s
                .arg(params.rope.headDim)
                .arg(sum);
    }
    return std::nullopt;
}

Rope2dRotation::Rope2dRotation(const Params &params)
    : m_style(params.rope2d.style)
    , m_rows(params.sincos2d.grid[0])
    , m_columns(params.sincos2d.grid[1])
    , m_merge(params.mrope.spatialMergeSize)
    , m_half(m_style == Rope2dStyle::QwenVit || m_style == Rope2dStyle::Pixtral || m_style == Rope2dStyle::Hunyuan)
    , m_origin(params.rope2d.originIds())
{
    const double theta = params.rope.theta;
    const std::int64_t headDim = params.rope.headDim;
    const std::int64_t quarter = headDim / 4;
    const auto add = [this](int axis, double inv) {
        m_axes.push_back(axis);
        m_inv.push_back(inv);
    };
    switch (m_style) {
    case Rope2dStyle::QwenVit: // VisionRotaryEmbedding(head_dim / 2): the same ladder for both axes
        for (const int axis : {kRow, kColumn}) {
            for (std::int64_t k = 0; k < quarter; ++k)
                add(axis, inverse(theta, double(2 * k), double(headDim / 2)));
        }
        break;
    case Rope2dStyle::Pixtral: // freqs[::2] for rows, freqs[1::2] for columns
        for (std::int64_t k = 0; k < quarter; ++k)
            add(kRow, inverse(theta, double(2 * (2 * k)), double(headDim)));
        for (std::int64_t k = 0; k < quarter; ++k)
            add(kColumn, inverse(theta, double(2 * (2 * k + 1)), double(headDim)));
        break;
    case Rope2dStyle::Flux: // EmbedND: each axis its own ladder
        for (std::size_t i = 0; i < params.rope2d.axesDim.size(); ++i) {
            const std::int64_t d = params.rope2d.axesDim[i];
            for (std::int64_t k = 0; k < d / 2; ++k)
                add(int(i), inverse(theta, double(2 * k), double(d)));
        }
        break;
    case Rope2dStyle::Axial: // compute_axial_cis: x (the column) first, then y
        for (const int axis : {kColumn, kRow}) {
            for (std::int64_t k = 0; k < quarter; ++k)
                add(axis, inverse(theta, double(4 * k), double(headDim)));
        }
        break;
    case Rope2dStyle::Hunyuan: // (all_pos * theta.reshape(1, d/4, 2)): pair 2m + a on (y, x)[a]
        for (std::int64_t k = 0; k < headDim / 2; ++k)
            add(k % 2 == 0 ? kRow : kColumn, inverse(theta, double(2 * k), double(headDim)));
        break;
    }
    // The runs of pairs on one axis, and each one's values at every coordinate of its axis.
    for (std::int64_t j = 0; j < pairs(); ++j) {
        const int axis = m_axes[std::size_t(j)];
        if (m_runs.empty() || m_runs.back().axis != axis)
            m_runs.push_back(Run {axis, j, 0, m_half ? j : 2 * j, 0, {}, {}});
        ++m_runs.back().count;
    }
    for (Run &run : m_runs) {
        run.width = m_half ? run.count : 2 * run.count;
        const std::int64_t n = coordinates(run.axis);
        run.cos.resize(std::size_t(n * run.width));
        run.sin.resize(std::size_t(n * run.width));
        for (std::int64_t x = 0; x < n; ++x) {
            for (std::int64_t k = 0; k < run.count; ++k) {
                const double a = double(x + originOf(run.axis)) * m_inv[std::size_t(run.firstPair + k)];
                const auto c = static_cast<float>(std::cos(a)), s = static_cast<float>(std::sin(a));
                const std::int64_t at = x * run.width + (m_half ? k : 2 * k);
                run.cos[std::size_t(at)] = c;
                run.sin[std::size_t(at)] = s;
                if (!m_half) {
                    run.cos[std::size_t(at + 1)] = c;
                    run.sin[std::size_t(at + 1)] = s;
                }
            }
        }
    }
}

std::int64_t Rope2dRotation::originOf(int axis) const
{
    return axis == kRow ? m_origin.first : axis == kColumn ? m_origin.second : 0;
}

std::int64_t Rope2dRotation::coordinates(int axis) const
{
    return axis == kRow ? m_rows : axis == kColumn ? m_columns : 1;
}

std::pair<std::int64_t, std::int64_t> Rope2dRotation::patchAt(std::int64_t n) const
{
    if (m_style != Rope2dStyle::QwenVit)
        return {n / m_columns, n % m_columns};
    // rot_pos_emb: hpos and wpos reshaped (h/m, m, w/m, m) and permuted (0, 2, 1, 3).
    const std::int64_t unit = m_merge * m_merge;
    const std::int64_t block = n / unit, within = n % unit;
    const std::int64_t blocksPerRow = m_columns / m_merge;
    return {(block / blocksPerRow) * m_merge + within / m_merge, (block % blocksPerRow) * m_merge + within % m_merge};
}

double Rope2dRotation::angle(std::int64_t j, std::int64_t row, std::int64_t column) const
{
    const int axis = m_axes[std::size_t(j)];
    const std::int64_t id = axis == kRow ? row : axis == kColumn ? column : 0;
    return double(id + originOf(axis)) * m_inv[std::size_t(j)];
}

void Rope2dRotation::copyRun(const Run &run, bool cosine, std::int64_t coordinate, std::int64_t rowColumn,
                             const Block &block, float *out) const
{
    const std::int64_t first = std::max(rowColumn, block.col0);
    const std::int64_t last = std::min(rowColumn + run.width, block.col0 + block.cols);
    if (first >= last)
        return;
    const float *values = (cosine ? run.cos : run.sin).data() + coordinate * run.width + (first - rowColumn);
    std::memcpy(out + (first - block.col0), values, std::size_t(last - first) * sizeof(float));
}

void Rope2dRotation::fillTable(bool cosine, const Block &block, BlockRef out) const
{
    for (std::int64_t r = 0; r < block.rows; ++r) {
        float *line = out.data() + r * out.outerStride();
        if (block.row0 + r >= patches()) {
            std::fill(line, line + block.cols, std::numeric_limits<float>::quiet_NaN());
            continue;
        }
        const auto [row, column] = patchAt(block.row0 + r);
        for (const Run &run : m_runs) {
            const std::int64_t coordinate = run.axis == kRow ? row : run.axis == kColumn ? column : 0;
            copyRun(run, cosine, coordinate, run.firstColumn, block, line);
            if (m_half) // cat(rotary, rotary): the second half repeats the first
                copyRun(run, cosine, coordinate, run.firstColumn + pairs(), block, line);
        }
    }
}

void Rope2dRotation::fillScore(const Block &block, BlockRef out, std::int64_t patchRow, std::int64_t patchColumn) const
{
    // Each pair adds cos(its angle at p - at p0) / pairs; a pair's angle moves with one axis only,
    // so the sum is a row's part plus a column's part plus the pairs of the constant axes.
    std::vector<double> rowPart(std::size_t(block.rows), 0.0), columnPart(std::size_t(block.cols), 0.0);
    double constant = 0.0;
    for (std::int64_t j = 0; j < pairs(); ++j) {
        const int axis = m_axes[std::size_t(j)];
        const double inv = m_inv[std::size_t(j)];
        if (axis == kRow) {
            for (std::int64_t r = 0; r < block.rows; ++r)
                rowPart[std::size_t(r)] += std::cos(double(block.row0 + r - patchRow) * inv);
        } else if (axis == kColumn) {
            for (std::int64_t c = 0; c < block.cols; ++c)
                columnPart[std::size_t(c)] += std::cos(double(block.col0 + c - patchColumn) * inv);
        } else {
            constant += 1.0;
        }
    }
    const double n = double(pairs());
    for (std::int64_t r = 0; r < block.rows; ++r) {
        for (std::int64_t c = 0; c < block.cols; ++c)
            out(r, c) = static_cast<float>((rowPart[std::size_t(r)] + columnPart[std::size_t(c)] + constant) / n);
    }
}

} // namespace posenc
