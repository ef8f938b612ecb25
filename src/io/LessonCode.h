#pragma once

#include "core/LessonModel.h"

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <variant>

namespace posenc {

// A lesson's code box, chosen for the model the lesson is read for (docs/ARCHITECTURE.md,
// Lessons): the reference code of the first alternative whose facts the model has (its numbers,
// as an explanation's "needs": the rotation's layout, a partial rotary, the rotary columns at a
// head's tail, layers without position, a query scale), never its name; several alternatives may
// need the same facts, each one family's code for them, and the model's own is preferred. Each
// alternative cites its source on its first lines, as
// "# transformers, models/gptj/modeling_gptj.py: rotate_every_two"; where that folder is not the
// model's own code (the folders its config's model_type or its preset's source cite), or the
// named model's code is not known, the box opens with its "other" line, which says whose code it
// shows and why ({model} the model's name), broken at the code's width; parameters of no named
// model show the code and its citation alone.
//
//   "code": "..."                                      one box for any model
//   "code": [{"needs": ["rope_interleaved"], "text": "...", "other": "# GPT-J's code: ..."},
//            {"text": "...", "other": "..."}]          the last, without needs, for any other
struct LessonCode
{
    struct Alternative
    {
        QString text; // the code, its source cited on its first lines
        QStringList needs; // keys whose numbers the model must have
        QString other; // the line said where the code is not the model's own; {model} its name
    };

    QList<Alternative> alternatives; // empty: no code box

    // Reads "code"; the reason when it is not a lesson's code.
    static std::variant<LessonCode, QString> read(const QJsonValue &value);

    bool isEmpty() const { return alternatives.isEmpty(); }
    // The longest alternative's code and line, for the length check: the window lays out one.
    qsizetype longest() const;

    // The box for `model`: the first alternative it fits, preceded by its "other" line where the
    // code is not the model's own; empty where no alternative fits or there is no box.
    QString forModel(const LessonModel &model) const;
    // The alternative `model` fits, or null: the first whose needs it has, or of the alternatives
    // with those same needs (one computation, several families' code) the model's own.
    const Alternative *chosen(const LessonModel &model) const;

    // The folder of transformers' models/ a code cites first ("gptj"), or empty: code of no one
    // model (a collator, torch.nn.Dropout).
    static QString citedFolder(const QString &code);
    // The folders of transformers' models/ that are the model's own code: its config's modeling
    // file's, and those its shipped preset's source cites; empty where the model is no named one
    // whose code is known.
    static QStringList ownFolders(const LessonModel &model);
};

} // namespace posenc
