#pragma once

#include "core/LessonModel.h"
#include "core/LessonNumbers.h"

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace posenc {

// A lesson's explanation as the model it is read for makes it (docs/ARCHITECTURE.md, Lessons):
// a list of items, each a list of alternatives, the first that this model fills shown. An
// alternative names numbers as {key} (LessonNumbers) and may need others it does not show
// ({"needs": ["rope_yarn"], "text": ...}) and name the panels it refers to ({"panels":
// ["dropout-anatomy: fraction dropped"], "text": "... the fraction chart ..."}); a number the
// model lacks (an image in a prompt without one, llama3's bands in a YaRN model) makes the
// alternative unfit, never a hole in a sentence.
// So the last alternative of an item is what the lesson says where its point does not apply, or
// "" where it then has nothing to say.
//
//   "explanation": ["Every position ... {d} ...",
//                   ["Here llama3 keeps {rope_llama3_kept} ...", "{Model} sorts no pairs into bands."]],
//   "note": "{dropout_note}"
//
// An explanation written as one string (a session saved by an older program) is one fragment of
// one alternative, shown as it is.
struct LessonText
{
    struct Alternative
    {
        QString text; // inline markup with {key}s; empty: say nothing
        QStringList needs; // keys that must be present besides those the text names
        // The figures and panels the text refers to ("the fraction chart", "the tables"), each
        // "FIGURE" or "FIGURE: words of the panel's title or axis label": what a slide of the lesson
        // must draw (Lesson::slideFigures, Lesson::keptPanels).
        QStringList panels;
    };
    using Item = QList<Alternative>;

    QList<Item> items; // the list's items
    QList<Alternative> note; // a paragraph after the list; empty: none
    QString raw; // an explanation of one string, shown without a list

    // Reads "explanation" (and "note"); the reason when they are not a lesson's text.
    static std::variant<LessonText, QString> read(const QJsonValue &explanation, const QJsonValue &note);
    // Every alternative's text, for the markup's check and the keys' (each wrapped as it is shown).
    QStringList fragments() const;

    // The text for `model`.
    struct Rendered
    {
        QString html; // <ul><li>…</li>…</ul><p>…</p>, numbers in <b> when emphasised
        QStringList items; // each shown item's markup, in order (the note last)
        // Items no alternative of which this model fills, "item 3: rope_kept, rope_blended": a
        // lesson's mistake, which the tests of every lesson and model find.
        QStringList unfilled;
        QStringList keys; // the keys of the shown alternatives, each once, in order
        QStringList panels; // the panels the shown alternatives refer to, each once, in order
    };
    Rendered render(const LessonModel &model, bool emphasise = false) const;

    // Markup as plain text: tags dropped, <sub>/<sup> as _x and ^x, entities read.
    static QString plain(const QString &markup);
};

} // namespace posenc
