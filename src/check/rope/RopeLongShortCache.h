#pragma once

#include "check/TableHypothesis.h"
#include "check/TableMatch.h"
#include "check/rope/RopeFit.h"
#include "check/rope/RopeRowPositions.h"

#include <QString>

#include <cstdint>
#include <vector>

// vLLM's LongRoPE cache as vLLM keeps it (docs/ARCHITECTURE.md, Checking a table): vllm
// model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py,
// Phi3LongRoPEScaledRotaryEmbedding.__init__ registers long_short_cos_sin_cache =
// torch.cat([short_cache, long_cache], dim=0), the short factors' table of positions
// 0..original_max_position_embeddings-1 followed by the long factors' from position 0, and forward
// gathers row position + original_max_position_embeddings for a long sequence. That buffer is the
// code working as designed: a published form of the LongRoPE it is made of, never a mistake. The
// gathered rows of vllm#27414 (a short sequence's rows, then an index past the short rows: row
// `original` the long list's position 0, the rows after it at their own index) are not this form.
namespace posenc::RopeLongShortCache {

// Whether the rows read (`regions` against LongRoPE's two `lists`, RopeRowPositions) are that form:
// rows 0..original-1 the short list at their own positions, rows original.. (at least two of them)
// the long list at position row - original, but for at most RopeRowPositions::mostStrayRows rows
// unread or elsewhere (a damaged cell or row), which the stream of the cache shows as deviating.
bool holds(const std::vector<RopeRowPositions::Region> &regions, const std::vector<RopeFit::Hypothesis> &lists,
           std::int64_t rows);

// The words of such a table of `rows` rows at `original`.
QString words(std::int64_t rows, std::int64_t original);

// `m`, the match of the long list's table (its reference a PairReference of the table's rows),
// made the match of the cache: every row compared with its own list at its own position, within
// float32 angles' tolerance (vLLM computes both caches so), `words` the diagnosis. A correct
// match is correct against the cache form of what it named; a variant or a mistake keeps its
// verdict and words, the cache's said after them.
TableMatch asCache(TableMatch m, const TableEvidence &e, const QString &words);

} // namespace posenc::RopeLongShortCache
