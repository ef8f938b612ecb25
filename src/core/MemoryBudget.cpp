#include "MemoryBudget.h"

#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::MemoryBudget {

std::uint64_t bytesFor(std::uint64_t cells)
{
    constexpr std::uint64_t maxCells = std::numeric_limits<std::uint64_t>::max() / sizeof(float);
    return cells > maxCells ? std::numeric_limits<std::uint64_t>::max() : cells * sizeof(float);
}

QString formatGiB(std::uint64_t bytes)
{
    return u"%1 GiB"_s.arg(static_cast<double>(bytes) / double(1u << 30), 0, 'f', 2);
}

std::optional<QString> check(std::uint64_t cells, std::uint64_t budgetBytes, const QString &what)
{
    const std::uint64_t bytes = bytesFor(cells);
    if (bytes <= budgetBytes)
        return std::nullopt;
    return u"%1 needs %2 cells of float32 (%3), over the memory budget of %4"_s.arg(what).arg(cells).arg(
        formatGiB(bytes), formatGiB(budgetBytes));
}

} // namespace posenc::MemoryBudget
