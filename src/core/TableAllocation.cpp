#include "TableAllocation.h"

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
    RowMatrixXf table(rows, cols);
    adviseHugePages(table.data(), static_cast<std::size_t>(table.size()) * sizeof(float));
    return table;
}

} // namespace posenc
