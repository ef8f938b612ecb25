#include "RopeLongRopeForms.h"

#include <initializer_list>

using namespace Qt::StringLiterals;

namespace posenc::RopeLongRopeForms {

namespace {

struct LongRopePreset
{
    QString title;
    std::int64_t headDim;
    double partialRotaryFactor;
    double theta;
    double factor;
    std::int64_t originalMaxLen;
    RopeLayout layout;
    std::initializer_list<double> shortFactor;
    std::initializer_list<double> longFactor;
};

#include "RopeLongRopePresets.inc"

} // namespace

std::vector<RopeFit::Published> forms()
{
    std::vector<RopeFit::Published> out;
    for (const LongRopePreset &preset : kLongRopePresets) {
        Params p;
        p.encoding = Encoding::Rope;
        p.rope.type = RopeType::LongRope;
        p.rope.headDim = preset.headDim;
        p.rope.partialRotaryFactor = preset.partialRotaryFactor;
        p.rope.theta = preset.theta;
        p.rope.factor = preset.factor;
        p.rope.originalMaxLen = preset.originalMaxLen;
        p.rope.layout = preset.layout;
        p.rope.shortFactor = preset.shortFactor;
        p.rope.longFactor = preset.longFactor;
        out.push_back({preset.title, p});
    }
    return out;
}

} // namespace posenc::RopeLongRopeForms
