// RoPE's facet of posenc check (FamilyCheck.h): its cos and sin tables, its rotation of a query or
// key, its config reader and its layers' numbers and words.
#include "check/FamilyCheck.h"

#include "check/rope/RopeApply.h"
#include "check/rope/RopeConfigReader.h"
#include "check/rope/RopeLayers.h"
#include "check/rope/RopeTableCheck.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

FamilyCheck makeRopeCheck()
{
    FamilyCheck check;
    check.table = RopeTableCheck::hypothesis();
    check.apply = RopeApply::hypothesis();
    check.readConfig = [](ConfigContext &context) { return RopeConfigReader(context).layers(); };
    check.configFindings = RopeConfig::findings();
    check.rotary = RopeLayers::rotary();
    // A head whose every column turns is as wide as its table; a partial one keeps its head_dim.
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        if (params.rope.partialRotaryFactor == 1.0 && RopeFrequencies::rotaryDim(params.rope) != cols)
            params.rope.headDim = std::clamp<std::int64_t>(cols, 2, RopeParams::kMaxHeadDim);
    };
    return check;
}

} // namespace posenc
