#include "RopeDynamicFactor.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeDynamicFactor {

namespace {

// A factor a config gives: a multiple of 1/4, within the fit's precision (a base read to about 1e-6
// moves the factor solved by some 1e-5), so that a rope_theta of its own is rarely read as one.
constexpr double kRoundStep = 0.25;
constexpr double kRelative = 1e-4;
// A length a cache is grown for: a multiple of 256 positions (a max_position_embeddings, a bucket),
// within this many positions; any other length that fits is a coincidence as likely as not.
constexpr double kLengthStep = 256.0;
constexpr double kWholeLength = 0.05;
constexpr double kWholeShorter = 0.02;

} // namespace

QString thetaText(double theta)
{
    const QString given = NumberText::exact(theta);
    return given.size() <= 9 ? given : NumberText::compact(theta, 7);
}

QString grownWords(const Params &declared)
{
    const RopeParams &rope = declared.rope;
    const std::int64_t original = rope.originalMaxLen.value_or(1);
    if (declared.maxLen <= original)
        return u"keeps rope_theta %1 at a sequence of %2 positions (dynamic_rope_update grows the base only past "
               "original_max_position_embeddings %3)"_s.arg(thetaText(rope.theta))
            .arg(declared.maxLen)
            .arg(original);
    return u"grows rope_theta %1 to %2 at a sequence of %3 positions"_s.arg(
        thetaText(rope.theta), thetaText(RopeFrequencies::dynamicBase(declared)))
        .arg(declared.maxLen);
}

std::optional<std::pair<QString, QString>> name(const Params &found, const Params &declared)
{
    const RopeParams &rope = declared.rope;
    if (rope.type != RopeType::Dynamic || found.rope.type != RopeType::Default || !rope.factor)
        return std::nullopt;
    const double original = double(rope.originalMaxLen.value_or(1));
    const double seq = std::max(double(declared.maxLen), original);
    const double d = double(RopeFrequencies::rotaryDim(rope));
    const double ratio = found.rope.theta / rope.theta;
    if (!(ratio > 1.0) || !(d > 2.0))
        return std::nullopt;
    // g = f seq / L0 - (f - 1) = f (seq / L0 - 1) + 1.
    const double g = std::pow(ratio, (d - 2.0) / d);
    const double factor = seq > original ? (g - 1.0) / (seq / original - 1.0) : 0.0;
    const double roundFactor = std::round(factor / kRoundStep) * kRoundStep;
    const QString base
        = u"dynamic's grown base %1 where the declaration %2"_s.arg(thetaText(found.rope.theta), grownWords(declared));
    const double length = original * ((g - 1.0) / *rope.factor + 1.0);
    const double roundLength = std::round(length / kLengthStep) * kLengthStep;
    const bool wholeLength = std::fabs(length - roundLength) <= kWholeLength && roundLength != seq;
    // A prefill shorter than the declared cache: a whole length, closer to one than a base of its own
    // (a round rope_theta) falls by chance.
    const double whole = std::round(length);
    const bool roundTheta = found.rope.theta == std::round(found.rope.theta) && NumberText::exact(found.rope.theta).size() <= 6;
    const bool shorter = std::fabs(length - whole) <= kWholeShorter && whole > original && whole < seq && !roundTheta;
    if (roundFactor > 1.0 && std::fabs(factor / roundFactor - 1.0) <= kRelative) {
        QString words = u"factor %1 where %2 is declared: %3"_s.arg(NumberText::exact(roundFactor),
                                                                   NumberText::exact(*rope.factor), base);
        if (wholeLength)
            words += u" (or the declared factor at a sequence of %1 positions)"_s.arg(qint64(roundLength));
        return std::pair {u"rope-factor"_s, words};
    }
    if ((wholeLength && roundLength > original) || shorter)
        return std::pair {kDynamicLength,
                          u"the base grown for a sequence of %1 positions where the declared sequence has %2 "
                          "(dynamic_rope_update grows it for max(position_ids) + 1 and resets it at or below "
                          "original_max_position_embeddings %3): %4"_s.arg(qint64(shorter ? whole : roundLength))
                              .arg(declared.maxLen)
                              .arg(qint64(original))
                              .arg(base)};
    return std::nullopt;
}

} // namespace posenc::RopeDynamicFactor
