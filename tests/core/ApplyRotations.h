#pragma once

// Rotations for posenc check --apply's tests: Y = RoPE(X) written here as HF's modeling_llama.py
// computes it in float32 (inv_freq from tests/support/RopeReference.h in float64, rounded to
// float32; freqs = position * inv_freq in float32; cos and sin times attention_scaling; q * cos +
// rotate_half(q) * sin) or GPT-J's rotate_every_two with repeat_interleave'd cos and sin, or in
// float16 and bfloat16 as a model run in half precision computes it; and the largest error
// against float64.
#include "support/RopeReference.h"

#include "core/Block.h"
#include "core/Params.h"

#include <QMetaType>
#include <QString>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace applyref {

using namespace posenc;
using namespace Qt::StringLiterals;

struct Applied
{
    RowMatrixXf x, y;
};

// How Y is turned: the table's and the rotation's pairing, the rotated columns [col0, col0 + 2 *
// inv.size()) of a head of `headDim` (the rest pass through, as modeling_gpt_neox.py's q_pass), the
// inverse frequencies in float64 (rounded to float32 as HF's inv_freq buffer) and the attention
// scaling.
struct Rotation
{
    std::int64_t headDim = 128;
    RopeLayout table = RopeLayout::Half;
    RopeLayout rotation = RopeLayout::Half;
    std::int64_t col0 = 0;
    std::vector<double> inv;
    double scaling = 1.0;
    double sign = 1.0; // -1: q * cos - rotate_half(q) * sin, the rotation turned the wrong way
    // q * sin + rotate_half(q) * cos: cos and sin exchanged in the call (rasbt/LLMs-from-scratch#381)
    bool cosSinSwapped = false;
};

inline Rotation rotationOf(const Params &p, RopeLayout table, RopeLayout rotation)
{
    return {p.rope.headDim, table, rotation, 0, roperef::inv(p), roperef::attentionFactor(p)};
}

// X random normal (seed 47, or `seed`); Y X turned at positions[r] as `rot` says.
inline Applied applied(const Rotation &rot, const std::vector<std::int64_t> &positions, unsigned seed = 47)
{
    const std::int64_t d = rot.headDim, width = 2 * std::int64_t(rot.inv.size()), h = width / 2;
    const std::int64_t rows = std::int64_t(positions.size());
    std::mt19937 engine(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Applied a {RowMatrixXf(rows, d), RowMatrixXf(rows, d)};
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 0; j < d; ++j)
            a.x(r, j) = normal(engine);
    a.y = a.x;
    const auto scaling = float(rot.scaling);
    std::vector<float> cos(static_cast<std::size_t>(width)), sin(static_cast<std::size_t>(width));
    for (std::int64_t r = 0; r < rows; ++r) {
        // The table's columns: cat(freqs, freqs) for half, repeat_interleave(2) for interleaved.
        for (std::int64_t j = 0; j < width; ++j) {
            const std::int64_t k = rot.table == RopeLayout::Half ? j % h : j / 2;
            const float angle = float(positions[std::size_t(r)]) * float(rot.inv[std::size_t(k)]);
            cos[std::size_t(j)] = std::cos(angle) * scaling;
            sin[std::size_t(j)] = std::sin(angle) * scaling * float(rot.sign);
        }
        const auto xr = [&](std::int64_t j) { return a.x(r, rot.col0 + j); };
        for (std::int64_t j = 0; j < width; ++j) {
            float turned = 0.0f;
            if (rot.rotation == RopeLayout::Half)
                turned = j < h ? -xr(j + h) : xr(j - h);
            else
                turned = j % 2 == 0 ? -xr(j + 1) : xr(j - 1);
            const float c = cos[std::size_t(j)], s = sin[std::size_t(j)];
            a.y(r, rot.col0 + j) = rot.cosSinSwapped ? xr(j) * s + turned * c : xr(j) * c + turned * s;
        }
    }
    return a;
}

inline Applied applied(const Params &p, const std::vector<std::int64_t> &positions, RopeLayout table,
                       RopeLayout rotation)
{
    return applied(rotationOf(p, table, rotation), positions);
}

inline std::vector<std::int64_t> from(std::int64_t first, std::int64_t rows)
{
    std::vector<std::int64_t> positions(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r)
        positions[std::size_t(r)] = first + r;
    return positions;
}

inline Params ropeOf(RopeType type)
{
    if (type == RopeType::Llama3)
        return roperef::llama31();
    if (type == RopeType::Yarn)
        return roperef::gptOss();
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.headDim = 128;
    p.rope.theta = 10000.0;
    return p;
}

inline QString typeWord(RopeType type)
{
    return type == RopeType::Llama3 ? u"llama3"_s : type == RopeType::Yarn ? u"yarn"_s : u"default"_s;
}

