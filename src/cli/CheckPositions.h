#pragma once

#include "CheckExpect.h"
#include "CommandOption.h"

#include "check/TableHypothesis.h"
#include "check/TableMatch.h"
#include "io/TableFile.h"

#include <QCommandLineParser>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

// --positions A:B of `posenc check FILE`: the positions the table's rows hold, A .. B - 1, in the
// grammar of `posenc table --positions` (docs/ARCHITECTURE.md, Checking a table, "A window of
// positions"); of a relative map, its queries' positions, its keys following its width (0 .. k - 1).
// Declared, rows at another window are position-offset; undeclared, a window is said, not judged.
namespace posenc::CheckPositions {

inline const QString kKey = QStringLiteral("positions");

CommandOption option();

using Window = std::optional<std::pair<std::int64_t, std::int64_t>>;

// The window declared, [A, B), or nothing where the flag is not given; a refusal in one line naming
// the flag and its range where it cannot be read.
std::variant<Window, QString> read(const QCommandLineParser &parser);

// The same, declared: row 0 at A (CheckDeclaration::firstPosition, a relative map's queryStart), the
// positions declared, in the declaration and the expectation alike; refused beside --position-ids.
std::variant<Window, QString> declare(const QCommandLineParser &parser, CheckDeclaration &declaration,
                                      CheckExpect::Expectation &expected);

// The rows each table of an array of `shape` has, as the check reads it, a rule over the layouts the
// caches are dumped in: a declared M-RoPE's [3, B, L, D] (Qwen2VLRotaryEmbedding.forward's cos before the
// merge: its axis of 3 and its B sequences are no rows) L, one of a decode step's [3, B, 1, D];
// else (TensorShapes::kindOf) a table's every dimension but the last ([S, 1, 1, D] and PyTorch's
// (max_len, 1, d) are tables of S and max_len rows: Megatron's), a stack's slices' rows (its
// dimensions of 1 dropped, TensorShapes::stackShape: a [B, L, 1, D] cache's L, Paddle's); none of a
// vector.
std::optional<std::int64_t> tableRows(const std::vector<std::int64_t> &shape, bool mropeDeclared = false);

// Why the window cannot be `tensor`'s: B - A must be its rows (tableRows: a table's L, a map's
// queries, a stack's rows per slice), and a vector holds no positions; empty where it can (or where
// no window was declared).
QString refusal(const Window &window, const TableFile::Tensor &tensor, const CheckExpect::Expectation &expected);

// A declared window said on a match that says none of its own (an absolute table's rows); why it
// cannot be where the match's family reads no positions of a sequence (FamilyCheck::rowsAtPositions:
// a 2-D sine table or map, a 2-D RoPE table of a patch grid), else empty.
QString say(TableMatch &match, const Window &window, const QString &name);

} // namespace posenc::CheckPositions
