#pragma once

#include "core/Block.h"
#include "io/ReadError.h"

#include <QString>

#include <cstdint>
#include <vector>

// A file of position ids for `posenc check --position-ids` (docs/ARCHITECTURE.md, Positions in
// practice): a .npy array of one row [L], a batch [B, L], or M-RoPE's [3, B, L] as
// get_rope_index returns it, read whole within the memory budget as [rows, L] (M-RoPE's axes
// one after the other, t's rows first).
namespace posenc::PositionIdsFile {

struct Ids
{
    std::vector<std::int64_t> shape; // as the file holds it
    RowMatrixXf values; // [rows, L]: whole numbers of magnitude below 2^24, each exact
    QString source;
};

// A value that is no id is refused with its index: NaN or an infinity as the file's fault (exit
// 3), a fraction or a magnitude of 2^24 or more as an array that is not position ids (exit 2).
ReadResult<Ids> read(const QString &path, std::uint64_t memoryBudget);

} // namespace posenc::PositionIdsFile
