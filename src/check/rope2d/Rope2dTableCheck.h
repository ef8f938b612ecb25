#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies 2-D RoPE's cos and sin tables (docs/ARCHITECTURE.md, Checking a
// table): the pairs' layout from the repeated columns (rotate_half's halves: the Qwen ViT and
// Pixtral; adjacent columns: FLUX and RoPE-ViT's axial form), the style and rope_theta from patch
// 1, one column to the right of patch 0 in every style's order (which pairs turn there, and by how
// much), FLUX's axes from the pairs that never turn and those a row turns; then each sampled
// patch's row and column read back from its pairs, the grid and the Qwen ViT's merge order from
// where they fall, and the style's table at those parameters compared cell by cell.
namespace posenc::Rope2dTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::Rope2dTableCheck
