#pragma once

#include "QCustomPlot.h"

#include <QStringList>

#include <algorithm>

// An axis's label in shorter forms its figure gives, each as true as the whole, longest first
// (docs/ARCHITECTURE.md, "Figures at any size"): where little room holds the whole label in no one
// line, the axis shows the first form that does, rather than the whole's first words cut ("weight
// of key 0", not "weight of …"). A form that holds in none leaves the cut. An x axis's label too
// long for the row of its tick labels goes there in the first form that is (labelsAlongTicks).
namespace posenc::ShorterLabels {

inline constexpr char kProperty[] = "posencShorterLabels";

inline void set(QCPAxis *axis, const QStringList &forms)
{
    axis->setProperty(kProperty, forms);
}

inline QStringList of(const QCPAxis *axis)
{
    return axis->property(kProperty).toStringList();
}

// A legend entry's shorter forms, as true as its plottable's name ("L₀ = 1,024" of "L₀ = max-len
// = 1,024") or its swatch's label (SwatchLegend; set on the swatch's item): where little room would
// cut the entry (FigureRoom's elideEntries), it shows the first form that holds whole.
inline constexpr char kEntriesProperty[] = "posencShorterEntries";

inline void setEntry(QObject *plottableOrSwatch, const QStringList &forms)
{
    plottableOrSwatch->setProperty(kEntriesProperty, forms);
}

inline QStringList ofEntry(const QObject *plottableOrSwatch)
{
    return plottableOrSwatch->property(kEntriesProperty).toStringList();
}

// A text element's shorter forms (a panel's title), each as true as the whole, longest first: where
// little room would cut the text within its first part ("σ = d^-1/2 = 0.04419, s …"), it shows
// the first form that holds whole ("σ = d^-1/2, s = √d") rather than an ellipsis.
inline constexpr char kTextsProperty[] = "posencShorterTexts";

inline void setText(QCPTextElement *text, const QStringList &forms)
{
    text->setProperty(kTextsProperty, forms);
}

inline QStringList ofText(const QCPTextElement *text)
{
    return text->property(kTextsProperty).toStringList();
}

// The parts of a figure's title that name the model's parameters ("yarn, factor 40, original 4,096"):
// on little room the title keeps them in its second line until the panels' titles have gone to one
// line (FigureRoom's ladder): a slide of DeepSeek-V3's rotation kept the arrows' words and lost
// the scaling that makes the figure DeepSeek's.
inline constexpr char kModelPartsProperty[] = "posencModelParts";

inline void setModelParts(QCPTextElement *title, const QStringList &parts)
{
    title->setProperty(kModelPartsProperty, parts);
}

inline QStringList ofModelParts(const QCPTextElement *title)
{
    return title->property(kModelPartsProperty).toStringList();
}

// Whether `word` is a word of a label's prose ("position", "key", "(pair", "the"), not a symbol
// ("p", "λᵢ", "|i", "t"): two letters or more, letters alone within the brackets and punctuation
// around them.
inline bool isProse(const QString &word)
{
    qsizetype from = 0, to = word.size();
    while (from < to && (word[from].isPunct() || word[from].isSymbol()) && word[from] != u'|')
        ++from;
    while (to > from && (word[to - 1].isPunct() || word[to - 1].isSymbol()) && word[to - 1] != u'|')
        --to;
    const QStringView letters = QStringView(word).mid(from, to - from);
    return letters.size() >= 2 && std::all_of(letters.begin(), letters.end(), [](QChar c) { return c.isLetter(); })
        && !std::any_of(letters.begin(), letters.end(), [](QChar c) { return c.category() == QChar::Letter_Modifier; });
}

// The forms of a one-line `label` that its symbol alone gives, where its words name one: the
// label's words up to its first symbol dropped ("position p" as "p", "query position t + 1" as
// "t + 1", "distance r = |i − j|" as "r = |i − j|" and then "r"), as a paper's axes read once its
// text has said what the symbol is; a label that opens with its symbol and says what it is after a
// comma, the symbol alone ("X, the dropout's input" as "X"). None where no words come before the
// symbol, or prose follows it ("position p (log scale)", "token of the prompt").
inline QStringList symbolForms(const QString &label)
{
    const QStringList words = label.split(u' ', Qt::SkipEmptyParts);
    if (words.size() > 1 && words[0].size() > 1 && words[0].size() <= 4 && words[0].endsWith(u',')
        && !isProse(words[0].chopped(1)))
        return {words[0].chopped(1)};
    qsizetype first = 0;
    while (first < words.size() && isProse(words[first]))
        ++first;
    if (first == 0 || first == words.size() || words[first].size() > 3)
        return {};
    for (qsizetype i = first; i < words.size(); ++i)
        if (words[i].size() >= 3 && isProse(words[i]))
            return {};
    QStringList forms {words.mid(first).join(u' ')};
    if (words.size() > first + 2 && words[first + 1] == QStringView(u"="))
        forms.append(words[first]);
    return forms;
}

} // namespace posenc::ShorterLabels
