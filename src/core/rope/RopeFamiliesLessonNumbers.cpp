#include "RopeLessonNumbers.h"

#include "core/FamiliesDistance.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
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

// A setting of RoPE as a sentence states it: a whole number grouped as RopeText::number groups it,
// another in prose (NumberText::prose), where a figure's title writes it compact: StarCoder2's
// rope_theta 999999.4420358813 reads "999,999", not "1e6", which claims a round 10⁶.
QString settingInProse(double value)
{
    return value == std::floor(value) && std::abs(value) < 1e15 ? RopeText::number(value) : NumberText::prose(value, 4);
}

// The RoPE settings the families figure notes (RopeText::modelText, scalingText), in a sentence's
// numbers: θ and the factor, the settings that are real numbers, in prose.
QString settingsInProse(const Params &rotary)
{
    QString text = RopeText::modelText(rotary) + u", "_s + RopeText::scalingText(rotary);
    const auto restate = [&text](const QString &name, double value) {
        const QString compact = name + RopeText::number(value);
        if (const qsizetype at = text.indexOf(compact); at >= 0)
            text.replace(at, compact.size(), name + settingInProse(value));
    };
    restate(u"θ = "_s, rotary.rope.theta);
    if (rotary.rope.factor)
        restate(u"factor "_s, *rotary.rope.factor);
    return text;
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
             return word(settingsInProse(rotary));
         }},
    };
}

} // namespace posenc::RopeLessonNumbers
