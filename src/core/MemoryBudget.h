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
std::optional<QString> check(std::uint64_t cells, std::uint64_t budgetBytes, const QString &what);
QString formatGiB(std::uint64_t bytes);

} // namespace MemoryBudget

} // namespace posenc
