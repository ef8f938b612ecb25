#pragma once

#include "check/TableHypothesis.h"
#include "check/mrope/MropeTableJudge.h"
#include "check/mrope/MropeTableReference.h"
#include "core/Params.h"

#include <QString>

#include <optional>

// M-RoPE's rows read back at a declared split and rope_theta and compared with a declared prompt's
// get_rope_index ids (docs/ARCHITECTURE.md, Checking a table: mrope-ids-differ).
namespace posenc::MropeIdsReadBack {

// "(t, h, w)".
QString idsText(const MropeIds &id);

// Whether sampled table row `row` is M-RoPE's row at `ids` (turns, cos or sin) within the format's
// rounding, or float32 angles' for a table whose rows are computed so (`float32Angles`, as judged
// of the whole sample): false only where the table's precision tells the ids apart.
bool idsFit(const TableEvidence &e, const MropeTurns &turns, bool cosine, std::int64_t row, const MropeIds &ids,
            bool float32Angles);

// The ids each sampled row holds, read back at the declared split and rope_theta, where they explain
// the sample and some differ from get_rope_index's of the declared prompt: mrope-ids-differ, with
// the rows and axes that differ and how (an axis held at one id, 1-D positions over the vision rows:
// position_ids not taken from get_rope_index, linkedin/Liger-Kernel#276; an audio span whose h and w
// stay at its first id while t advances). Nothing where the frequencies are no default inv_freq
// (a scaled rope_type) or an attention factor scales the rows: the ids are read at theta^(-j/pairs).
std::optional<QString> idsReadBack(const TableEvidence &e, const Params &p, const MropePromptReference &correct,
                                   const MropeTableJudge::Judged &judged);

} // namespace posenc::MropeIdsReadBack
