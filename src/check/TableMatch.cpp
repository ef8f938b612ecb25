#include "TableMatch.h"
#include "VerdictNames.h"

#include "core/Description.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace CheckWords {

QString verdict(CheckVerdict verdict)
{
    switch (verdict) {
    case CheckVerdict::Correct:
        return u"correct"_s;
    case CheckVerdict::Variant:
        return u"variant"_s;
    case CheckVerdict::Learned:
        return u"learned"_s;
    case CheckVerdict::Mistake:
        return u"mistake"_s;
    case CheckVerdict::Unknown:
        return u"unknown"_s;
    }
    return {};
}

QString verdictWithNames(CheckVerdict v, const QStringList &mistakes)
{
    if (mistakes.isEmpty())
        return verdict(v);
    return v == CheckVerdict::Mistake ? u"%1 (%2)"_s.arg(verdict(v), mistakes.join(u", "_s))
                                      : u"%1 (a guess: %2)"_s.arg(verdict(v), mistakes.join(u", "_s));
}

QString mistakesJson(CheckVerdict v, const QStringList &mistakes)
{
    return mistakesJson(v, mistakes, {});
}

QString mistakesJson(CheckVerdict v, const QStringList &mistakes, const QStringList &guessed)
{
    const auto array = [](const QStringList &ids) {
        QStringList quoted;
        for (const QString &id : ids)
            quoted.append(Description::jsonString(id));
        return u"["_s + quoted.join(u", "_s) + u"]"_s;
    };
    QStringList guesses = v == CheckVerdict::Mistake ? QStringList() : mistakes;
    for (const QString &id : guessed) {
        if (!guesses.contains(id) && !(v == CheckVerdict::Mistake && mistakes.contains(id)))
            guesses.append(id);
    }
    return u"\"mistakes\": %1, \"guessed_mistakes\": %2"_s.arg(
        array(v == CheckVerdict::Mistake ? mistakes : QStringList()), array(guesses));
}

QString precision(TablePrecision precision)
{
    switch (precision) {
    case TablePrecision::Exact:
        return u"exact"_s;
    case TablePrecision::Float16:
        return u"float16"_s;
    case TablePrecision::BFloat16:
        return u"bfloat16"_s;
    case TablePrecision::Float32Angles:
        return u"float32-angles"_s;
    }
    return {};
}

namespace {

QString roundingWord(Rounding rounding)
{
    switch (rounding) {
    case Rounding::Nearest:
        break;
    case Rounding::TowardZero:
        return u"toward-zero"_s;
    case Rounding::Downward:
        return u"downward"_s;
    case Rounding::Upward:
        return u"upward"_s;
    }
    return {};
}

} // namespace

QString precision(TablePrecision p, Rounding rounding)
{
    const bool half = p == TablePrecision::Float16 || p == TablePrecision::BFloat16;
    if (!half || rounding == Rounding::Nearest)
        return precision(p);
    return precision(p) + u"-"_s + roundingWord(rounding);
}

QString roundedNote(TablePrecision p, Rounding rounding)
{
    const QString format = precision(p);
    switch (rounding) {
    case Rounding::Nearest:
        break;
    case Rounding::TowardZero:
        return u"the values are %1 by truncation (rounded toward zero: each value's low bits cut), not rounded to "
               "nearest: correct within that rounding, every cell within a unit of %1 of the reference and no "
               "farther from 0"_s.arg(format);
    case Rounding::Downward:
    case Rounding::Upward:
        return u"the values are rounded %2 to %1, not to nearest: correct within that rounding, every cell within "
               "a unit of %1 %3 the reference"_s.arg(format, rounding == Rounding::Downward ? u"down"_s : u"up"_s,
                                                     rounding == Rounding::Downward ? u"below"_s : u"above"_s);
    }
    return u"the values are rounded to %1: correct within its rounding"_s.arg(format);
}

} // namespace CheckWords

void TableMatch::markRelativeReversed(const QString &why)
{
    verdict = CheckVerdict::Mistake;
    mistakes = {CheckMistakes::kRelativeReversed};
    correctAgainst.clear();
    diagnosis = why;
}

MatchValue TableMatch::finding(const QString &key) const
{
    for (const MatchField &field : findings) {
        if (field.key == key)
            return field.value;
    }
    return {};
}

} // namespace posenc
