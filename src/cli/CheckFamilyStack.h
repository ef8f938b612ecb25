#pragma once

#include "CheckTensor.h"

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "io/TableFile.h"

#include <QTextStream>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

// A family's own stack of per-head maps, read by the family (FamilyCheck::readStack; docs/
// ARCHITECTURE.md, Checking a table, "Shapes"): T5's position_bias [.., H, q, L], DETR's and LoFTR's
// 2-D maps. A decode step's biases [.., H, 1, L] (one query row a head: T5Attention.forward's
// position_bias[:, :, -seq_length:, :] at seq_length 1) are such a stack too, never an H x L table.
namespace posenc::CheckTensor {

// Whether `shape` is a decode step's one query row a head, [.., H, 1, L] with H > 1 heads.
bool oneQueryRowAHead(const std::vector<std::int64_t> &shape);

// The stack read by the declared family's reader, or undeclared by the first family's that reads
// it, the queries' window judged against a declared one (CheckQueryWindows::judgeQueries); nothing
// where no family reads it, or another reference than a family was declared.
std::optional<TableMatch> readFamilyStack(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                          const Run &run);

// A decode step's row a head that no family reads as key biases, read by a family's stack reader (T5's,
// at query L - 1): its match, nothing where none reads it, or the exit code where a check stopped.
std::variant<std::optional<TableMatch>, int> readDecodeStep(const TableFile::Tensor &tensor, const Run &run,
                                                            QTextStream &err);

} // namespace posenc::CheckTensor
