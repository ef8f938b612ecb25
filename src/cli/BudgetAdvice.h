#pragma once

#include <QString>

#include <cstdint>

namespace posenc {

// The advice after a refusal over the memory budget: `smaller` ("ask for fewer rows with
// --positions"), and ", or raise --memory-budget" only where the budget is below the machine's
// memory: above it, a larger budget cannot help (MemoryBudget refuses what the machine cannot hold).
QString overBudgetAdvice(const QString &smaller, std::uint64_t budgetBytes);

} // namespace posenc
