#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// LoFTR's 2-D sine map as its module holds it (docs/ARCHITECTURE.md, Checking a table, "Shapes"):
// zju3dv/LoFTR src/loftr/utils/position_encoding.py, PositionEncodingSine.__init__, a buffer
// [C, H, W] (or [1, C, H, W]) whose channels 4k .. 4k + 3 hold sin(x w_k), cos(x w_k), sin(y w_k),
// cos(y w_k) at x = column + 1, y = row + 1 (cumsum of ones), w_k = exp(2k · -ln(10000) / (C / 2))
// with temp_bug_fix=True; the first release's div_term (`-math.log(10000.0) / d_model//2`, the floor
// division taken last) is -1, w_k = exp(-2k), which temp_bug_fix=False keeps for the weights trained
// with it (LoFTR#41): the mistake div-term-floored. Every cell is compared with the formula in
// float64, within the tolerance of its float32 computation.
namespace posenc::Sincos2dChannelsFirst {

inline const QString kDivTermFloored = QStringLiteral("div-term-floored");

// The map read as LoFTR's, fixed or with the floored div_term; nothing where the shape is not
// [C, H, W] (C a multiple of 4, H and W from 2, dimensions of 1 before them aside) or its cells are
// neither.
std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows);

} // namespace posenc::Sincos2dChannelsFirst
