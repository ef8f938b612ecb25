// Sandwich's facet of posenc check (FamilyCheck.h): its bias table, and a stack of its heads' biases
// read head by head.
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
    // A stack [.., H, L, L] of its biases: slice h is head h + 1's (NeMo's
    // SandwichRelativePositionEmbedding, one map per head), under the declared head dim and mask.
    HeadBiasReading bias;
    bias.heads = [](const Params &p) { return p.sandwich.heads; };
    bias.atHead = [](Params &p, std::int64_t heads, std::int64_t head) {
        p.sandwich.heads = heads;
        p.sandwich.head = head;
    };
    check.tensors.headBias = std::move(bias);
    return check;
}

} // namespace posenc
