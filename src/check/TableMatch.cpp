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
    QStringList quoted;
    for (const QString &id : mistakes)
        quoted.append(Description::jsonString(id));
    const QString names = u"["_s + quoted.join(u", "_s) + u"]"_s;
    return v == CheckVerdict::Mistake ? u"\"mistakes\": %1, \"guessed_mistakes\": []"_s.arg(names)
                                      : u"\"mistakes\": [], \"guessed_mistakes\": %1"_s.arg(names);
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
