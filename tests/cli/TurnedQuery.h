#pragma once

// A query before and after RoPE for the `check --apply` tests (tst_cliapply, tst_cliapplyids),
// written in float64 as HF's apply_rotary_pos_emb computes it (modeling_llama.py: q * cos +
// rotate_half(q) * sin, inv_freq 1 / 10000^(2i / d)), or GPT-J's rotate_every_two.
#include <QtGlobal>

#include <cmath>
#include <cstddef>
#include <random>
#include <utility>
#include <vector>

namespace TurnedQuery {

// `rows` x `dim` random normal values (seeded by `seed`): a query before RoPE.
inline std::vector<float> normalRows(qint64 rows, qint64 dim, unsigned seed)
{
    std::mt19937 engine(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<float> x(std::size_t(rows * dim));
    for (float &v : x)
        v = float(normal(engine));
    return x;
}

// X random normal (seeded by `seed`), `positions.size()` rows of `dim`; Y X with row r turned at
// positions[r], theta 10000, the table's pairs `halfPairs` (i, i + d/2) or else (2i, 2i + 1), the
// rotation's likewise `halfRotation`, sin times `sign` (-1: q * cos - rotate_half(q) * sin, the
// rotation the wrong way).
inline std::pair<std::vector<float>, std::vector<float>> turned(const std::vector<qint64> &positions, qint64 dim,
                                                                unsigned seed, bool halfPairs = true,
                                                                bool halfRotation = true, double sign = 1.0)
{
    const auto rows = qint64(positions.size());
    const std::vector<float> x = normalRows(rows, dim, seed);
    std::vector<float> y(x.size());
    const qint64 h = dim / 2;
    for (qint64 r = 0; r < rows; ++r) {
        const auto at = [&](qint64 j) { return double(x[std::size_t(r * dim + j)]); };
        for (qint64 j = 0; j < dim; ++j) {
            const qint64 k = halfPairs ? j % h : j / 2;
            const double angle = double(positions[std::size_t(r)]) * std::pow(10000.0, -2.0 * double(k) / double(dim));
            const double other
                = halfRotation ? (j < h ? -at(j + h) : at(j - h)) : (j % 2 == 0 ? -at(j + 1) : at(j - 1));
            y[std::size_t(r * dim + j)] = float(at(j) * std::cos(angle) + sign * other * std::sin(angle));
        }
    }
    return {x, y};
}

} // namespace TurnedQuery
