#include "RopeStretch.h"

#include "core/rope/RopeText.h"

#include <algorithm>
#include <cmath>

namespace posenc::RopeStretch {

Stretch of(const Params &params)
{
    const RopeParams &rope = params.rope;
    Stretch s;
    s.factorAssumed = !rope.factor;
    s.originalAssumed = !rope.originalMaxLen;
    s.original = RopeText::originalContext(params);
    const bool stretched = !s.originalAssumed && params.maxLen > s.original;
    s.factor = rope.factor.value_or(stretched ? double(params.maxLen) / double(s.original) : kAssumedFactor);
    s.extended = stretched ? params.maxLen
                           : std::min<std::int64_t>(
                               Params::kMaxLen, static_cast<std::int64_t>(std::llround(s.factor * double(s.original))));
    return s;
}

Params under(const Params &params, RopeType type, const Stretch &stretch)
{
    Params p = params;
    p.maxLen = stretch.extended;
    p.rope.type = type;
    if (type == params.rope.type)
        return p; // the model's own type as it is
    p.rope.factor = stretch.factor;
    p.rope.originalMaxLen = stretch.original;
    // yarn's mscale pair and explicit factors are the model's own where given; an explicit
    // attention factor belongs to its own type.
    if (type != RopeType::Yarn && type != RopeType::LongRope)
        p.rope.attentionFactor.reset();
    return p;
}

} // namespace posenc::RopeStretch
