#pragma once

#include "BatchLayout.h"

#include "core/Block.h"

#include <cstdint>

// The query-key distances id(q) − id(k) of a row of the batch (docs/ARCHITECTURE.md, Positions in
// practice): a pair is attended where both are real tokens, the key is not after the query
// (causal; a model whose attention runs both ways sees it, BatchLayout::bothWays), and, where the
// attention keeps documents apart under the choice (BatchLayout::blockMask: varlen's cu_seqlens
// read from the restarting ids, or masking_utils' packed-sequence mask), both are in one document.
// Every count and sum over a rectangle of pairs is in closed form, segment pair by segment pair
// (ids are the column plus a constant within a segment), so a row of 32768 positions' 2^30 pairs
// is never formed. One id a token: M-RoPE's ids are read so only where
// BatchIds::distancesProblem finds nothing.
namespace posenc::DocumentDistance {

// Counts of a rectangle of pairs (or a whole row).
struct Counts
{
    std::int64_t attended = 0;
    std::int64_t cross = 0; // attended pairs of two documents
    std::int64_t crossNegative = 0; // ... whose distance is negative
    std::int64_t negative = 0; // attended pairs of a negative distance
    double sum = 0.0; // of the attended pairs' distances
    std::int64_t least = 0, most = 0; // the attended distances' range (valid where attended > 0)

    void add(const Counts &other);
};

bool attended(const BatchLayout &layout, IdsChoice choice, std::int64_t b, std::int64_t q, std::int64_t k);
// The attended pairs of queries [q0, q1) by keys [k0, k1) of row b.
Counts rectangle(const BatchLayout &layout, IdsChoice choice, std::int64_t b, std::int64_t q0, std::int64_t q1,
                 std::int64_t k0, std::int64_t k1);
Counts row(const BatchLayout &layout, IdsChoice choice, std::int64_t b);
// A block of the [B·L, L] table: row b·L + q, column k holds id(q) − id(k) where attended, NaN
// where the mask hides the pair.
void fill(const BatchLayout &layout, IdsChoice choice, const Block &block, BlockRef out);

// Whether the model's score reads the columns, not the ids: a family whose models build their bias
// from the columns or the mask (ScoreFromColumns: BLOOM's build_alibi_tensor, MPT's, T5's
// compute_bias, DeBERTa's build_relative_position), whose packed rows the restarted ids never
// reach. Its distances are the columns' (packing drew BLOOM the restarted ids' 11 negative
// distances, which its ALiBi never sees).
bool readsColumns(const Params &params);
// The layout whose ids are the distances the model's score reads: the batch's, its ids the columns
// where readsColumns (BatchLayout's by-column ids, one real token's column apart from the next).
BatchLayout readLayout(const Params &params);

// Pairs (q, k) of queries [qa, qb) by keys [ka, kb) with q − k <= t, in closed form (O(1)).
std::int64_t pairsAtMost(std::int64_t qa, std::int64_t qb, std::int64_t ka, std::int64_t kb, std::int64_t t);
// The sum of q − k over the pairs of the rectangle with q − k >= 0, in closed form.
double causalDifferenceSum(std::int64_t qa, std::int64_t qb, std::int64_t ka, std::int64_t kb);

} // namespace posenc::DocumentDistance
