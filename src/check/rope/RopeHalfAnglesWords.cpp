#include "RopeHalfAngles.h"

#include <QStringList>

using namespace Qt::StringLiterals;

// The words of a half-precision pipeline (RopeHalfAngles.h): each stage that rounded, in the order
// the code forms the angle.
namespace posenc::RopeHalfAngles {

namespace {

QString thetaNumber(double x)
{
    return QString::number(x, 'g', 10);
}

} // namespace

QString pipelineWords(const Pipeline &pipeline, const std::optional<Powers> &powers)
{
    const QString format = pipeline.bfloat16 ? u"bfloat16"_s : u"float16"_s;
    const bool divides = pipeline.stages & Divide;
    if (pipeline.stages == Product)
        return u"the angles p·inv_freq, formed in float32, rounded to %1 before cos and sin"_s.arg(format);
    QStringList rounded;
    if (pipeline.stages & Exponent)
        rounded.append(u"the exponents 2i/d"_s);
    if ((pipeline.stages & Base) && powers)
        rounded.append(u"rope_theta (%1 held as %2)"_s.arg(thetaNumber(powers->theta),
                                                              thetaNumber(RopeHalfAngles::rounded(powers->theta,
                                                                                             pipeline.bfloat16))));
    if (pipeline.stages & Power)
        rounded.append(divides ? u"the timescale rope_theta^(2i/d)"_s : u"the power rope_theta^(2i/d)"_s);
    if ((pipeline.stages & Positions) && (pipeline.stages & Timesteps))
        rounded.append(u"the timesteps t and then t / %1"_s.arg(thetaNumber(kTimestepScale)));
    else if (pipeline.stages & Timesteps)
        rounded.append(u"the timesteps divided by %1 (t / %1)"_s.arg(thetaNumber(kTimestepScale)));
    else if (pipeline.stages & Positions)
        rounded.append(u"the positions"_s);
    if (pipeline.stages & InvFreq)
        rounded.append(u"inv_freq"_s);
    if (pipeline.stages & Product)
        rounded.append(divides ? u"the angle p / rope_theta^(2i/d)"_s : u"their product p·inv_freq"_s);
    if (rounded.isEmpty())
        return divides ? u"each angle a division p / rope_theta^(2i/d) in float32"_s : QString();
    const QString last = rounded.takeLast();
    const QString named = rounded.isEmpty() ? last : u"%1 and %2"_s.arg(rounded.join(u", "_s), last);
    QString words = pipeline.stages & Product
        ? u"%1 rounded to %2, cos and sin taken of the rounded angle"_s.arg(named, format)
        : u"%1 rounded to %2 before the angles were formed in float32"_s.arg(named, format);
    if (divides)
        words += u" (each angle a division p / rope_theta^(2i/d), not a product with inv_freq)"_s;
    return words;
}

} // namespace posenc::RopeHalfAngles
