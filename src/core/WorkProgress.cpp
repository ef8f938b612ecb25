#include "WorkProgress.h"

#include <algorithm>

namespace posenc {

double WorkProgress::fraction() const
{
    const std::int64_t all = total();
    if (all <= 0)
        return 0.0;
    return std::clamp(static_cast<double>(done()) / static_cast<double>(all), 0.0, 1.0);
}

} // namespace posenc
