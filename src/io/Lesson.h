#pragma once

#include "LessonCode.h"
#include "LessonText.h"
#include "SessionFile.h"
#include "SessionView.h"

#include "core/LessonModel.h"
#include "core/ParamOverlay.h"
#include "core/Params.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace posenc {

// A lesson: a session that answers one question people bring (docs/ARCHITECTURE.md, Lessons),
// about a model the lecturer picks. Its parameters and views make the point; its explanation
// says it for the model it is read for (LessonText), with {key} placeholders that LessonNumbers
// fills with that model's numbers.
//
//   {"format": "posenc-session", "version": 1,
//    "lesson": {"name": "rope-scaling", "order": 10, "title": "...", "question": "...",
//               "model": "llama-3-1-8b", "keep": ["max-len"],
//               "needs": {"keys": ["is_rope"], "what": "a model that turns ... (--encoding rope)"},
//               "explanation": ["... {rope_original} ...", ["... {a} ...", "..."]], "note": "...",
//               "code": "...", "main": 0},
//    "params": {...}, "view": {"layout": "1x2", "views": [{"figure": "rope-scalings", ...}, ...]}}
//
// "model" is the preset the lesson is about unless another model is chosen; its parameters lie
// over the lesson's "params" (the lesson's settings), but for those "keep" lists, which the lesson
// holds for any model (the length its figures need, a prompt). "needs" says what the lesson's
// point needs of a model: keys whose numbers it must have ("keys"), or one of which ("any"), and
// the words for them. "main" is
// the index in "views" of the figure `posenc export --lesson` writes; a view's "config" of
// "{model}" draws the model's config. "code", the code the question is about, may be absent, or be
// alternatives chosen by the model's numbers (LessonCode).
struct Lesson
{
    // A view's "config" that stands for the config of the model the lesson is read for.
    static constexpr char16_t kModelConfig[] = u"{model}";

    QString name; // the command line's NAME: lowercase words joined by '-'
    int order = 0; // where the menus list it
    QString title;
    QString question;
    LessonText text; // the explanation and its note
    LessonCode code; // shown as code beside the explanation, for the model (LessonCode::forModel)
    int mainView = 0;
    QString model; // the preset the lesson is about by default; empty: its own parameters
    QStringList keep; // parameter keys the lesson holds whatever the model
    QStringList needs; // keys of numbers the model must have for the lesson to apply
    QStringList needsAny; // keys of which the model must have one
    QString needsWhat; // what they are, in words: "a model that ..."
    Session session;

    // The lesson's views (its session's "view"), a "config" of "{model}" the model's config.
    SessionView view(const QString &modelConfig = {}) const;
    QJsonObject viewState(const QString &modelConfig) const;
    // The figure of its main view; empty when none.
    QString mainFigure() const;
    // The figures of its slide (`posenc export --lesson NAME all`) for `model`: those the window
    // shows (the layout's views, the main one first), then the views its text for `model` names
    // ("the alibi-slopes view") and the figures of the panels it refers to (its alternatives'
    // "panels"), each figure once. The other views the window keeps unseen stay off the slide
    // (docs/ARCHITECTURE.md, Exporting).
    // Without `windowViews`, the figures of its own export (`posenc export --lesson NAME`): the
    // main figure, the views its text names and the figures of the panels it refers to; its slide
    // drew the main figure alone, without left-padding's "position-effect view's difference panel"
    // or many-layers' query-scale view.
    QStringList slideFigures(const LessonModel &model, bool windowViews = true) const;
    // The panels of `figure` its text for `model` refers to or that draw the numbers it quotes, by
    // words of their titles or axis labels: a slide keeps them whatever its room (FigureStyle::keptPanels).
    QStringList keptPanels(const LessonModel &model, const QString &figure) const;
    // The same from the text as explain() rendered it: the views of a lesson opened take theirs from
    // one rendering, whose numbers (LessonNumbers) are computed once.
    static QStringList keptPanels(const LessonText::Rendered &rendered, const QString &figure);
    // The parameters of the lesson for its own model, or every problem with them.
    std::variant<Params, QList<ParamError>> params() const;
    // Its explanation for `model`.
    LessonText::Rendered explain(const LessonModel &model, bool emphasise = false) const;
    // Why the lesson does not apply to `model`, in one line, or nothing.
    std::optional<QString> refusal(const LessonModel &model) const;
};

namespace Lessons {

// The directory of the lessons compiled into the program (every file of resources/lessons, src/io/CMakeLists.txt).
inline constexpr char16_t kDirectory[] = u":/lessons";

// A lesson file: a session (parseSession) whose "lesson" block names it, asks its question and
// explains; the path and the reason when it is not one.
std::variant<Lesson, SessionError> parse(const QByteArray &json, const QString &path);
std::variant<Lesson, SessionError> read(const QString &path);
// The lesson of a session read elsewhere (File > Open session), by the same rules.
std::variant<Lesson, SessionError> fromSession(const Session &session, const QString &path);

// The lessons of the program, in their order; read once.
const QList<Lesson> &all();
// Files in the lessons directory that are not lessons (a build mistake, which tests catch).
const QList<SessionError> &errors();
const Lesson *find(const QString &name);
QStringList names();

} // namespace Lessons

} // namespace posenc
