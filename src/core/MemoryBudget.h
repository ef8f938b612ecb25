#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace posenc {

// Refuses, before anything is allocated, a request whose float32 cells would exceed the
// budget; the message gives the cells and GiB asked for and the budget.
namespace MemoryBudget {

// Bytes of `cells` float32 values, saturating instead of overflowing.
std::uint64_t bytesFor(std::uint64_t cells);
// The machine's physical memory in bytes; 0 where the system does not say.
std::uint64_t physicalMemory();
// Also refuses a request within the budget but above `physicalBytes` (a budget set higher
// than the machine's memory): it could only fail to allocate, or swap the machine to a halt.
std::optional<QString> check(std::uint64_t cells, std::uint64_t budgetBytes, const QString &what,
                             std::uint64_t physicalBytes = physicalMemory());
QString formatGiB(std::uint64_t bytes);

} // namespace MemoryBudget

} // namespace posenc
