#include "FigureRoomSteps.h"

#include "FigureFit.h"
#include "ShorterLabels.h"

#include <algorithm>

using namespace Qt::StringLiterals;

// Steps::shortened, a text in fewer lines by its parts, its figure's shorter forms, its clauses
// and its words (docs/ARCHITECTURE.md, Figures at any size): apart from the steps that call it.
namespace posenc::FigureRoom::Steps {

namespace {

const QString kSeparator = u"  ·  "_s;

// The lines `text` takes wrapped within `width`, as FigureFit wraps it.
int linesOf(const QString &text, const QFont &font, double width)
{
    int lines = 0;
    for (const QString &line : text.split(u'\n'))
        lines += int(FigureFit::wrap(line, font, width).count(u'\n')) + 1;
    return lines;
}

// A word that says no word: a number ("16,", "0–63") or a sign ("="), which the word before it names.
bool wordless(const QString &word)
{
    return std::none_of(word.begin(), word.end(), [](QChar c) { return c.isLetter(); });
}

// `words`' first `count`, without the signs that would lead on to the next ("pair 16," is "pair 16").
QString leading(const QStringList &words, qsizetype count)
{
    QString kept = words.mid(0, count).join(u' ');
    while (!kept.isEmpty() && u",;:=("_s.contains(kept.back()))
        kept.chop(1);
    return kept.trimmed();
}

// `text` without its last clause: a closing parenthesis's group at its end, else what follows its
// last ", ", "; " or ": " outside any parenthesis, unless a number follows it (the value of the word
// before it); `text` itself where it has none.
QString withoutLastClause(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.endsWith(u')')) {
        int depth = 0;
        for (qsizetype i = trimmed.size() - 1; i >= 0; --i) {
            depth += trimmed.at(i) == u')' ? 1 : trimmed.at(i) == u'(' ? -1 : 0;
            if (depth == 0)
                return i > 0 ? trimmed.left(i).trimmed() : trimmed;
        }
        return trimmed;
    }
    int depth = 0;
    qsizetype cut = -1;
    for (qsizetype i = 0; i + 1 < trimmed.size(); ++i) {
        const QChar c = trimmed.at(i);
        depth += c == u'(' ? 1 : c == u')' ? -1 : 0;
        // Not before a number: "PE lost: 10.2 %" is no clause and its value.
        if (depth == 0 && (c == u',' || c == u';' || c == u':') && trimmed.at(i + 1) == u' '
            && !wordless(trimmed.mid(i + 2).section(u' ', 0, 0)))
            cut = i;
    }
    return cut > 0 ? trimmed.left(cut).trimmed() : trimmed;
}

} // namespace

QString shortened(const QString &text, const QFont &font, double width, int lines, const QStringList &forms)
{
    if (linesOf(text, font, width) <= lines)
        return text;
    QStringList parts;
    for (const QString &statement : text.split(u'\n'))
        parts += statement.split(kSeparator);
    for (qsizetype k = parts.size() - 1; k >= 1; --k) {
        const QString kept = parts.mid(0, k).join(kSeparator);
        if (linesOf(kept, font, width) <= lines)
            return kept;
    }
    for (const QString &form : forms)
        if (linesOf(form, font, width) <= lines)
            return form;
    // The first part without its last clauses, each whole: a parenthesis, then what follows a comma,
    // semicolon or colon outside any ("pair 4, p = 0–20", not "pair 4, p = 0–20 (one …").
    for (QString clause = parts.value(0); !clause.isEmpty();) {
        const QString shorter = withoutLastClause(clause);
        if (shorter == clause)
            break;
        clause = shorter;
        if (linesOf(clause, font, width) <= lines)
            return clause;
    }
    // The first part's first words, never cut within a word nor before the number a word names
    // ("pair …" of "pair 16"): with an ellipsis, or, where that leaves no room for a word and its
    // number, without it.
    const QStringList words = parts.value(0).split(u' ', Qt::SkipEmptyParts);
    for (const QString &more : {u" …"_s, QString()}) {
        for (qsizetype k = words.size() - 1; k >= 1; --k) {
            const QString kept = leading(words, k);
            if (!kept.isEmpty() && !wordless(words[k]) && linesOf(kept + more, font, width) <= lines)
                return kept + more;
        }
    }
    // Where not even that fits, the first word and the number it names whole, past the room: a
    // text cut within its first word ("embed…", or nothing) names nothing, and the figure gives up
    // more (a panel beside it) for the room it takes.
    qsizetype first = 1;
    while (first < words.size() && wordless(words[first]))
        ++first;
    const QString kept = leading(words, first);
    return kept.isEmpty() ? words.value(0) : kept;
}

QString firstPart(const QString &text, const QStringList &separators)
{
    int depth = 0;
    for (qsizetype i = 1; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'(' || c == u'[' || c == u'⟨' || c == u'{')
            ++depth;
        else if (c == u')' || c == u']' || c == u'⟩' || c == u'}')
            depth = std::max(depth - 1, 0);
        if (depth > 0)
            continue;
        for (const QString &separator : separators)
            if (QStringView(text).mid(i).startsWith(separator))
                return text.left(i).trimmed();
    }
    return text;
}

QString shortestTrue(const QCPAxis *axis, const QStringList &separators)
{
    // A label naming several quantities ("cos(p·θᵢ), sin(p·θᵢ)") is not its first part: the figure's
    // own shortest form is as true as the whole (ShorterLabels), the first part only where it gives none.
    const QStringList forms = ShorterLabels::of(axis);
    return forms.isEmpty() ? firstPart(FigureFit::unwrappedLabel(axis), separators) : forms.constLast();
}

} // namespace posenc::FigureRoom::Steps
