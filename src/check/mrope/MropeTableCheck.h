#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies M-RoPE's cos and sin tables (docs/ARCHITECTURE.md, Checking a
// table). With a declared prompt (the mrope parameters: sections, interleave, theta, the prompt
// and its get_rope_index rule), the table is compared with exactly the prompt's table, and where
// the sample shows it, the mistake a port makes is named: the sections chunked where interleaved
// was meant or the reverse, h and w exchanged, Qwen2.5-VL's video t ids truncated (second_per_grid
// cast to an integer before the product), the rows after the prompt without rope_deltas. Without
// one, the split of the pairs, rope_theta and the sampled rows' ids are read from the table itself
// (MropeTableFit): never correct, since no prompt says what the ids should be. Declared without
// a prompt (the parameters' default one, which the presets keep for their figures), a table the
// declared split and rope_theta explain at its own rows' ids is unknown, not a mistake against it.
namespace posenc::MropeTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::MropeTableCheck
