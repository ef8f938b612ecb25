#pragma once

#include <QString>
#include <QStringView>

namespace posenc {

// The text on one line: line ends, tabs and the other control characters, and Unicode's line and
// paragraph separators, written as escapes (\n, \x1b, \u2028), so that a message that quotes a
// value or a path a user gave stays one line.
inline QString oneLine(QStringView text)
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
            shown += QStringLiteral("\\n");
            break;
        case u'\r':
            shown += QStringLiteral("\\r");
            break;
        case u'\t':
            shown += QStringLiteral("\\t");
            break;
        default:
            shown += c.unicode() < 0x100 ? QStringLiteral("\\x%1").arg(uint(c.unicode()), 2, 16, QChar(u'0'))
                                         : QStringLiteral("\\u%1").arg(uint(c.unicode()), 4, 16, QChar(u'0'));
        }
    }
    return shown;
}

// A text a user or a file gave, between `quote`s on one line and shortened past 60 characters,
// "abc…" (1000000 characters), so that a pasted megabyte is not echoed whole.
inline QString quotedOneLine(QStringView text, QChar quote = u'\'')
{
    constexpr qsizetype kMaxQuoted = 60;
    if (text.size() <= kMaxQuoted)
        return quote + oneLine(text) + quote;
    QStringView kept = text.left(kMaxQuoted);
    if (kept.back().isHighSurrogate()) // not half a character
        kept.chop(1);
    return quote + oneLine(kept) + QStringLiteral("…") + quote
        + QStringLiteral(" (%1 characters)").arg(QString::number(text.size()));
}

} // namespace posenc
