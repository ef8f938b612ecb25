#pragma once

#include "check/TableMatch.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

class QTemporaryDir;

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

// A table's --position-ids that say where an M-RoPE or a 2-D table's rows are (docs/ARCHITECTURE.md,
// Checking a table; issue 56: M-RoPE and 2-D tables with the positions they were made for):
// M-RoPE's [3, L] (or [3, 1, L]) t, h and w ids, as get_rope_index returns them, stand for the prompt
// they lay out (read from their own structure, MropeIdsStructure::promptOf), and a 2-D grid's [L, 2]
// row and column ids that enumerate an H x W grid row by row stand for --grid H,W. The table is then
// checked as with those flags, so every mistake a declared prompt or grid names is named at the ids.
namespace posenc::CheckIdsDeclared {

// `arguments` with --position-ids replaced by the flags its ids stand for, for a table of `rows`
// rows; an exit code where the ids are of those shapes but stand for no such flags, or no family is
// declared to read them with (the reason said on `err`); nothing where they are another shape (a
// batch's [L] or [B, L], which give the rows' positions). `tokensPerSecond`: a declared Qwen2.5-VL's,
// whose videos' t steps are then read as the second_per_grid each video is written with. A 2-D grid's
// ids in whole merge blocks (the Qwen-VL vision encoder's rot_pos_emb order, spatial_merge_size m)
// stand for --grid H,W and --spatial-merge-size m; blocks in another order (Qwen2.5-VL's
// get_window_index) also for 1-D --position-ids of each row's index in rot_pos_emb's order, a file in
// `held`, which the caller keeps while it checks.
// The table the ids are given for: its rows, its array's shape, and whether M-RoPE is declared
// (--expect mrope, or a config of an M-RoPE model).
struct Table
{
    std::int64_t rows = 0;
    std::vector<std::int64_t> shape;
    bool mropeDeclared = false;
};

// [S, N] ids of a stack of S slices of N rows each ([B, L, 1, D], [B, L, D]: a batch's [B, L]
// position_ids, Paddle's and the like) give each slice's rows their positions, whatever S is: they
// are M-RoPE's t, h, w only where M-RoPE is declared, and read both ways there (3 slices) they are
// refused in one line naming both readings.
std::optional<std::variant<QStringList, int>> rewrite(const QStringList &arguments, const QString &idsPath,
                                                      const Table &table, std::uint64_t budget, QTextStream &err,
                                                      std::optional<double> tokensPerSecond = std::nullopt,
                                                      std::shared_ptr<const QTemporaryDir> *held = nullptr);

// [3, N] ids of a stack of 3 slices of N rows, nothing declared (no family, no reference), read as each
// slice's own positions: where that reading finds rows off their ids, the ids may be M-RoPE's t, h, w
// of one sequence as well (the slices a merged M-RoPE cache's batch): `match` made unknown, both
// readings said, the slices' reading kept as a note. `declared`: a family or reference was declared.
void threeSlicesOrAxes(TableMatch &match, const QString &idsPath, const Table &table, bool declared,
                       std::uint64_t budget);

} // namespace posenc::CheckIdsDeclared
