#include "Frequencies.h"

#include <cmath>
#include <numbers>

namespace posenc::Frequencies {

std::int64_t pairCount(std::int64_t dModel)
{
    return (dModel + 1) / 2;
}

double angular(std::int64_t pair, std::int64_t dModel, double base)
{
    return std::exp(-2.0 * static_cast<double>(pair) * std::log(base) / static_cast<double>(dModel));
}

FrequencySchedule schedule(std::int64_t dModel, double base)
{
    FrequencySchedule result;
    result.w.resize(static_cast<std::size_t>(pairCount(dModel)));
    for (std::int64_t i = 0; i < pairCount(dModel); ++i)
        result.w[static_cast<std::size_t>(i)] = angular(i, dModel, base);
    return result;
}

double wavelength(std::int64_t pair, std::int64_t dModel, double base)
{
    return 2.0 * std::numbers::pi / angular(pair, dModel, base);
}

ColumnRole role(std::int64_t column, std::int64_t dModel, Layout layout)
{
    if (layout == Layout::Interleaved)
        return {column / 2, (column & 1) != 0};
    const std::int64_t h = pairCount(dModel);
    return column < h ? ColumnRole {column, false} : ColumnRole {column - h, true};
}

std::int64_t column(ColumnRole role, std::int64_t dModel, Layout layout)
{
    const std::int64_t c = layout == Layout::Interleaved ? 2 * role.pair + (role.isCos ? 1 : 0)
                                                         : (role.isCos ? pairCount(dModel) + role.pair : role.pair);
    return c < dModel ? c : -1;
}

} // namespace posenc::Frequencies
