#include "RopeFunctionReplaced.h"

#include "check/TableMatch.h"
#include "check/rope/RopeCheckWords.h"

using namespace Qt::StringLiterals;

namespace posenc::RopeFunctionReplaced {

bool read(const RopeFit::FitInput &input, RopeFit::Fit &fit, std::optional<std::int64_t> firstPosition)
{
    RopeFit::Hypothesis other = fit.hypothesis;
    other.cosine = !other.cosine;
    other.firstPosition = firstPosition.value_or(fit.hypothesis.firstPosition);
    const RopeFit::Fit replaced = RopeFit::evaluate(input, other);
    if (replaced.bad() != 0)
        return false;
    fit.float32Angles = replaced.float32Angles;
    fit.mistakes.append(fit.hypothesis.cosine ? u"cos-replaced"_s : u"sin-replaced"_s);
    // The rows' positions read with the function the table holds, not the declared one's.
    if (other.firstPosition != fit.hypothesis.firstPosition) {
        fit.mistakes.append(CheckMistakes::kPositionOffset);
        fit.hypothesis.firstPosition = other.firstPosition;
    }
    return true;
}

TableMatch said(TableMatch match, const RopeFit::Fit &fit)
{
    const bool cos = fit.hypothesis.cosine;
    const QString replaced = cos ? u"cos-replaced"_s : u"sin-replaced"_s;
    const std::int64_t declaredFirst = fit.correct.firstPosition, first = fit.hypothesis.firstPosition;
    const QString positions = first == declaredFirst
        ? u"the angles, frequencies and attention factor are the declaration's"_s
        : u"and its rows hold positions %1.. where %2.. are declared (%3: an offset of %4); the frequencies and "
          "attention factor are the declaration's"_s.arg(first)
              .arg(declaredFirst)
              .arg(CheckMistakes::kPositionOffset)
              .arg(first - declaredFirst);
    match.diagnosis
        = u"%1: the table holds the %2 of the declared angles where its %3 table holds their %4 (%5 "
          "declared); %6"_s.arg(replaced, cos ? u"sines"_s : u"cosines"_s, cos ? u"cos"_s : u"sin"_s,
                                cos ? u"cosines"_s : u"sines"_s, RopeCheckWords::reference(fit.correct), positions);
    return match;
}

} // namespace posenc::RopeFunctionReplaced
