#pragma once

#include "core/Params.h"

namespace posenc {
class Engine;
}

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include <QtCore/qnamespace.h>

// How a layer without position can still tell positions apart (docs/ARCHITECTURE.md, The
// mathematics): with a causal mask and scores that do not tell the keys apart (q·k the same for
// every key, as before training), query t attends to keys 0..t with weight 1/(t + 1) each, so its
// output h_t is the mean of the first t + 1 rows of X = s·E. The first key's weight, 1/(t + 1),
// names t exactly; the mean of t + 1 independent embeddings shrinks on average as
// E‖h_t‖² = s²σ²d/(t + 1) (Kazemnejad et al. 2023, "The Impact of Positional Encoding on Length
// Generalization in Transformers", Theorem 1; Haviv et al. 2022). Without the mask every query
// averages the same L keys: every h_t is alike and order is lost. The nope-order figure and the
// NoPE lesson read these functions.
namespace posenc::NopeOrder {

// The pen of the curves without the mask (every query sees every key), in the figure and in the
// lesson's words for them (LineWords).
inline constexpr Qt::PenStyle kNoMaskPen = Qt::DotLine;

// The rows of s·E prefixNorms reads at a time.
inline constexpr std::int64_t kChunkRows = 256;

// The weight of each key 0..t, the first among them, for query t under the causal mask: 1/(t + 1).
double causalWeight(std::int64_t t);
// The same without the mask: every query weighs all L keys 1/L.
double bidirectionalWeight(const Params &params);
// The expected norm of h_t, s·σ·√(d/(t + 1)), for the seeded embeddings (zero mean, independent
// cells); nothing for the rows of a loaded matrix, whose mean need not be zero.
std::optional<double> expectedNorm(const Params &params, std::int64_t t);
// The position an expected norm stands for: s²σ²d/‖h‖² − 1, where `expectedNorm` has one.
std::optional<double> positionOfNorm(const Params &params, double norm);

// The rows whose output is measured within `budgetCells` cells of s·E: all of L, or fewer.
std::int64_t measuredRows(const Params &params, std::int64_t budgetCells);
// ‖h_t‖ for t = 0 .. rows − 1, h_t the mean of rows 0..t of s·E as `engine` computes them, summed
// in double; nothing where `cancel` was set. Precondition: the engine can read those rows
// (Engine::check of Quantity::Embedding for a block of kChunkRows rows).
std::optional<std::vector<double>> prefixNorms(const Engine &engine, std::int64_t rows,
                                               const std::atomic<bool> *cancel = nullptr);

} // namespace posenc::NopeOrder
