#include "LessonNumbers.h"

#include "core/positions/BatchLayout.h"
#include "core/positions/PositionsLessonNumbers.h"

#include "FamilySpec.h"
#include "NumberText.h"
#include "SharedLessonNumbers.h"

#include <QRegularExpression>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::LessonNumbers {

namespace {

// The shared numbers, then each family's in the order of FamilyList.h. A model's layers' numbers,
// which need its config as posenc check reads it, are check's (check/models/LayerLessonNumbers),
// given as `more` by the layers that read lessons.
const QList<Entry> &allEntries()
{
    static const QList<Entry> table = [] {
        QList<Entry> list = SharedLessonNumbers::entries();
        for (const FamilySpec &family : Families::all()) {
            if (family.lessonNumbers)
                list += family.lessonNumbers();
        }
        // The batches' numbers (Positions in practice).
        list += PositionsLessonNumbers::entries();
        return list;
    }();
    return table;
}

const Entry *entry(const QString &key, const QList<Entry> &more)
{
    for (const QList<Entry> *list : {&allEntries(), &more}) {
        for (const Entry &e : *list) {
            if (e.key == key)
                return &e;
        }
    }
    return nullptr;
}

// {Model}: the key whose words start a sentence.
std::optional<QString> lowered(const QString &key)
{
    if (key.isEmpty() || !key.front().isUpper())
        return std::nullopt;
    QString lower = key;
    lower[0] = lower[0].toLower();
    return lower;
}

const QRegularExpression &placeholder()
{
    static const QRegularExpression pattern(u"\\{([A-Za-z0-9_]+)\\}"_s);
    return pattern;
}

} // namespace

Entry::Entry(QString key, QString description, std::function<Number(const LessonModel &)> value, QString figure)
    : key(std::move(key))
    , description(std::move(description))
    , value(std::move(value))
    , figure(std::move(figure))
{ }

Entry::Entry(QString key, QString description, std::function<Number(const Params &)> value, QString figure)
    : key(std::move(key))
    , description(std::move(description))
    , value([of = std::move(value)](const LessonModel &model) { return of(model.params); })
    , figure(std::move(figure))
{ }

Number real(double v)
{
    return {v, NumberText::prose(v), {}, false};
}

Number realApart(double v, double other)
{
    return {v, NumberText::prose(v, NumberText::digitsApart(v, other)), {}, false};
}

Number integer(std::int64_t v)
{
    return {double(v), v < 0 ? u"−"_s + NumberText::count(-v) : NumberText::count(v), {}, false};
}

// A count of cells: whole below 10^7, in powers of ten beyond.
Number count(double v)
{
    return v < 1e7 ? integer(std::int64_t(v)) : real(v);
}

// In prose, as every number of a sentence (a power of ten written out, never "1.5241e8"), at the
// digits the figures' factor() gives it.
Number factor(double v)
{
    return {v, NumberText::prose(v, NumberText::factorDigits(v)), {}, false};
}

Number positions(double v)
{
    if (!(std::abs(v) < 1e15))
        return real(v);
    const auto whole = std::llround(v);
    return {v, (whole < 0 ? u"−"_s : QString()) + NumberText::count(std::abs(whole)), {}, false};
}

Number word(const QString &text)
{
    return {std::nullopt, text, {}, false};
}

Number properName(const QString &text)
{
    return {std::nullopt, text, {}, true};
}

QString nameWithin(const LessonModel &model)
{
    if (model.article)
        return u"the "_s + model.name;
    if (model.name.startsWith(u"The "_s))
        return u"the"_s + model.name.mid(3);
    return model.name;
}

Number nameOf(const LessonModel &model)
{
    const QString name = nameWithin(model);
    return name.startsWith(u"the "_s) ? word(name) : properName(name);
}

namespace {

// The possessive of a word or a name, as "{model}'s" is filled. A model's name takes it on the name
// itself, before what qualifies it: "DiT-XL/2's d", not "DiT-XL/2 at 256 pixels' d" (masked-dropout
// read so); a word ending in s takes the apostrophe alone: "defaults'", not "defaults's".
QString possessiveOf(const Number &n)
{
    QString head = n.text;
    if (n.properName) {
        static const QRegularExpression qualifier(u" (?:at|with|for|on|in|of|from|under) "_s);
        if (const auto match = qualifier.match(head); match.hasMatch() && match.capturedStart() > 0)
            head.truncate(match.capturedStart());
    }
    return head.endsWith(u's') ? head + u'\'' : head + u"'s"_s;
}

} // namespace

