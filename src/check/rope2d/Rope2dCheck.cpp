// 2-D RoPE's facet of posenc check (FamilyCheck.h): its cos and sin tables of a patch grid.
#include "check/FamilyCheck.h"

#include "check/rope2d/Rope2dTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeRope2dCheck()
{
    FamilyCheck check;
    check.table = Rope2dTableCheck::hypothesis();
    return check;
}

} // namespace posenc
