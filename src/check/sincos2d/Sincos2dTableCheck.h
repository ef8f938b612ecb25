#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies the 2-D sin-cos table of MAE, DiT and diffusers
// (docs/ARCHITECTURE.md, Checking a table): each sampled row's two coordinates read back from its
// halves (the slowest pair's angle, refined pair by pair), the grid's width from where the column
// coordinate starts again, the cls token from a leading zero row, diffusers' base_size from the
// coordinates' step; the table the reference lays out at those settings is then compared cell by
// cell. A table whose first half holds the row, the reverse of get_2d_sincos_pos_embed's
// meshgrid(grid_w, grid_h), is named as the halves swapped.
namespace posenc::Sincos2dTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::Sincos2dTableCheck
