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

ColumnRole role(std::int64_t column, std::int64_t dModel, Layout layout, bool cosFirst)
{
    if (layout == Layout::Interleaved)
        return {column / 2, (column & 1) != 0};
    const std::int64_t h = pairCount(dModel);
    if (cosFirst) {
        const std::int64_t cosines = dModel - h;
        return column < cosines ? ColumnRole {column, true} : ColumnRole {column - cosines, false};
    }
    return column < h ? ColumnRole {column, false} : ColumnRole {column - h, true};
}

std::int64_t column(ColumnRole role, std::int64_t dModel, Layout layout, bool cosFirst)
{
    if (layout == Layout::Split && cosFirst) {
        const std::int64_t cosines = dModel - pairCount(dModel);
        if (role.isCos)
            return role.pair < cosines ? role.pair : -1;
        return cosines + role.pair < dModel ? cosines + role.pair : -1;
    }
    const std::int64_t c = layout == Layout::Interleaved ? 2 * role.pair + (role.isCos ? 1 : 0)
                                                         : (role.isCos ? pairCount(dModel) + role.pair : role.pair);
    return c < dModel ? c : -1;
}

ColumnRole role(std::int64_t column, std::int64_t dModel, const SinusoidalParams &params)
{
    return role(column, dModel, params.layout, params.flipSinToCos);
}

std::int64_t column(ColumnRole role, std::int64_t dModel, const SinusoidalParams &params)
{
    return column(role, dModel, params.layout, params.flipSinToCos);
}

double angular(std::int64_t pair, std::int64_t dModel, const SinusoidalParams &params)
{
    return params.timestepScale * angular(pair, dModel, params.frequencyBase(dModel));
}

double wavelength(std::int64_t pair, std::int64_t dModel, const SinusoidalParams &params)
{
    return 2.0 * std::numbers::pi / angular(pair, dModel, params);
}

FrequencySchedule schedule(std::int64_t dModel, const SinusoidalParams &params)
{
    FrequencySchedule result = schedule(dModel, params.frequencyBase(dModel));
    for (double &w : result.w)
        w *= params.timestepScale;
    return result;
}

} // namespace posenc::Frequencies
