#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <optional>
#include <vector>

// A RoPE inv_freq vector against a declaration that states no sequence length (docs/ARCHITECTURE.md,
// Checking a table, "Shapes"): where the declared rope_type's vector depends on the length, as
// transformers computes it, a vector states none, and every length's vector is what the declared
// model computes. LongRoPE holds short_factor for a sequence of at most
// original_max_position_embeddings and long_factor past it (modeling_rope_utils.py,
// longrope_frequency_update); dynamic NTK keeps rope_theta up to that length and grows it for a
// longer one (dynamic_rope_update, _compute_dynamic_ntk_parameters). A declared length (--max-len,
// --prompt, --position-ids) picks one, and the vector is compared with that one alone
// (RopeInvFreq::expect).
namespace posenc::RopeVectorLength {

// The declared parameters at the sequence length whose vector `v` is, for a rope_type whose
// vector depends on it, or nothing: LongRoPE's two lists, dynamic's base at or below the original
// length and grown at the whole length its base gives.
std::optional<Params> lengthOf(const std::vector<double> &v, StoredType stored, const Params &declared);

// The vector checked against `declared` at the length it holds (lengthOf) where the declaration
// states none: unknown, naming the list or base and the sequence lengths it serves (a vector alone
// cannot say which list its sequence needed: only a declared length makes it correct or
// longrope-factor-set); nothing where no length gives it (the declared length's verdict then stands).
std::optional<TableMatch> atUnstatedLength(const std::vector<double> &v, StoredType stored, const Params &declared);

} // namespace posenc::RopeVectorLength
