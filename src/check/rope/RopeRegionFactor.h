#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <optional>

// A declared RoPE table whose deviating rows lack the attention factor (docs/ARCHITECTURE.md,
// Checking a table, "A declared reference"; issue 56). transformers multiplies every cos and sin by
// the attention factor (YaRN's get_mscale, LongRoPE's sqrt(1 + ln s / ln L0): LlamaRotaryEmbedding.
// forward, `cos() * self.attention_scaling`); a cache grown past its first length by another path
// that forgets it holds rows of magnitude 1 beside rows of the factor (sgl-project/sglang#38786:
// RotaryEmbedding._ensure_cos_sin_cache_length built the grown rows without YaRN's mscale). The
// deviating rows are located and their magnitude read: where every deviating row stays within 1
// and reaches it, while the declared factor puts the reference's cells past 1 there, the region is
// named `attention-factor-missing` with both values, and whether the rows are otherwise the
// reference's is said.
namespace posenc::RopeRegionFactor {

// Of a declared RoPE table that deviates with no mistake named (`declared`, streamed, whose
// reference is a PairReference of the table's width, attention factor other than 1): the match
// with the region named, its rows and the two factors said; nothing where the deviating rows do not
// read as the reference's magnitude 1.
std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table);

} // namespace posenc::RopeRegionFactor
