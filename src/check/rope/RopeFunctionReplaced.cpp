#include "RopeFunctionReplaced.h"

#include "check/rope/RopeCheckWords.h"

using namespace Qt::StringLiterals;

namespace posenc::RopeFunctionReplaced {

bool read(const RopeFit::FitInput &input, RopeFit::Fit &fit)
{
    RopeFit::Hypothesis other = fit.hypothesis;
    other.cosine = !other.cosine;
    const RopeFit::Fit replaced = RopeFit::evaluate(input, other);
    if (replaced.bad() != 0)
        return false;
    fit.float32Angles = replaced.float32Angles;
    fit.mistakes.append(fit.hypothesis.cosine ? u"cos-replaced"_s : u"sin-replaced"_s);
    return true;
}

TableMatch said(TableMatch match, const RopeFit::Fit &fit)
{
    const bool cos = fit.hypothesis.cosine;
    match.diagnosis = u"%1: the table holds the %2 of the declared angles where its %3 table holds their %4 (%5 "
                      "declared); the angles, frequencies and attention factor are the declaration's"_s.arg(
                          fit.mistakes.back(), cos ? u"sines"_s : u"cosines"_s, cos ? u"cos"_s : u"sin"_s,
                          cos ? u"cosines"_s : u"sines"_s, RopeCheckWords::reference(fit.correct));
    return match;
}

} // namespace posenc::RopeFunctionReplaced
