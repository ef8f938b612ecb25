#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <cstdint>
#include <optional>

// MPT's key biases [.., H, 1, L] whose last key is not 0 (docs/ARCHITECTURE.md, Checking a table,
// "Shapes"): slope × (j − c) for one whole c past the last key, the keys counted as if the query
// stood at c, a bias built over c + 1 keys and cut to its first L where its last L belong
// (mosaicml/examples#259). Read in a float32 or float64 row only: a half format's slope is read
// from the key next to the origin, 0 there (AlibiBiasTensors::keyBiases).
namespace posenc::AlibiKeysCountedOff {

// c where the row of `length` keys, the line through its two ends, reaches 0 at a whole c ≥ length,
// else nothing (its other keys are the caller's to hold to the line); nothing for a row `stored`
// other than float32 or float64.
std::optional<double> queryPast(const float *row, std::int64_t length, StoredType stored);

// The rows read so, their keys counted as if the query stood at `queryAt`, past the row's last key
// L − 1 where build_mpt_alibi_tensor puts it: each head's bias the reference's plus
// slope × (L − 1 − queryAt), a constant per head the softmax cancels in exact arithmetic, but one
// that grows the bias to slope × queryAt, where a half-precision cache keeps coarser steps. Read
// alone the rows may be the first L keys of a longer row, a slice: unknown, the offset named;
// declared (declaredKeyBiases), a mistake of the positions.
void name(TableMatch &m, double queryAt, std::int64_t length, double firstSlope);

} // namespace posenc::AlibiKeysCountedOff
