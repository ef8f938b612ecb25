#include "LessonMarkup.h"

#include <QRegularExpression>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc::LessonMarkup {

namespace {

const QStringList kContainers
    = {u"p"_s, u"ul"_s, u"ol"_s, u"li"_s, u"b"_s, u"i"_s, u"em"_s, u"strong"_s, u"sub"_s, u"sup"_s, u"code"_s};
const QString kBreak = u"br"_s;

// A tag as written between '<' and '>': an optional '/', a name, an optional ' /' of <br />.
const QRegularExpression &tagPattern()
{
    static const QRegularExpression pattern(u"^(/?)([a-z]+)\\s*(/?)$"_s);
    return pattern;
}

// A tag's text for messages, cut short when it is long.
QString quoted(const QString &tag)
{
    constexpr int kShown = 40;
    return u"<%1%2>"_s.arg(tag.left(kShown), tag.size() > kShown ? u"…"_s : QString());
}

} // namespace

QString allowedTags()
{
    QStringList tags;
    for (const QString &name : kContainers)
        tags.append(u"<%1>"_s.arg(name));
    tags.insert(1, u"<br>"_s);
    return tags.join(u", "_s);
}

std::optional<QString> checkExplanation(const QString &text)
{
    if (text.size() > kMaxExplanation)
        return u"is %1 characters long; an explanation holds at most %2"_s.arg(text.size()).arg(kMaxExplanation);
    QStringList open;
    for (qsizetype at = text.indexOf(u'<'); at >= 0; at = text.indexOf(u'<', at + 1)) {
        const qsizetype end = text.indexOf(u'>', at);
        if (end < 0)
            return u"has a '<' that starts no tag (write &lt; for the sign)"_s;
        const QString tag = text.mid(at + 1, end - at - 1);
        const QRegularExpressionMatch match = tagPattern().match(tag);
        const QString name = match.captured(2);
        if (!match.hasMatch() || !(kContainers.contains(name) || name == kBreak))
            return u"uses %1; an explanation may use only %2, without attributes"_s.arg(quoted(tag), allowedTags());
        const bool closing = !match.captured(1).isEmpty();
        if (name == kBreak) {
            if (closing)
                return u"uses %1; a line break is <br>"_s.arg(quoted(tag));
        } else if (closing) {
            if (open.isEmpty() || open.constLast() != name)
                return u"closes <%1> where %2 is open"_s.arg(
                    name, open.isEmpty() ? u"no tag"_s : u"<%1>"_s.arg(open.constLast()));
            open.removeLast();
        } else if (!match.captured(3).isEmpty()) {
            return u"uses %1; only <br> stands alone"_s.arg(quoted(tag));
        } else {
            open.append(name);
            if (open.size() > kMaxDepth)
                return u"nests tags %1 deep; an explanation nests them at most %2 deep"_s.arg(open.size())
                    .arg(kMaxDepth);
        }
        at = end;
    }
    if (!open.isEmpty())
        return u"leaves <%1> open"_s.arg(open.constLast());
    return std::nullopt;
}

} // namespace posenc::LessonMarkup
