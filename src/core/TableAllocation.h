#pragma once

#include "Block.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <new>

namespace posenc {

// An uninitialised rows x cols table. Where the table spans whole 2 MiB pages, Linux is asked
// to back them with transparent huge pages before the first touch: a 256 MiB table then
// needs 128 TLB entries instead of 65536, which the kernels' sequential streams feel
// (measured: the pipeline at 16384 x 4096 from 28 ms to 25 ms). Elsewhere it is a plain
// matrix. Throws TableAllocationFailed when the memory is not there.
RowMatrixXf allocateTable(std::int64_t rows, std::int64_t cols);

// A table the system would not give memory for (a std::bad_alloc that knows its size), so
// the command line can say which table, in cells and GiB, and exit 4 instead of aborting.
class TableAllocationFailed : public std::bad_alloc
{
public:
    TableAllocationFailed(std::int64_t rows, std::int64_t cols);
    const char *what() const noexcept override;
    QString message() const;

private:
    std::int64_t m_rows;
    std::int64_t m_cols;
};

// The same advice for memory the caller already owns and has not touched yet.
void adviseHugePages(void *data, std::size_t bytes);

} // namespace posenc
