#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies a sinusoidal table (docs/ARCHITECTURE.md, Checking a table): the
// fit of SinusoidalFit, the tables too small for it (one pair, one or two rows), a row of position
// 0 repeated, the reference at given parameters, and the published forms.
namespace posenc::SinusoidalTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::SinusoidalTableCheck