Number modelsFamily(const LessonModel &model, const QString &family)
{
    if (model.name.isEmpty())
        return word(u"this model's "_s + family);
    const Number name = nameOf(model);
    if (model.name.contains(family, Qt::CaseInsensitive))
        return name;
    return {std::nullopt, possessiveOf(name) + u' ' + family, {}, name.properName};
}

QString familyBeside(const LessonModel &model, const QString &heading)
{
    const QString family = heading.section(u' ', 0, 0);
    if (family == heading || model.name.isEmpty() || !model.name.contains(family, Qt::CaseInsensitive))
        return heading;
    return heading.section(u' ', 1);
}

Number none(const QString &why)
{
    return {std::nullopt, {}, why.isEmpty() ? u"not here"_s : why, false};
}

Number condition(bool holds, const QString &whyNot)
{
    return holds ? word(QString()) : none(whyNot);
}

bool validUnder(const Params &params, Encoding family)
{
    return familyUnder(params, family).validate().isEmpty();
}

bool attendsBothWays(const LessonModel &model)
{
    return BatchLayout::attendsBothWays(model.params);
}

QStringList keys(const QList<Entry> &more)
{
    QStringList list;
    for (const QList<Entry> *entries : {&allEntries(), &more}) {
        for (const Entry &e : *entries)
            list.append(e.key);
    }
    return list;
}

QString describe(const QString &key, const QList<Entry> &more)
{
    const Entry *e = entry(key, more);
    return e ? e->description : QString();
}

QString figureOf(const QString &key, const QList<Entry> &more)
{
    const Entry *e = entry(key, more);
    if (!e && lowered(key))
        e = entry(*lowered(key), more);
    return e ? e->figure : QString();
}

std::optional<Number> number(const QString &key, const LessonModel &model, const QList<Entry> &more)
{
    if (const Entry *e = entry(key, more))
        return e->value(model);
    const auto lower = lowered(key);
    const Entry *e = lower ? entry(*lower, more) : nullptr;
    if (!e)
        return std::nullopt;
    Number n = e->value(model);
    if (!n.text.isEmpty() && !n.properName)
        n.text[0] = n.text[0].toUpper();
    return n;
}

std::optional<Number> number(const QString &key, const Params &params)
{
    return number(key,
                  LessonModel {params, {}, {}, {}, {}, {}, false, false, 0, false, std::nullopt, {}, {}, false, false});
}

QStringList keysIn(const QString &text, const QList<Entry> &more)
{
    QStringList found;
    for (auto it = placeholder().globalMatch(text); it.hasNext();) {
        const QString key = it.next().captured(1);
        const QString named = lowered(key) && !entry(key, more) ? *lowered(key) : key;
        if (!found.contains(named))
            found.append(named);
    }
    return found;
}

Filled fill(const QString &text, const LessonModel &model, bool emphasise, const QList<Entry> &more)
{
    Filled filled;
    qsizetype from = 0;
    for (auto it = placeholder().globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        filled.text += text.mid(from, match.capturedStart() - from);
        from = match.capturedEnd();
        const QString key = match.captured(1);
        const auto found = number(key, model, more);
        if (!filled.keys.contains(key))
            filled.keys.append(key);
        if (!found) {
            filled.unknown.append(key);
            filled.text += match.captured(0);
        } else if (!found->present()) {
            filled.missing.append(key);
        } else {
            const bool possessive = !found->value && QStringView(text).mid(from).startsWith(u"'s"_s)
                && (from + 2 == text.size() || !text[from + 2].isLetterOrNumber());
            if (possessive) {
                filled.text += possessiveOf(*found);
                from += 2;
            } else {
                filled.text += emphasise && found->value ? u"<b>%1</b>"_s.arg(found->text) : found->text;
            }
        }
    }
    filled.text += text.mid(from);
    return filled;
}

} // namespace posenc::LessonNumbers
