#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies RoPE's cos and sin tables as HF returns them (docs/ARCHITECTURE.md,
// Checking a table): columns repeated as a layout pairs them, then RopeFit, the published forms
// first; a table of a few rows from what its first rows show; the reference at given parameters.
namespace posenc::RopeTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::RopeTableCheck
