// The 2-D sin-cos table's facet of posenc check (FamilyCheck.h): its table of a patch grid.
#include "check/FamilyCheck.h"

#include "check/sincos2d/Sincos2dTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeSincos2dCheck()
{
    FamilyCheck check;
    check.table = Sincos2dTableCheck::hypothesis();
    return check;
}

} // namespace posenc