// The largest |Y - X turned| as float64 computes it: each rotated pair at the exact angle
// position * inv, the pass columns against X.
inline double largestError(const Applied &a, const Rotation &rot, const std::vector<std::int64_t> &positions)
{
    const std::int64_t h = std::int64_t(rot.inv.size()), width = 2 * h;
    double largest = 0.0;
    for (std::int64_t row = 0; row < a.x.rows(); ++row) {
        for (std::int64_t k = 0; k < h; ++k) {
            const std::int64_t i = rot.col0 + (rot.table == RopeLayout::Half ? k : 2 * k),
                               j = rot.col0 + (rot.table == RopeLayout::Half ? k + h : 2 * k + 1);
            const double angle = double(positions[std::size_t(row)]) * rot.inv[std::size_t(k)];
            const double c = rot.scaling * std::cos(angle), s = rot.scaling * std::sin(angle);
            largest = std::max(largest, std::fabs(double(a.y(row, i)) - (a.x(row, i) * c - a.x(row, j) * s)));
            largest = std::max(largest, std::fabs(double(a.y(row, j)) - (a.x(row, j) * c + a.x(row, i) * s)));
        }
        for (std::int64_t j = 0; j < a.x.cols(); ++j) {
            if (j < rot.col0 || j >= rot.col0 + width)
                largest = std::max(largest, std::fabs(double(a.y(row, j)) - double(a.x(row, j))));
        }
    }
    return largest;
}

// HF's _compute_default_rope_parameters for a partial rotary (modeling_rope_utils.py): dim =
// int(head_dim * partial_rotary_factor), inv_freq = 1 / base^(arange(0, dim, 2) / dim).
inline Rotation partial(std::int64_t headDim, double factor, double theta, RopeLayout layout = RopeLayout::Half)
{
    const auto r = static_cast<std::int64_t>(double(headDim) * factor);
    return {headDim, layout, layout, 0, roperef::defaultInv(theta, r), 1.0};
}

// The formats a model runs in: float16 and bfloat16 rounding (round to nearest even), or none.
enum class Format { Float32, Float16, BFloat16 };

inline float rounded(Format format, float v)
{
    switch (format) {
    case Format::Float16:
        return float(Eigen::half(v));
    case Format::BFloat16:
        return float(Eigen::bfloat16(v));
    case Format::Float32:
        break;
    }
    return v;
}

inline RowMatrixXf roundedAll(const RowMatrixXf &m, Format format)
{
    return m.unaryExpr([format](float v) { return rounded(format, v); });
}

// Y of X turned at `positions` as HF's apply_rotary_pos_emb computes it in `format`
// (modeling_llama.py: the rotary embedding's cos and sin of float32 angles times
// attention_scaling, cast .to(x.dtype); q * cos and rotate_half(q) * sin, each product rounded to
// the format, then their sum); Float32 rounds nothing.
inline RowMatrixXf turnedIn(const RowMatrixXf &x, const Rotation &rot, const std::vector<std::int64_t> &positions,
                            Format format)
{
    const std::int64_t width = 2 * std::int64_t(rot.inv.size()), h = width / 2;
    RowMatrixXf y = x;
    for (std::int64_t r = 0; r < x.rows(); ++r) {
        for (std::int64_t j = 0; j < width; ++j) {
            const std::int64_t k = rot.table == RopeLayout::Half ? j % h : j / 2;
            const float angle = float(positions[std::size_t(r)]) * float(rot.inv[std::size_t(k)]);
            const float c = rounded(format, std::cos(angle) * float(rot.scaling));
            const float s = rounded(format, std::sin(angle) * float(rot.scaling) * float(rot.sign));
            const auto xr = [&](std::int64_t i) { return x(r, rot.col0 + i); };
            float turned = 0.0f;
            if (rot.rotation == RopeLayout::Half)
                turned = j < h ? -xr(j + h) : xr(j - h);
            else
                turned = j % 2 == 0 ? -xr(j + 1) : xr(j - 1);
            y(r, rot.col0 + j) = rounded(format, rounded(format, xr(j) * c) + rounded(format, turned * s));
        }
    }
    return y;
}

// X random normal (seed 47), rounded to `format` where `roundX`; Y computed in float32 and
// rounded to `format` (numpy's astype, torch's .to), or computed in it (`inFormat`).
inline Applied appliedIn(Format format, bool roundX, bool inFormat, const Rotation &rot,
                         const std::vector<std::int64_t> &positions)
{
    Applied a = applied(rot, positions);
    if (roundX)
        a.x = roundedAll(a.x, format);
    a.y = turnedIn(a.x, rot, positions, inFormat ? format : Format::Float32);
    if (!inFormat)
        a.y = roundedAll(a.y, format);
    return a;
}

} // namespace applyref

Q_DECLARE_METATYPE(applyref::Format)
