// KERPLE's facet of posenc check (FamilyCheck.h): its bias table, and a stack of its heads' biases
// read head by head.
#include "check/FamilyCheck.h"

#include "check/kerple/KerpleTableCheck.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeKerpleCheck()
{
    FamilyCheck check;
    check.table = KerpleTableCheck::hypothesis();
    check.layerWords = [](const Params &p) { return u"KERPLE, %1 heads"_s.arg(p.kerple.heads); };
    // A stack [.., H, L, L] of its biases: slice h is head h + 1's, under the declared r1 and r2.
    HeadBiasReading bias;
    bias.heads = [](const Params &p) { return p.kerple.heads; };
    bias.atHead = [](Params &p, std::int64_t heads, std::int64_t head) {
        p.kerple.heads = heads;
        p.kerple.head = head;
    };
    check.tensors.headBias = std::move(bias);
    return check;
}

} // namespace posenc
