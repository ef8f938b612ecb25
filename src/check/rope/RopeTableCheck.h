#pragma once

#include "check/TableHypothesis.h"
#include "check/rope/RopeFit.h"

#include <vector>

// How `posenc check` identifies RoPE's cos and sin tables as HF returns them (docs/ARCHITECTURE.md,
// Checking a table): columns repeated as a layout pairs them, then RopeFit, the published forms
// first; a table of a few rows from what its first rows show; the reference at given parameters.
namespace posenc::RopeTableCheck {

TableHypothesis hypothesis();
// The models' published RoPE (the presets, LongRoPE's lists, RoFormer's theta 10000) of a rotary
// dim; and the nearest to `params` in words, as a variant's diagnosis names it.
std::vector<RopeFit::Published> publishedRopeForms(std::int64_t rotaryDim);
QString nearestPublishedRope(const Params &params);
// The published forms whose frequencies are those of `params` and whose attention factor is
// `amplitude` within `tolerance` (relative): a table of these frequencies is theirs at any rows.
QStringList publishedNames(const Params &params, double amplitude, double tolerance);

} // namespace posenc::RopeTableCheck
