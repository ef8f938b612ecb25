#include "ParamError.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {
constexpr qsizetype kMaxQuoted = 60;

// The text on one line: line ends, tabs and the other control characters, and Unicode's line and
// paragraph separators, written as escapes (\n, \x1b, \u2028), so that a message stays one line.
QString oneLine(QStringView text)
{
    QString shown;
    shown.reserve(text.size());
    for (const QChar c : text) {
        const QChar::Category category = c.category();
        if (category != QChar::Other_Control && category != QChar::Separator_Line
            && category != QChar::Separator_Paragraph) {
            shown += c;
            continue;
        }
        switch (c.unicode()) {
        case u'\n':
            shown += u"\\n"_s;
            break;
        case u'\r':
            shown += u"\\r"_s;
            break;
        case u'\t':
            shown += u"\\t"_s;
            break;
        default:
            shown += c.unicode() < 0x100 ? u"\\x%1"_s.arg(uint(c.unicode()), 2, 16, QChar(u'0'))
                                         : u"\\u%1"_s.arg(uint(c.unicode()), 4, 16, QChar(u'0'));
        }
    }
    return shown;
}

} // namespace

QString ParamError::sentence() const
{
    QString text = problem.isEmpty() ? u"must be "_s + allowed : problem;
    if (!problem.isEmpty() && !allowed.isEmpty())
        text += u"; it must be "_s + allowed;
    if (given)
        text += u"; got "_s + *given;
    return text;
}

QString ParamError::quoted(const QString &text)
{
    if (text.size() <= kMaxQuoted)
        return u"'%1'"_s.arg(oneLine(text));
    QStringView kept = QStringView(text).left(kMaxQuoted);
    if (kept.back().isHighSurrogate()) // not half a character
        kept.chop(1);
    return u"'%1…' (%2 characters)"_s.arg(oneLine(kept), QString::number(text.size()));
}

} // namespace posenc
