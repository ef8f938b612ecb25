#include "RopeText.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeText {

QString number(double value)
{
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return NumberText::count(static_cast<std::int64_t>(value));
    return NumberText::compact(value, 4);
}

QString modelText(const Params &params)
{
    const std::int64_t rotary = RopeFrequencies::rotaryDim(params.rope);
    QString text = u"θ = %1, rotary dim %2"_s.arg(number(params.rope.theta)).arg(rotary);
    if (params.rope.type == RopeType::Proportional
        && RopeFrequencies::livePairs(params.rope) < RopeFrequencies::pairs(params.rope))
        text += u" (%1 pairs turn)"_s.arg(RopeFrequencies::livePairs(params.rope));
    else if (rotary < params.rope.headDim)
        text += u" of head_dim %1"_s.arg(params.rope.headDim);
    return text;
}

QString scalingText(const Params &params)
{
    const RopeParams &rope = params.rope;
    if (rope.type == RopeType::Default)
        return u"default (no scaling)"_s;
    QStringList parts {RopeTypes::word(rope.type)};
    // F, partial_rotary_factor, in words: the share of head_dim whose pairs turn (transformers'
    // _compute_proportional_rope_parameters: rope_angles = int(F · head_dim // 2), the rest at 0).
    if (rope.type == RopeType::Proportional)
        parts.append(u"a share F = %1 of head_dim turning"_s.arg(NumberText::compact(rope.partialRotaryFactor, 4)));
    if (rope.factor)
        parts.append(u"factor %1"_s.arg(number(*rope.factor)));
    if (rope.originalMaxLen && RopeTypes::reads(rope.type, u"original-max-len"_s))
        parts.append(u"original %1"_s.arg(NumberText::count(*rope.originalMaxLen)));
    return parts.join(u", "_s);
}

QString layoutText(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"half layout (rotate_half: pair i in columns i, i + r/2)"_s
                                      : u"interleaved layout (pair i in columns 2i, 2i + 1)"_s;
}

std::int64_t originalContext(const Params &params)
{
    return params.rope.originalMaxLen.value_or(params.maxLen);
}

} // namespace posenc::RopeText
