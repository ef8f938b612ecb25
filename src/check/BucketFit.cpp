#include "BucketFit.h"

#include "check/FitNumbers.h"

namespace posenc::BucketFit {

std::optional<std::pair<std::int64_t, std::int64_t>>
limitRange(const std::vector<ProfileRun> &runs, std::int64_t least,
           const std::function<std::int64_t(std::int64_t distance, std::int64_t limit)> &bucket)
{
    const auto differs = [&](std::int64_t x, bool tooSmall) {
        for (const ProfileRun &run : runs) {
            for (const std::int64_t d : {run.first, run.last}) {
                const double b = double(bucket(d, x));
                if (tooSmall ? b > run.value : b < run.value)
                    return true;
            }
        }
        return false;
    };
    return FitNumbers::allowedRange(
        least, Params::kMaxLen, [&](std::int64_t x) { return differs(x, true); },
        [&](std::int64_t x) { return differs(x, false); });
}

std::int64_t namedLimit(std::int64_t lo, std::int64_t hi, std::int64_t own)
{
    return lo <= own && own <= hi ? own : FitNumbers::roundest(lo, hi);
}

std::int64_t firstShared(const std::vector<ProfileRun> &runs)
{
    for (const ProfileRun &run : runs) {
        if (run.value != double(run.first) || run.last != run.first)
            return run.value == double(run.first) ? run.first + 1 : run.first;
    }
    return -1;
}

} // namespace posenc::BucketFit
