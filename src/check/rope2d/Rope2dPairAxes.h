#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <optional>

// A declared 2-D RoPE table whose every pair turns at the declared frequency, some of them with the
// other axis of the grid (docs/ARCHITECTURE.md, Checking a table, "A declared reference"): the
// split of the pairs between rows and columns is another than the declared style's. vLLM's
// HunyuanImage 3.0 applied M-RoPE's contiguous sections (pairs 0 .. d/4 - 1 the row, the rest the
// column) where the model's build_2d_rope interleaves them pair by pair (vllm-project/vllm-omni#1784).
namespace posenc::Rope2dPairAxes {

inline const QString kPairAxes = QStringLiteral("rope2d-pair-axes");

// The declared match (its params a 2-D RoPE's, its table rope2d-cos or rope2d-sin) named so, where
// every pair of the table, read whole, turns at the declared frequency with one axis and at least one
// with the other axis than the declared style's (grid-axes-swapped where every pair turns with the
// other axis); nothing otherwise.
std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table);

} // namespace posenc::Rope2dPairAxes
