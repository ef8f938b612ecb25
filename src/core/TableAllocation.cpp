#include "TableAllocation.h"

#include "MemoryBudget.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace posenc {

namespace {
constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;
}

void adviseHugePages(void *data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
    // Only the whole huge pages inside the buffer; an advice that fails (no THP in this
    // kernel) leaves ordinary pages, which are correct, only slower.
    if (last > first)
        madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

RowMatrixXf allocateTable(std::int64_t rows, std::int64_t cols)
{
    RowMatrixXf table;
    try {
        table.resize(rows, cols);
    } catch (const std::bad_alloc &) {
        throw TableAllocationFailed(rows, cols);
    }
    adviseHugePages(table.data(), static_cast<std::size_t>(table.size()) * sizeof(float));
    return table;
}

TableAllocationFailed::TableAllocationFailed(std::int64_t rows, std::int64_t cols)
    : m_rows(rows)
    , m_cols(cols)
{ }

const char *TableAllocationFailed::what() const noexcept
{
    return "posenc: a table could not be allocated";
}

QString TableAllocationFailed::message() const
{
    using namespace Qt::StringLiterals;
    const std::uint64_t cells = static_cast<std::uint64_t>(m_rows) * static_cast<std::uint64_t>(m_cols);
    return u"the system could not give memory for a %1 x %2 table, %3 cells of float32 (%4): this machine has %5 "
           "of memory, and not all of it free"_s.arg(m_rows)
               .arg(m_cols)
               .arg(cells)
               .arg(MemoryBudget::formatGiB(MemoryBudget::bytesFor(cells)),
                    MemoryBudget::formatGiB(MemoryBudget::physicalMemory()));
}

} // namespace posenc
