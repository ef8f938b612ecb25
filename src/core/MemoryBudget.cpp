#include "MemoryBudget.h"

#include <unistd.h>

#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::MemoryBudget {

std::uint64_t bytesFor(std::uint64_t cells)
{
    constexpr std::uint64_t maxCells = std::numeric_limits<std::uint64_t>::max() / sizeof(float);
    return cells > maxCells ? std::numeric_limits<std::uint64_t>::max() : cells * sizeof(float);
}

std::uint64_t physicalMemory()
{
    static const std::uint64_t bytes = [] {
        const long pages = sysconf(_SC_PHYS_PAGES);
        const long pageSize = sysconf(_SC_PAGESIZE);
        return pages > 0 && pageSize > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize)
                                         : std::uint64_t(0);
    }();
    return bytes;
}

QString formatGiB(std::uint64_t bytes)
{
    // Below a hundredth of a GiB, three significant digits: "0.00 GiB" said nothing of a small budget.
    const double gib = static_cast<double>(bytes) / double(1u << 30);
    return gib == 0.0 || gib >= 0.01 ? u"%1 GiB"_s.arg(gib, 0, 'f', gib == 0.0 ? 0 : 2)
                                     : u"%1 GiB"_s.arg(gib, 0, 'g', 3);
}

std::optional<QString> check(std::uint64_t cells, std::uint64_t budgetBytes, const QString &what,
                             std::uint64_t physicalBytes)
{
    const std::uint64_t bytes = bytesFor(cells);
    if (bytes > budgetBytes)
        return u"%1 needs %2 cells of float32 (%3), over the memory budget of %4"_s.arg(what).arg(cells).arg(
            formatGiB(bytes), formatGiB(budgetBytes));
    if (physicalBytes > 0 && bytes > physicalBytes)
        return u"%1 needs %2 cells of float32 (%3), more than the %4 of memory this machine has (the memory "
               "budget of %5 is above the machine's memory)"_s.arg(what)
                   .arg(cells)
                   .arg(formatGiB(bytes), formatGiB(physicalBytes), formatGiB(budgetBytes));
    return std::nullopt;
}

} // namespace posenc::MemoryBudget
