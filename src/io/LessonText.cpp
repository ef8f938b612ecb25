#include "LessonText.h"

#include "LessonNeeds.h"

#include "check/models/LayerLessonNumbers.h"
#include "core/OneLine.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using Alternative = LessonText::Alternative;

std::variant<Alternative, QString> readAlternative(const QJsonValue &value)
{
    if (value.isString())
        return Alternative {value.toString().trimmed(), {}, {}};
    if (!value.isObject())
        return u"an alternative is a text or {\"needs\": [KEY, ...], \"panels\": [PANEL, ...], \"text\": TEXT}"_s;
    const QJsonObject object = value.toObject();
    for (const QString &key : object.keys()) {
        if (key != u"needs"_s && key != u"panels"_s && key != u"text"_s)
            return u"an alternative has only \"needs\", \"panels\" and \"text\"; got %1"_s.arg(
                quotedOneLine(key, u'"'));
    }
    const QJsonValue needs = object.value(u"needs"_s), panels = object.value(u"panels"_s);
    if (!object.value(u"text"_s).isString() || !(needs.isArray() || needs.isUndefined())
        || !(panels.isArray() || panels.isUndefined()) || (needs.isUndefined() && panels.isUndefined()))
        return u"an alternative's \"text\" is a text, its \"needs\" a list of keys and its \"panels\" a list of panels"_s;
    Alternative alternative {object.value(u"text"_s).toString().trimmed(), {}, {}};
    if (auto problem = LessonNeeds::read(needs, alternative.needs))
        return *problem;
    // A panel is "FIGURE" or "FIGURE: words of its title or axis label" (KeptPanels).
    static const QRegularExpression panel(u"^[a-z0-9]+(-[a-z0-9]+)*(: \\S.*)?$"_s);
    for (const QJsonValue &named : panels.toArray()) {
        if (!named.isString() || !panel.match(named.toString()).hasMatch())
            return u"\"panels\" lists FIGURE or \"FIGURE: words of a panel's title or axis label\", each a text"_s;
        alternative.panels.append(named.toString());
    }
    return alternative;
}

// An item: one alternative, or a list of them tried in order.
std::variant<LessonText::Item, QString> readItem(const QJsonValue &value)
{
    LessonText::Item item;
    const QJsonArray list = value.isArray() ? value.toArray() : QJsonArray {value};
    if (list.isEmpty())
        return u"an item lists at least one alternative"_s;
    for (const QJsonValue &each : list) {
        auto read = readAlternative(each);
        if (auto *problem = std::get_if<QString>(&read))
            return *problem;
        item.append(std::get<Alternative>(read));
    }
    return item;
}

struct Chosen
{
    QString text; // filled; empty: nothing to say
    QStringList keys;
    QStringList panels;
    bool found = false;
    QStringList missing; // of the last alternative tried, when none fits
};

Chosen choose(const LessonText::Item &item, const LessonModel &model, bool emphasise)
{
    Chosen chosen;
    for (const Alternative &alternative : item) {
        QStringList missing = LessonNeeds::missing(alternative.needs, model);
        const LessonNumbers::Filled filled
            = LessonNumbers::fill(alternative.text, model, emphasise, LayerLessonNumbers::entries());
        missing += filled.missing + filled.unknown;
        if (missing.isEmpty()) {
            chosen.found = true;
            chosen.text = filled.text;
            chosen.keys = alternative.needs + filled.keys;
            chosen.panels = alternative.panels;
            return chosen;
        }
        chosen.missing = missing;
    }
    return chosen;
}

void addKeys(QStringList &to, const QStringList &keys)
{
    for (const QString &key : keys) {
        if (!to.contains(key))
            to.append(key);
    }
}

} // namespace

std::variant<LessonText, QString> LessonText::read(const QJsonValue &explanation, const QJsonValue &note)
{
    LessonText text;
    if (explanation.isString()) {
        text.raw = explanation.toString().trimmed();
        if (text.raw.isEmpty())
            return u"\"explanation\" must be a text that is not empty, or a list of items"_s;
    } else if (explanation.isArray() && !explanation.toArray().isEmpty()) {
        for (const QJsonValue &value : explanation.toArray()) {
            auto item = readItem(value);
            if (auto *problem = std::get_if<QString>(&item))
                return u"\"explanation\": item %1: %2"_s.arg(text.items.size() + 1).arg(*problem);
            text.items.append(std::get<Item>(std::move(item)));
        }
    } else {
        return u"\"explanation\" must be a text that is not empty, or a list of items"_s;
    }
    if (!note.isUndefined() && !note.isNull()) {
        auto item = readItem(note);
        if (auto *problem = std::get_if<QString>(&item))
            return u"\"note\": "_s + *problem;
        text.note = std::get<Item>(std::move(item));
    }
    return text;
}

QStringList LessonText::fragments() const
{
    if (!raw.isEmpty())
        return {raw};
    QStringList all;
    for (const Item &item : items) {
        for (const Alternative &alternative : item)
            all.append(u"<ul><li>%1</li></ul>"_s.arg(alternative.text));
    }
    for (const Alternative &alternative : note)
        all.append(u"<p>%1</p>"_s.arg(alternative.text));
    return all;
}

LessonText::Rendered LessonText::render(const LessonModel &model, bool emphasise) const
{
    Rendered rendered;
    if (!raw.isEmpty()) {
        const Chosen chosen = choose({Alternative {raw, {}, {}}}, model, emphasise);
        if (chosen.found) {
            rendered.html = chosen.text;
            rendered.items.append(chosen.text);
        } else {
            rendered.unfilled.append(u"the explanation: %1"_s.arg(chosen.missing.join(u", "_s)));
        }
        rendered.keys = chosen.keys;
        return rendered;
    }
    QString list;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const Chosen chosen = choose(items[i], model, emphasise);
        if (!chosen.found) {
            rendered.unfilled.append(u"item %1: %2"_s.arg(i + 1).arg(chosen.missing.join(u", "_s)));
            continue;
        }
        addKeys(rendered.keys, chosen.keys);
        addKeys(rendered.panels, chosen.panels);
        if (chosen.text.isEmpty())
            continue;
        list += u"<li>%1</li>"_s.arg(chosen.text);
        rendered.items.append(chosen.text);
    }
    rendered.html = list.isEmpty() ? QString() : u"<ul>%1</ul>"_s.arg(list);
    if (!note.isEmpty()) {
        const Chosen chosen = choose(note, model, emphasise);
        if (!chosen.found) {
            rendered.unfilled.append(u"the note: %1"_s.arg(chosen.missing.join(u", "_s)));
        } else if (!chosen.text.isEmpty()) {
            addKeys(rendered.keys, chosen.keys);
            addKeys(rendered.panels, chosen.panels);
            rendered.html += u"<p>%1</p>"_s.arg(chosen.text);
            rendered.items.append(chosen.text);
        }
    }
    return rendered;
}

QString LessonText::plain(const QString &markup)
{
    static const QRegularExpression sub(u"<sub>(.*?)</sub>"_s);
    static const QRegularExpression sup(u"<sup>(.*?)</sup>"_s);
    static const QRegularExpression tag(u"<[^>]*>"_s);
    QString text = markup;
    text.replace(sub, u"_\\1"_s);
    text.replace(sup, u"^\\1"_s);
    text.replace(tag, QString());
    text.replace(u"&lt;"_s, u"<"_s).replace(u"&gt;"_s, u">"_s).replace(u"&quot;"_s, u"\""_s);
    return text.replace(u"&amp;"_s, u"&"_s);
}

} // namespace posenc
