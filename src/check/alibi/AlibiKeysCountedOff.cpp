#include "check/alibi/AlibiKeysCountedOff.h"

#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::AlibiKeysCountedOff {

std::optional<double> queryPast(const float *row, std::int64_t length, StoredType stored)
{
    if (stored != StoredType::Float32 && stored != StoredType::Float64)
        return std::nullopt;
    const double step = (double(row[length - 1]) - double(row[0])) / double(length - 1);
    if (step == 0.0)
        return std::nullopt;
    const double c = double(length - 1) - double(row[length - 1]) / step;
    if (!(std::fabs(c - std::round(c)) <= 1e-3 * std::max(1.0, std::fabs(c))) || std::round(c) < double(length))
        return std::nullopt;
    return std::round(c);
}

void name(TableMatch &m, double queryAt, std::int64_t length, double firstSlope)
{
    const double off = queryAt - double(length - 1);
    const QString words
        = u"the keys counted as if the query stood at position %1: each head's slope times (j − %1) for keys "
          "j = 0..%2, where a row of %3 keys ends at the query, key %2 (MPT's build_mpt_alibi_tensor, slope × "
          "(j − (L − 1))): every head's bias is the reference's minus %4 times its slope, as a bias built over "
          "%5 keys and cut to its first %3 where its last %3 belong gives it (mosaicml/examples#259, "
          "attn_bias[:, :, :, -s_k:]); a constant per head, which the softmax cancels in exact arithmetic, but "
          "which grows head 1's bias to %6, where bfloat16 keeps steps of %7 against a slope of %8"_s.arg(queryAt)
              .arg(length - 1)
              .arg(length)
              .arg(off)
              .arg(queryAt + 1)
              .arg(NumberText::compact(-firstSlope * queryAt, 6))
              .arg(NumberText::compact(std::exp2(std::floor(std::log2(std::fabs(firstSlope * queryAt))) - 7.0), 3))
              .arg(NumberText::compact(firstSlope, 6));
    // Every key of a head off by the same slope × offset: head 1's, the steepest, the worst.
    m.maxAbsError = std::fabs(firstSlope * off);
    m.worstRow = 0;
    m.worstColumn = 0;
    if (m.verdict == CheckVerdict::Correct) {
        m.verdict = CheckVerdict::Unknown;
        m.correctAgainst.clear();
        m.mistakes = {CheckMistakes::kPositionOffset};
        m.diagnosis = u"%1; the slopes are get_slopes' (%2). Read alone this may be the first %3 keys of a longer "
                      "row (a slice); --expect alibi declares a row of %3 keys"_s.arg(words, m.diagnosis)
                          .arg(length);
        return;
    }
    m.mistakes.prepend(CheckMistakes::kPositionOffset);
    m.diagnosis = words + u"; and "_s + m.diagnosis;
}

} // namespace posenc::AlibiKeysCountedOff
