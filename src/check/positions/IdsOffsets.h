#pragma once

#include "IdsAgainstReference.h"

#include "core/positions/BatchLayout.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

// `posenc check --position-ids` (docs/ARCHITECTURE.md, Positions in practice): the shapes of a
// difference from the reference that a constant explains, each part of the batch off by its own
// (off-by-one, cache-offset, position-offset), or the ids after a cache that do not continue from it.
namespace posenc::IdsOffsets {

using IdsAgainstReference::ReferenceIds;
using IdsAgainstReference::RowShifts;

// A per-row shift of the decode steps only, the prefill right: the cache's offset wrong.
bool decodeShiftsOnly(const std::vector<RowShifts> &rows, bool oneAway);
// Every real token one away from the reference, the same way along each row.
bool offByOne(const std::vector<RowShifts> &rows);
// The same shift of every real token of the batch, or nothing.
std::optional<std::int64_t> commonShift(const std::vector<RowShifts> &rows);

// Where each row's ids leave the reference at one column and, from there to its last real token,
// either keep one shift from it or stop advancing: a step after a cache (a decode step, or a chunk of
// a chunked prefill) whose ids do not continue from it. The words; whether every such row stops
// (positions-constant), and from its first real token on with no cache before (one id a row).
// `shown` is what the ids were read less (--position-offset), added to the ids quoted.
struct OffTheCache
{
    QString words;
    bool wholeRowsStill = false, still = false;
};
std::optional<OffTheCache> offTheCacheFrom(const ReferenceIds &batch, const RowMatrixXf &ids, std::int64_t shown);

// Every row's prefill and decode steps each off the reference by a constant of its own, not all
// one: each part named (off-by-one one away, cache-offset a decode step's, position-offset a
// prefill's) with the columns it covers (flash-linear-attention#747: an upper layer's prefill
// shifted by the chunk its cache already counted, its decode steps by one). The ids and the words.
std::optional<std::pair<QStringList, QString>> partsOff(const BatchLayout &layout, const std::vector<RowShifts> &rows);

// Of M-RoPE's ids (three axes): where every row's prefill is the reference's and its decode steps lose the offset that
// continues it from one step k on: steps k.. at their bare cache position (CacheOffset's ids: M-RoPE's rope_deltas
// lost, Qwen2VLModel.forward's position_ids = cache_position + rope_deltas without its second term), each step before k
// the reference's or at 0, its ids computed alone (get_rope_index of the step's one token: the cache's offset lost too;
// Blaizzy/mlx-vlm#1619). The rows' words, or nothing where a step is none of these, no step is at its bare cache
// position, or that equals the reference's.
std::optional<QString> offsetLostFrom(const ReferenceIds &batch, const RowMatrixXf &ids);

} // namespace posenc::IdsOffsets
