#include "RopePrecisionModel.h"

#include "core/rope/RopeFrequencies.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

RopePrecisionFormat staircase(const QString &name, int mantissaBits, std::int64_t last,
                              std::optional<std::int64_t> overflow)
{
    RopePrecisionFormat format;
    format.name = name;
    format.mantissaBits = mantissaBits;
    format.firstMerge = std::int64_t(1) << (mantissaBits + 1);
    if (overflow && *overflow <= last)
        format.overflow = overflow;
    // Up to the last position the format holds: past an overflow, there is no neighbour.
    const std::int64_t end = format.overflow ? *format.overflow - 1 : last;
    const std::int64_t top = std::max<std::int64_t>(end, 1);
    for (std::int64_t x = 1; x <= top; x *= 2) {
        format.position.append(static_cast<double>(x));
        format.gap.append(RopeFrequencies::positionStep(static_cast<double>(x), mantissaBits));
    }
    if (format.position.back() < static_cast<double>(top)) {
        format.position.append(static_cast<double>(top));
        format.gap.append(RopeFrequencies::positionStep(static_cast<double>(top), mantissaBits));
    }
    return format;
}

} // namespace

RopePrecisionData RopePrecisionModel::compute(const Params &params)
{
    RopePrecisionData data;
    data.last = params.maxLen - 1;
    data.formats
        = {staircase(u"float32"_s, 23, data.last, std::nullopt), staircase(u"bf16"_s, 7, data.last, std::nullopt),
           staircase(u"fp16"_s, 10, data.last, kFp16Overflow)};
    const RopeFrequencies::Description description = RopeFrequencies::describe(params);
    data.bf16StepAtLast = description.bf16PositionStep;
    data.fp16StepAtLast = description.fp16PositionStep;
    return data;
}

QString RopePrecisionModel::name() const
{
    return u"rope-precision"_s;
}

QString RopePrecisionModel::title() const
{
    return u"Positions in low precision"_s;
}

QString RopePrecisionModel::summary() const
{
    return u"the gap between representable neighbours of each position p < max-len in float32, bf16 and fp16 "
           "(log axes): past the line at 1, neighbouring positions and their angles merge"_s;
}

QList<Quantity> RopePrecisionModel::inputs(const FigureState &) const
{
    // The positions: max_len, which the rotation's tables read with the rest.
    return {Quantity::RopeCos};
}

QStringList RopePrecisionModel::reads(const FigureState &) const
{
    return {u"encoding"_s, u"max-len"_s};
}

FigureResult RopePrecisionModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    return {std::make_shared<const RopePrecisionData>(compute(request.engine->params())), std::nullopt};
}

} // namespace posenc
