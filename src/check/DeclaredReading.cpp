#include "DeclaredReading.h"

#include <tuple>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

void nameDeclaredMistake(TableMatch &declared, const TableMatch &read)
{
    if (declared.verdict != CheckVerdict::Mistake || declared.deviations.isEmpty())
        return;
    if (read.verdict == CheckVerdict::Unknown || read.diagnosis.isEmpty())
        return;
    // A family that named the declared parameters the table differs in keeps its names; what the
    // table reads as undeclared is still said.
    const bool named = !declared.mistakes.isEmpty();
    // The same words, or the declared ones with their source after them ("... (preset llama-3-1-8b)"):
    // "attention factor 1" is no prefix of another reference's "attention factor 1.5".
    const bool sameReference = !read.referenceText.isEmpty() && read.family == declared.family
        && (declared.referenceText == read.referenceText
            || declared.referenceText.startsWith(read.referenceText + u" ("_s));
    if (!named && sameReference && read.verdict == CheckVerdict::Mistake && !read.mistakes.isEmpty()) {
        declared.mistakes = read.mistakes;
        declared.positionOffset = read.positionOffset;
        declared.firstPositionRow = read.firstPositionRow;
        declared.notes.prepend(declared.diagnosis);
        declared.diagnosis = read.diagnosis;
        return;
    }
    QString what = CheckWords::verdict(read.verdict);
    if (!read.mistakes.isEmpty())
        what += u" (%1)"_s.arg(read.mistakes.join(u", "_s));
    if (!read.referenceText.isEmpty() && read.verdict != CheckVerdict::Correct)
        what += u" against "_s + read.referenceText;
    declared.notes.prepend(u"read without the declaration, the table is %1: %2"_s.arg(what, read.diagnosis));
}

bool betterCandidate(const TableMatch &x, const Verification &vx, const TableMatch &y, const Verification &vy,
                     const QString &readAs)
{
    const auto rank = [&](const TableMatch &m, const Verification &v) {
        return std::tuple {v.deviatingCells > 0, v.deviatingCells > 0 && m.table != readAs, v.deviatingCells,
                           v.maxAbsError};
    };
    return rank(x, vx) < rank(y, vy);
}

} // namespace posenc::TableCheck
