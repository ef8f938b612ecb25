// ALiBi's facet of posenc check (FamilyCheck.h): its bias table, its config reader.
#include "check/FamilyCheck.h"

#include "check/alibi/AlibiConfig.h"
#include "check/alibi/AlibiTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeAlibiCheck()
{
    return FamilyCheck::withConfig(AlibiTableCheck::hypothesis(), AlibiConfig::layers, AlibiConfig::findings(),
                                   [](const Params &p) { return u"ALiBi, %1 heads"_s.arg(p.alibi.heads); });
}

} // namespace posenc
