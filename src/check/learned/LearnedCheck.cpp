// The learned table's facet of posenc check (FamilyCheck.h): its table's structure, its config reader.
#include "check/FamilyCheck.h"

#include "check/learned/LearnedConfig.h"
#include "check/learned/LearnedTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeLearnedCheck()
{
    return FamilyCheck::withConfig(LearnedTableCheck::hypothesis(), LearnedConfig::layers, LearnedConfig::findings(),
                                   [](const Params &) { return u"a learned table added to the input"_s; });
}

} // namespace posenc
