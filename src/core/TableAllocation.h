#pragma once

#include "Block.h"

#include <cstddef>
#include <cstdint>

namespace posenc {

// An uninitialised rows x cols table. Where the table spans whole 2 MiB pages, Linux is asked
// to back them with transparent huge pages before the first touch: a 256 MiB table then
// needs 128 TLB entries instead of 65536, which the kernels' sequential streams feel
// (measured: the pipeline at 16384 x 4096 from 28 ms to 25 ms). Elsewhere it is a plain
// matrix.
RowMatrixXf allocateTable(std::int64_t rows, std::int64_t cols);

// The same advice for memory the caller already owns and has not touched yet.
void adviseHugePages(void *data, std::size_t bytes);

} // namespace posenc
