#pragma once

#include "CheckTensor.h"

#include "check/TableMatch.h"
#include "io/TableFile.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>
#include <variant>

// `posenc check CACHE --position-ids IDS` where the ids hold a position for every row of every slice
// of a stack (docs/ARCHITECTURE.md, Checking a table, "Shapes"): transformers' M-RoPE cos or sin
// before the merge, [3, B, L, D], with the [3, B, L] ids get_rope_index returns
// (huggingface/transformers, models/qwen2_vl/modeling_qwen2_vl.py: Qwen2VLRotaryEmbedding.forward
// turns every column of slice [a, b] at ids[a, b, r]; Qwen2VLModel.get_rope_index). Each slice's row r
// is compared with the reading's reference at position ids[s, r] (the ids may repeat and jump: an
// image span's h and w, text resumed after it). A slice that deviates is explained where another
// slice's ids, or one position per token (0..L-1), place it.
namespace posenc::CheckSlicesAtIds {

// The mistakes it names: a slice at another slice's ids (M-RoPE's axes swapped), and a slice at
// 0..L-1 where its ids say otherwise (1-D positions over an image span).
inline const QString kSliceAtOtherIds = QStringLiteral("slice-at-other-ids");
inline const QString kPositionsNotIds = QStringLiteral("positions-1d-not-ids");
QStringList mistakeIds();

// The stack checked at the ids of `idsPath`; nothing where the ids have at most two dimensions (one
// id a row of a table: RowsAtPositions); or the exit code of why not, said on `err`. A declared
// M-RoPE's (3, [B,] L, d) stack, its per-axis cos or sin before the merge, is compared axis by axis
// with RoPE's table at M-RoPE's rope_theta, each slice at its axis's ids: those of `idsPath`, or with
// `idsPath` empty the declared prompt's (nothing where no prompt is declared).
std::optional<std::variant<TableMatch, int>> check(const TableFile::Tensor &tensor, const QString &idsPath,
                                                   const CheckTensor::Run &run, QTextStream &err);

} // namespace posenc::CheckSlicesAtIds
