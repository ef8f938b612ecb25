#pragma once

#include "core/Params.h"
#include "core/rope/RopeFrequencies.h"

#include <vector>

// The score of one query and one key rotated by RoPE in either layout (docs/ARCHITECTURE.md,
// Lessons): what the rope-layouts lesson states and its figure draws. Pair i turns columns
// (i, i + h) in the half layout (rotate_half: GPT-NeoX, transformers' Llama) and (2i, 2i + 1)
// interleaved (GPT-J, Meta's Llama), h the table's pairs; the columns past the rotary dim pass.
// The same weights read in the other layout pair columns trained with other partners.
namespace posenc::RopeLayoutScore {

// The fixed head vectors the RoPE lessons rotate, over head_dim: q_j = sin(j + 1), k_j = cos(2j + 1).
std::vector<double> lessonVector(const Params &params, bool query);
// R(position) x in `layout`, cos and sin times the attention factor as transformers' tables hold them.
std::vector<double> rotated(const std::vector<double> &x, double position, const RopeFrequencies::Table &table,
                            RopeLayout layout);
double dot(const std::vector<double> &a, const std::vector<double> &b);
// <R(m) q, R(n) k> for the lesson's q and k in `layout`, the frequencies of `table`.
double score(const Params &params, const RopeFrequencies::Table &table, double m, double n, RopeLayout layout);
RopeLayout other(RopeLayout layout);

} // namespace posenc::RopeLayoutScore
