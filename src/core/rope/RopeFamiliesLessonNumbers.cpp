#include "RopeLessonNumbers.h"

#include "core/FamiliesDistance.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeText.h"

#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::RopeLessonNumbers {

using namespace LessonNumbers;

namespace {

// ⟨q, R(distance)q⟩/‖q‖² for q all ones: the pairs' cosines, the columns that do not turn adding 1;
// in the digits that tell it from the 1 it has at distance 0 (Gemma 3 4B's 0.99969 one key back
// read "1").
Number ropeAligned(const Params &p, double distance)
{
    if (!validUnder(p, Encoding::Rope))
        return none(u"not here: RoPE's settings are not valid"_s);
    const Params rotary = familyUnder(p, Encoding::Rope);
    const std::vector<double> theta = RopeFrequencies::schedule(rotary).w;
    double sum = double(p.rope.headDim) - 2.0 * double(theta.size());
    for (const double t : theta)
        sum += 2.0 * std::cos(distance * t);
    return realApart(sum / double(p.rope.headDim), 1.0);
}

} // namespace

QList<Entry> familiesEntries()
{
    return {
        {u"fam_rope_1"_s, u"RoPE's ⟨q, R(1)q⟩/‖q‖², q all ones, at the rope settings"_s,
         [](const Params &p) { return ropeAligned(p, 1.0); }},
        {u"fam_rope_100"_s, u"… at distance 100"_s, [](const Params &p) { return ropeAligned(p, 100.0); }},
        {u"fam_rope_far"_s, u"… at distance fam_far"_s,
         [](const Params &p) {
             return atFamiliesDistance(p, FamiliesDistance::Far,
                                       [&](std::int64_t back) { return ropeAligned(p, double(back)); });
         }},
        {u"fam_rope_settings"_s, u"the RoPE settings the families figure draws, in words"_s,
         [](const Params &p) {
             if (!validUnder(p, Encoding::Rope))
                 return none(u"not here: RoPE's settings are not valid"_s);
             const Params rotary = familyUnder(p, Encoding::Rope);
             return word(RopeText::modelText(rotary) + u", "_s + RopeText::scalingText(rotary));
         }},
    };
}

} // namespace posenc::RopeLessonNumbers
