#pragma once

#include "check/TableMatch.h"
#include "core/Params.h"

#include <cstdint>
#include <vector>

// A declared 2-D sin-cos grid whose shape the table does not have (docs/ARCHITECTURE.md, A declared
// reference; check/DeclaredShape): the table built for another grid (a square one where the
// declared grid is H x W, hpcaitech/Open-Sora#638's pos_embed of (h, h) patches for an H x W
// latent) or of another embed_dim, every other parameter the declared one.
namespace posenc::Sincos2dDeclaredShape {

// The declared parameters at each grid and width whose table has `rows` x `cols`: every grid
// (h, w) with h·w patches (and the declared cls row), the square one and those keeping a declared
// side first; the declared grid's transpose, of the declared shape, is not among them.
std::vector<Params> candidates(const Params &declared, std::int64_t rows, std::int64_t cols);

// The match at the read grid and width, named: `grid` and `d-model` where each differs, both
// values said.
TableMatch named(TableMatch atRead, const Params &declared, const Params &read);

} // namespace posenc::Sincos2dDeclaredShape
