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
