#pragma once

#include "core/Block.h"
#include "core/Params.h"

#include <cstdint>
#include <vector>

namespace posenc {

// What a cell of Y holds when the mask, not a value, made it: a dropped cell (zeroed by the
// dice) or a padding cell (zeroed by masked_fill). Drawn with a mark of their own, outside the
// colour map, so that a zero made by the mask never reads as a value near 0 (sin 0 is 0 too).
enum class CellMark : std::uint8_t { None, Dropped, Padding };

namespace CellMarks {

// The marks of Y's cells in `block` under `params`, row-major; empty when no cell is zeroed by
// the mask (evaluation, p = 0, or the embedding variant, whose dropped cells keep their PE).
std::vector<CellMark> ofOutput(const Params &params, const Block &block);

} // namespace CellMarks

} // namespace posenc
