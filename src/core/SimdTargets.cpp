// One function compiled for every SIMD target, so that the dispatch tells which one runs.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/SimdTargets.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "core/SimdTargets.h"

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

std::int64_t RunningTarget()
{
    return HWY_TARGET;
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(RunningTarget);

namespace SimdTargets {

Target current()
{
    const std::int64_t id = HWY_DYNAMIC_DISPATCH(RunningTarget)();
    return {id, hwy::TargetName(id)};
}

std::vector<Target> available()
{
    std::vector<Target> targets;
    for (const std::int64_t id : hwy::SupportedAndGeneratedTargets())
        targets.push_back({id, hwy::TargetName(id)});
    return targets;
}

void select(std::int64_t id)
{
    hwy::SetSupportedTargetsForTest(id);
}

} // namespace SimdTargets
} // namespace posenc
#endif
