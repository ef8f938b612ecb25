#include "BudgetAdvice.h"

#include "core/MemoryBudget.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString overBudgetAdvice(const QString &smaller, std::uint64_t budgetBytes)
{
    const std::uint64_t machine = MemoryBudget::physicalMemory();
    const bool raisingHelps = machine == 0 || budgetBytes < machine;
    return u"; "_s + smaller + (raisingHelps ? u", or raise --memory-budget"_s : QString());
}

} // namespace posenc
