#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <cstdint>
#include <optional>
#include <vector>

// ALiBi's bias tensors as models hold them (docs/ARCHITECTURE.md, Checking a table, "Shapes"): the
// key biases of BLOOM and MPT, and a stack of per-head [L, L] biases whose heads' slopes are checked
// together against get_slopes(H) (AlibiSlopeVector).
namespace posenc::AlibiBiasTensors {

// BLOOM's [B·H, 1, L] (slope × key position, build_alibi_tensor) and MPT's [1, H, 1, L]
// (slope × (j − (L − 1)), build_mpt_alibi_tensor): each row affine in the key at its head's slope, the
// slopes against get_slopes(H). Nothing when a row is not affine.
std::optional<TableMatch> keyBiases(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                    std::optional<std::int64_t> heads);

// Key biases read by keyBiases held to the declared mask: a key bias (m·j, m·(j − L + 1)) is ALiBi's
// bias only under a causal mask; declared symmetric (bidirectional), the keys after the query would
// get +m (j − i) where −m |i − j| belongs (x-transformers#88): the mistake of the mask, `alibi`.
void declaredKeyBiases(TableMatch &match, const Params &declared);

// A stack [.., H, L, L] whose every slice was matched as ALiBi's: the slopes each head's rows hold
// (row L − 1, column L − 2 holds -m) against get_slopes of the heads declared, else of H, into
// `combined`: a mistake of the slopes, a variant where they are a run of the declared heads' (a
// tensor-parallel rank's), or correct head by head where every slice is at worst a variant. Whether
// the verdict is now the slopes' (its diagnosis no slice's).
bool combineHeads(const std::vector<std::int64_t> &shape, const TableRows &rows, const std::vector<TableMatch> &slices,
                  TableMatch &combined, std::optional<std::int64_t> declaredHeads);

// The heads a stack [.., H, L, L] of ALiBi's biases holds, H not the `declared` count
// (HeadBiasReading::headsHeld): its heads' slopes read as AlibiSlopeVector::headsHeld reads them.
std::optional<std::pair<std::int64_t, std::int64_t>> headsHeld(const std::vector<std::int64_t> &shape,
                                                               const TableRows &rows, std::int64_t declared);

} // namespace posenc::AlibiBiasTensors
