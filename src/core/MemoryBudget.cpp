#include "MemoryBudget.h"

#include <unistd.h>

#include <cmath>
#include <limits>
#include <utility>

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

namespace {

// The need and the limit it passes, each as formatGiB says it unless they read the same: then both
// in as many significant digits as tell them apart ("0.01 GiB, over the memory budget of 0.01 GiB"
// said nothing of 11.9 MB over 10.7 MB).
std::pair<QString, QString> apart(std::uint64_t need, std::uint64_t limit)
{
    std::pair<QString, QString> said {formatGiB(need), formatGiB(limit)};
    for (int digits = 3; said.first == said.second && digits <= 17; ++digits) {
        const auto gib = [&](std::uint64_t bytes) {
            return u"%1 GiB"_s.arg(static_cast<double>(bytes) / double(1u << 30), 0, 'g', digits);
        };
        said = {gib(need), gib(limit)};
    }
    return said;
}

// The budget as a refusal says it: a budget of 1 byte is the least, which any --memory-budget of less
// than a byte and a half (up to 1.4e-09 GiB) holds (`--memory-budget 1e-300` was said as the 9.31e-10
// GiB it holds, not as what was given).
QString budgetWords(const QString &budget, std::uint64_t budgetBytes)
{
    if (budgetBytes != 1)
        return budget;
    return u"1 byte (%1: the least budget, which every --memory-budget above 0 and below %2 GiB is; nothing fits "
           "in it)"_s.arg(budget, QString::number(std::ldexp(1.5, -30), 'g', 2));
}

} // namespace

std::optional<QString> check(std::uint64_t cells, std::uint64_t budgetBytes, const QString &what,
                             std::uint64_t physicalBytes)
{
    const std::uint64_t bytes = bytesFor(cells);
    if (bytes > budgetBytes) {
        const auto [need, budget] = apart(bytes, budgetBytes);
        return u"%1 needs %2 cells of float32 (%3), over the memory budget of %4"_s.arg(what).arg(cells).arg(
            need, budgetWords(budget, budgetBytes));
    }
    if (physicalBytes > 0 && bytes > physicalBytes) {
        const auto [need, machine] = apart(bytes, physicalBytes);
        return u"%1 needs %2 cells of float32 (%3), more than the %4 of memory this machine has (the memory "
               "budget of %5 is above the machine's memory)"_s.arg(what)
                   .arg(cells)
                   .arg(need, machine, formatGiB(budgetBytes));
    }
    return std::nullopt;
}

} // namespace posenc::MemoryBudget
