// Sandwich's facet of posenc check (FamilyCheck.h): its bias table.
#include "check/FamilyCheck.h"

#include "check/sandwich/SandwichTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeSandwichCheck()
{
    FamilyCheck check;
    check.table = SandwichTableCheck::hypothesis();
    check.layerWords = [](const Params &p) {
        return u"Sandwich, %1 heads, head dim %2"_s.arg(p.sandwich.heads).arg(p.sandwich.headDim);
    };
    return check;
}

} // namespace posenc
