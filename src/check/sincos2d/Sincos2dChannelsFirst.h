#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// LoFTR's 2-D sine map as its module holds it (docs/ARCHITECTURE.md, Checking a table, "Shapes"):
// zju3dv/LoFTR src/loftr/utils/position_encoding.py, PositionEncodingSine.__init__, a buffer
// [1, C, H, W] (pe.unsqueeze(0); [C, H, W] as pe[0]) of any max_shape (H, W) and d_model C, whose
// channels 4k .. 4k + 3 hold sin(x w_k), cos(x w_k), sin(y w_k), cos(y w_k) at x = column + 1,
// y = row + 1 (cumsum of ones). Both of the module's forms are published: temp_bug_fix=True
// (src/config/default.py), w_k = exp(2k · -ln(10000) / (C // 2)); temp_bug_fix=False, kept "for
// backward compatability" with the first released weights (src/loftr/utils/cvpr_ds_config.py and
// configs/loftr/*/buggy_pos_enc/ set it), whose `-math.log(10000.0) / d_model//2` is
// (-ln(10000) / C) // 2, floored to -1 for C >= 8: w_k = exp(-2k) (zju3dv/LoFTR#41). Undeclared the
// first is correct and the second a variant naming temp_bug_fix=False; with the family declared
// (`--expect sincos-2d`: base 10000, the fixed division), the second is the mistake div-term-floored.
// Every cell is compared with the formula in float64, within the tolerance of its float32
// computation; the map is read a channel at a time.
namespace posenc::Sincos2dChannelsFirst {

inline const QString kDivTermFloored = QStringLiteral("div-term-floored");

// The map read as LoFTR's, fixed or with the floored div_term; nothing where the shape is not
// [C, H, W] (C a multiple of 4, H and W from 2, dimensions of 1 before them aside), `rows` are not
// its C·H rows of W, or its cells are neither form's.
std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows, bool declared);

// The div_term exponent's factor of each form: -ln(10000) / (C // 2) with temp_bug_fix=True,
// Python's (-ln(10000) / C) // 2 without it; w_k = exp(2k · factor).
double divTermFactor(std::int64_t channels, bool floored);

} // namespace posenc::Sincos2dChannelsFirst
